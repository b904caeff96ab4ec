// The TypeScript type a JSON Schema of shapes.ts describes. Only what those
// schemas use: const, enum, oneOf, object (properties, required), array,
// string, integer, number, boolean. (json-schema-to-ts does all of JSON Schema,
// and made the compiler give up on this table: "excessively deep".)

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type InferObject<P, R extends PropertyKey> = Simplify<
  { -readonly [K in keyof P & R]: Infer<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: Infer<P[K]> }
>;

export type Infer<S> = S extends unknown
  ? S extends { const: infer C }
    ? C
    : S extends { enum: readonly (infer E)[] }
      ? E
      : S extends { oneOf: readonly (infer O)[] }
        ? Infer<O>
        : S extends { type: 'object'; properties: infer P; required: readonly (infer R extends PropertyKey)[] }
          ? InferObject<P, R>
          : S extends { type: 'object'; properties: infer P }
            ? InferObject<P, never>
            : S extends { type: 'array'; items: infer I }
              ? Infer<I>[]
              : S extends { type: 'string' }
                ? string
                : S extends { type: 'integer' | 'number' }
                  ? number
                  : S extends { type: 'boolean' }
                    ? boolean
                    : unknown
  : never;

import { ServerMessage } from './server-messages.ts';

// A form's check that names every field's problem at once, so an admin mends a form in
// one go rather than one message per Save. The server answers with the first (in the
// form's order); the form shows them all.

/** Each field's first broken rule, in the form's order. */
export type FieldProblems<F extends string> = Partial<Record<F, string>>;

/** A checked form: its value, or every problem (`field` and `message` name the first). */
export type Checked<T, F extends string> =
  { ok: true; value: T } | { ok: false; field: F; message: string; problems: FieldProblems<F> };

/** Collects the problems of a form's fields while its checks run on. */
export class ProblemList<F extends string> {
  private readonly problems: FieldProblems<F> = {};

  /** Notes a field's problem; a field keeps its first. */
  add(field: F, message: string): void {
    this.problems[field] ??= message;
  }

  /** The form's value, built only when no field has a problem; else the problems. */
  result<T>(value: () => T): Checked<T, F> {
    const first = Object.entries(this.problems)[0] as [F, string] | undefined;
    if (!first) return { ok: true, value: value() };
    return { ok: false, field: first[0], message: first[1], problems: { ...this.problems } };
  }
}

/**
 * "Unknown field: x" for the first field of a request outside `known`, or undefined: a call
 * refuses a field it does not take rather than ignore it (a typo would otherwise pass as saved).
 */
export function unknownFieldProblem(params: Record<string, unknown>, known: readonly string[]): string | undefined {
  const other = Object.keys(params).find((key) => !known.includes(key));
  return other === undefined ? undefined : ServerMessage.unknownField(other.slice(0, 40));
}

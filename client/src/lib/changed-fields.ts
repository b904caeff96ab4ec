/**
 * The fields of an edit that differ from the record as the form was opened with it.
 * An edit sends only these: a field another admin changed meanwhile, and this admin
 * left alone, keeps the other admin's value rather than going back to the one this
 * form showed. (Two changes of one field: the later save wins.)
 */
export function changedFields<T extends object>(before: T, after: T): Partial<T> {
  const changes: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (after[key] !== before[key]) changes[key] = after[key];
  }
  return changes;
}

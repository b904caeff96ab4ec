/**
 * Results of a pure but costly function, by key, up to `cap` keys: then all are forgotten
 * at once and remembered again as they are asked for. (A result of undefined would never
 * be remembered, so none is taken.)
 */
export class Remembered<T extends NonNullable<unknown> | null> {
  private readonly values = new Map<string, T>();

  constructor(private readonly cap: number) {}

  get(key: string, work: () => T): T {
    let value = this.values.get(key);
    if (value === undefined) {
      if (this.values.size >= this.cap) this.values.clear();
      value = work();
      this.values.set(key, value);
    }
    return value;
  }
}

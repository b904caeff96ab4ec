/** A whole number, as a number or written in digits ("0x10", "1e3", "2.5" and the like are not); else null. */
export function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

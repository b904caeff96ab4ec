import { describe, expect, it } from 'vitest';
import { Remembered } from './remembered.ts';

describe('Remembered', () => {
  it('works a key out once, and again only after the cap has forgotten everything', () => {
    const remembered = new Remembered<string>(2);
    let runs = 0;
    const upper = (key: string) =>
      remembered.get(key, () => {
        runs += 1;
        return key.toUpperCase();
      });
    expect([upper('a'), upper('b'), upper('a'), upper('b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(runs).toBe(2);
    // A third key at the cap: all forgotten, then the new one remembered.
    expect(upper('c')).toBe('C');
    expect(upper('c')).toBe('C');
    expect(runs).toBe(3);
    expect(upper('a')).toBe('A');
    expect(runs).toBe(4);
  });
});

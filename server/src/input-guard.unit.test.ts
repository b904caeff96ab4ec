import { describe, expect, it } from 'vitest';
import { jsonProblem } from './input-guard.ts';

describe('jsonProblem', () => {
  it('takes any character, emoji included, and refuses half of a UTF-16 pair', () => {
    expect(jsonProblem({ fullname: 'Asha 😀 अनन्या', tags: ['✓'] })).toBeUndefined();
    expect(jsonProblem({ fullname: 'Asha \ud83d' })).toBe('unicode');
    expect(jsonProblem({ ['key\udc00']: 1 })).toBe('unicode');
    expect(jsonProblem({ fullname: 'Nul\u0000' })).toBe('control');
  });

  it('refuses a Parse-typed value only where plain JSON is asked for', () => {
    const typed = { when: { __type: 'Date', iso: '2026-01-01T00:00:00.000Z' } };
    expect(jsonProblem(typed)).toBeUndefined();
    expect(jsonProblem(typed, true)).toBe('typed');
    expect(jsonProblem({ list: [{ __type: 'Pointer' }] }, true)).toBe('typed');
  });
});

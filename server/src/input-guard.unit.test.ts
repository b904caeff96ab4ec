import { describe, expect, it } from 'vitest';
import { jsonProblem } from './input-guard.ts';

describe('jsonProblem', () => {
  it('takes any character, emoji included, and refuses half of a UTF-16 pair', () => {
    expect(jsonProblem({ fullname: 'Asha 😀 अनन्या', tags: ['✓'] })).toBeUndefined();
    expect(jsonProblem({ fullname: 'Asha \ud83d' })).toBe('unicode');
    expect(jsonProblem({ ['key\udc00']: 1 })).toBe('unicode');
    expect(jsonProblem({ fullname: 'Nul\u0000' })).toBe('control');
  });

  it("leaves a file's control characters to its reader, but for a NUL", () => {
    expect(jsonProblem({ objectId: 'x', csv: '1,5\u0001\n2,\u000b6\n\u001a' })).toBeUndefined();
    expect(jsonProblem({ csv: 'PK\u0003\u0004\u0000' })).toBe('control');
    // Only a file field of the call itself, and only its text.
    expect(jsonProblem({ title: 'a\u0001', csv: '1,5' })).toBe('control');
    expect(jsonProblem({ params: { csv: '1,5\u0001' } })).toBe('control');
    expect(jsonProblem({ csv: ['1,5\u0001'] })).toBe('control');
    expect(jsonProblem([{ csv: '1,5\u0001' }])).toBe('control');
  });

  it('refuses a Parse-typed value only where plain JSON is asked for', () => {
    const typed = { when: { __type: 'Date', iso: '2026-01-01T00:00:00.000Z' } };
    expect(jsonProblem(typed)).toBeUndefined();
    expect(jsonProblem(typed, true)).toBe('typed');
    expect(jsonProblem({ list: [{ __type: 'Pointer' }] }, true)).toBe('typed');
  });
});

// At most N password hashes at once through Parse's own password module.

import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { limitPasswordHashing } from './password-hashing.ts';

const require = createRequire(import.meta.url);

it('lets Parse run at most N hashes at once, and every one finishes', async () => {
  const password = require('parse-server/lib/password.js') as {
    hash(p: string): Promise<string>;
    compare(p: string, h: string): Promise<boolean>;
  };
  let running = 0;
  let most = 0;
  const slow = async <T>(value: T) => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 20));
    running--;
    return value;
  };
  password.hash = (p) => slow(`hashed:${p}`);
  password.compare = () => slow(true);
  limitPasswordHashing(2);

  const results = await Promise.all([
    ...Array.from({ length: 5 }, (_, i) => password.hash(`p${i}`)),
    ...Array.from({ length: 5 }, () => password.compare('p', 'h')),
  ]);
  expect(most).toBe(2);
  expect(results.slice(0, 5)).toEqual(['hashed:p0', 'hashed:p1', 'hashed:p2', 'hashed:p3', 'hashed:p4']);
  expect(results.slice(5).every(Boolean)).toBe(true);
});

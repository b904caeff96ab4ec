// Password hashing (bcrypt, about 60 ms of CPU each) runs on libuv's thread pool,
// which gzip, file reads and DNS share: 8 logins at once would take all 4 threads
// and both cores, and an admin's listing would wait behind them (issue 12 item 6).
// At most `concurrency` hashes run at once (default: the number of cores); the
// rest wait their turn in a queue of our own, so the pool always has a free thread.

import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Hashing = {
  hash(...args: unknown[]): Promise<unknown>;
  compare(...args: unknown[]): Promise<unknown>;
};

let limited = false;

export function limitPasswordHashing(concurrency = availableParallelism()): void {
  if (limited || concurrency <= 0) return;
  limited = true;
  let running = 0;
  const waiting: Array<() => void> = [];
  const run = async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
  // Parse reads these properties at each call, so replacing them reaches every caller.
  const password = require('parse-server/lib/password.js') as Hashing;
  // Parse's password module exports plain functions (no `this`): kept to be called later.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const { hash, compare } = password;
  password.hash = (...args) => run(() => hash(...args));
  password.compare = (...args) => run(() => compare(...args));
}

// Tries of one account from one address that this process has in flight, at most a
// few at once; the others wait in memory and take a slot as a password check ends.
// The guard's counter in the database keeps the same bound across instances; this
// keeps a burst in one process (a family's devices, a bench) from polling it.

interface Entry {
  /** One expiry per slot taken: a slot its holder never gives back frees itself. */
  held: NodeJS.Timeout[];
  waiting: Array<() => void>;
}

export function loginSlots(limit: number, expireMs: number) {
  const entries = new Map<string, Entry>();

  const hold = (key: string, entry: Entry) => {
    const timer: NodeJS.Timeout = setTimeout(() => {
      const index = entry.held.indexOf(timer);
      if (index >= 0) entry.held.splice(index, 1);
      handOn(key, entry);
    }, expireMs);
    timer.unref();
    entry.held.push(timer);
  };

  /** A slot freed: to the first one waiting, else it goes. */
  const handOn = (key: string, entry: Entry) => {
    const next = entry.waiting.shift();
    if (next) {
      hold(key, entry);
      next();
    } else if (!entry.held.length) {
      entries.delete(key);
    }
  };

  return {
    /** A slot for `key`, at once or within `waitMs`; false when none came free in time. */
    take(key: string, waitMs: number): Promise<boolean> {
      let entry = entries.get(key);
      if (!entry) entries.set(key, (entry = { held: [], waiting: [] }));
      if (entry.held.length < limit) {
        hold(key, entry);
        return Promise.resolve(true);
      }
      const waiting = entry;
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timeout);
          resolve(true);
        };
        const timeout = setTimeout(() => {
          waiting.waiting.splice(waiting.waiting.indexOf(wake) >>> 0, 1);
          if (!waiting.held.length && !waiting.waiting.length) entries.delete(key);
          resolve(false);
        }, waitMs);
        waiting.waiting.push(wake);
      });
    },
    /** Gives back a slot of `key`. */
    give(key: string): void {
      const entry = entries.get(key);
      const timer = entry?.held.shift();
      if (!entry || !timer) return;
      clearTimeout(timer);
      handOn(key, entry);
    },
  };
}

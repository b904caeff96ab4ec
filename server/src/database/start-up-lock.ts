// Instances that start together on one database (`docker compose up --scale
// app=3` on the first deployment) set it up one at a time. Parse Server creates
// its tables, functions and indexes with `IF NOT EXISTS`, as does our migration,
// and two sessions doing that at once collide (duplicate keys in PostgreSQL's
// catalogue, deadlocks): the instance that loses fails to start.

import type pg from 'pg';
import type { Sql } from './sql.ts';

/** The advisory lock's key: any constant of the site's own. */
const LOCK_KEY = 0x7c_1d_e7;
/** How often a waiting instance looks whether the lock is free. */
const POLL_MS = 200;

/**
 * Takes the start-up lock on a connection of its own, and resolves to what lets
 * it go (once; a second call does nothing). A waiting instance holds no statement open meanwhile: an open one would
 * make the other's concurrent index builds (migrate.ts) wait for it in turn.
 */
export async function takeStartUpLock(pool: Sql): Promise<() => Promise<void>> {
  const client: pg.PoolClient = await pool.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LOCK_KEY]);
      if (rows[0]!.locked) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    try {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
      client.release();
    } catch (error) {
      // Closing the connection lets the lock go too.
      client.release(error as Error);
    }
  };
}

import type pg from 'pg';
import { until } from './until.ts';

/**
 * Waits until at least `count` statements of the site with `fragment` in their text wait on
 * a lock (one a test transaction holds): the point at which a test can go on knowing they
 * have read what they read before the lock.
 */
export async function lockWaitsOn(sql: Pick<pg.Pool, 'query'>, fragment: string, count = 1): Promise<void> {
  await until(async () => {
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
      [`%${fragment}%`],
    );
    return rows[0]!.n >= count;
  }, 10_000);
}

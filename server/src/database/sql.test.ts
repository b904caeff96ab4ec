// The site's pool on a real PostgreSQL: a connection that dies while checked out
// between two queries is no uncaught error (Parse Server would end the process on one).

import { expect, it } from 'vitest';
import { createDatabase } from '../../../testing/site.ts';
import { createPool } from './sql.ts';

it('survives a checked-out connection dying between two queries; its next query fails', async () => {
  const pool = createPool(await createDatabase(), 2);
  const held = await pool.connect();
  const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  // The server ends that connection (as a dying or restarting database does) while no query runs on it.
  await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await expect(held.query('SELECT 1')).rejects.toThrow();
  held.release(true);
  expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  await pool.end();
});

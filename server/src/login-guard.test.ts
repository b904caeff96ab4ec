// The login counters in PostgreSQL are deleted once they have run out: each row is a
// keyed hash of an e-mail or a mobile with a client address.

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../testing/site.ts';
import { limiterFactory } from './login-guard.ts';

const pools: pg.Pool[] = [];
afterAll(async () => {
  for (const pool of pools) await pool.end();
});

describe('the login counters in PostgreSQL', () => {
  it('deletes the counters that have run out, and only those', async () => {
    const sql = new pg.Pool({ connectionString: await createDatabase() });
    pools.push(sql);
    const factory = await limiterFactory({ sql });
    const brief = await factory.make({ keyPrefix: 'sweep_brief', points: 5, duration: 1 });
    const long = await factory.make({ keyPrefix: 'sweep_long', points: 5, duration: 600 });
    await brief.consume('account-and-address');
    await long.consume('account-and-address');
    const count = async (table: string) =>
      Number((await sql.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n as string);
    expect(await count('rl_sweep_brief')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await factory.sweep();
    expect(await count('rl_sweep_brief')).toBe(0);
    expect(await count('rl_sweep_long')).toBe(1);
    await factory.close();
  });
});

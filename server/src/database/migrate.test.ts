// The start-up migration's indexes are built without stopping writes, past a
// request's time limit, one instance at a time, and built again when a build was
// cut short.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../testing/site.ts';
import { buildIndexes, type IndexDefinition } from './migrate.ts';
import { takeStartUpLock } from './start-up-lock.ts';
import { createPool, type Sql } from './sql.ts';

let uri: string;
/** The site's own kind of pool: a statement may take half a second here. */
let pool: Sql;
const others: pg.Pool[] = [];

/** What an instance's start-up does with its indexes: under the start-up lock, on a connection of their own. */
async function ensureIndexes(on: Sql, indexes: IndexDefinition[]): Promise<void> {
  const release = await takeStartUpLock(on);
  const client = await on.connect();
  try {
    await buildIndexes(client, indexes);
  } finally {
    client.release();
    await release();
  }
}

beforeAll(async () => {
  uri = await createDatabase();
  pool = createPool(uri, 5, { connectMs: 3_000, statementMs: 500 });
});
afterAll(async () => {
  await pool?.end();
  for (const other of others) await other.end();
});

let tables = 0;
/** A table of its own for each test, with `rows` rows. */
async function newTable(rows = 1_000): Promise<string> {
  const table = `marks_${++tables}`;
  await pool.query(`CREATE TABLE ${table} (student text, assessment text, marks numeric)`);
  await pool.query(`INSERT INTO ${table} SELECT 's' || n, 'a' || (n % 7), n % 20 FROM generate_series(1, $1) AS n`, [
    rows,
  ]);
  return table;
}

async function indexState(name: string): Promise<{ valid: boolean; oid: number } | undefined> {
  const { rows } = await pool.query<{ valid: boolean; oid: number }>(
    `SELECT i.indisvalid AS valid, i.indexrelid::int AS oid FROM pg_index i
     JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1`,
    [name],
  );
  return rows[0];
}

function newPool(): pg.Pool {
  const other = new pg.Pool({ connectionString: uri, max: 2 });
  others.push(other);
  return other;
}

describe("the migration's indexes", () => {
  it('builds the missing indexes, unique ones unique, and leaves built ones alone', async () => {
    const table = await newTable();
    const indexes: IndexDefinition[] = [
      { name: `${table}_student`, on: `${table} (student)`, unique: true },
      { name: `${table}_assessment`, on: `${table} (assessment) WHERE marks > 10` },
    ];
    await ensureIndexes(pool, indexes);
    const first = await Promise.all(indexes.map((index) => indexState(index.name)));
    expect(first.map((state) => state?.valid)).toEqual([true, true]);
    await expect(pool.query(`INSERT INTO ${table} VALUES ('s1', 'a1', 1)`)).rejects.toThrow(/duplicate key/);

    await ensureIndexes(pool, indexes);
    expect(await Promise.all(indexes.map((index) => indexState(index.name)))).toEqual(first);
  });

  it('builds an index again when its last build failed and left it invalid', async () => {
    const table = await newTable();
    await pool.query(`INSERT INTO ${table} VALUES ('s1', 'a1', 1)`);
    const index = { name: `${table}_student`, on: `${table} (student)`, unique: true };
    await expect(ensureIndexes(pool, [index])).rejects.toThrow(/could not create unique index/);
    const failed = await indexState(index.name);
    // What a failed (or cut-off) concurrent build leaves: an index that is never used.
    expect(failed?.valid).toBe(false);

    await pool.query(`DELETE FROM ${table} WHERE ctid = (SELECT max(ctid) FROM ${table} WHERE student = 's1')`);
    await ensureIndexes(pool, [index]);
    const rebuilt = await indexState(index.name);
    expect(rebuilt?.valid).toBe(true);
    expect(rebuilt?.oid).not.toBe(failed?.oid);
  });

  it('lets writes go on while a build waits, and waits past the statement time limit of requests', async () => {
    const table = await newTable();
    // A transaction in progress: any build of an index must wait for it to end.
    const writer = await newPool().connect();
    await writer.query('BEGIN');
    await writer.query(`INSERT INTO ${table} VALUES ('busy', 'a1', 3)`);
    const building = ensureIndexes(pool, [{ name: `${table}_marks`, on: `${table} (marks)` }]);
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Another parent's write meanwhile goes through at once (behind a plain CREATE INDEX it would queue).
    const other = await newPool().connect();
    await other.query(`SET lock_timeout = '500ms'`);
    await other.query(`INSERT INTO ${table} VALUES ('other', 'a2', 4)`);
    other.release();

    // The build has now waited longer than the pool's 500 ms per statement, and goes on.
    await new Promise((resolve) => setTimeout(resolve, 700));
    await writer.query('COMMIT');
    writer.release();
    await building;
    expect((await indexState(`${table}_marks`))?.valid).toBe(true);
  });

  it('builds each index once when two instances start together', async () => {
    const table = await newTable(50_000);
    const indexes: IndexDefinition[] = ['student', 'assessment', 'marks'].map((column) => ({
      name: `${table}_${column}`,
      on: `${table} (${column})`,
    }));
    const second = createPool(uri, 5, { connectMs: 3_000, statementMs: 500 });
    others.push(second);
    await Promise.all([ensureIndexes(pool, indexes), ensureIndexes(second, indexes)]);
    const states = await Promise.all(indexes.map((index) => indexState(index.name)));
    expect(states.map((state) => state?.valid)).toEqual([true, true, true]);
  });
});

// The app's own connection pool, for what Parse cannot express: the enrollment
// sequence, the health check, the start-up migration (migrate.ts), and the cloud
// code's own statements (cloudSql, inTransaction).

import pg from 'pg';
import type { Sql as CloudSql } from '@tc/cloud/deps';

export type Sql = pg.Pool;

export interface PoolTimeouts {
  /** Connecting, and waiting for a free connection of the pool. */
  connectMs: number;
  /** One statement, on the server (statement_timeout) and, a little later, on the client. */
  statementMs: number;
}

/**
 * The user, password and database a connection string names, percent-decoded. Parse
 * Server's PostgreSQL adapter takes them from the string as they are spelled
 * (PostgresConfigParser), so a password with `@`, `/`, `%` or a space, which the string
 * must write as `%40`, `%2F`... would reach PostgreSQL still encoded and be refused. pg,
 * which the rest of the site uses, decodes them.
 */
export function decodedCredentials(uri: string): { user?: string; password?: string; database?: string } {
  const url = new URL(uri);
  // A `%` not followed by two hex digits is itself (pg reads it so, and so did Parse): kept.
  const decoded = (part: string) => {
    if (!part) return undefined;
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const named = {
    user: decoded(url.username),
    password: decoded(url.password),
    database: decoded(url.pathname.slice(1)),
  };
  return Object.fromEntries(Object.entries(named).filter(([, value]) => value !== undefined));
}

/** pg's connection options that make a frozen or dead database fail fast instead of hanging. */
export function timeoutOptions(timeouts: PoolTimeouts) {
  return {
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    // A frozen server cannot enforce its own statement_timeout: the client gives up too.
    query_timeout: timeouts.statementMs + 1_000,
    idle_in_transaction_session_timeout: timeouts.statementMs * 2,
  };
}

export function createPool(uri: string, max = 5, timeouts?: PoolTimeouts): Sql {
  const pool = new pg.Pool({
    connectionString: uri,
    max,
    idleTimeoutMillis: 10_000,
    ...(timeouts ? timeoutOptions(timeouts) : {}),
  });
  // An idle connection that dies is the pool's (its 'error'); one checked out between two
  // queries (a transaction awaiting the next step, an export) has no listener of its own,
  // and its 'error' would be uncaught: Parse Server then ends the process. Its next
  // query fails instead, and its holder sees that.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export async function nextEnrollmentId(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ id: string }>(`SELECT nextval('student_enrollment_seq') AS id`);
  return Number(rows[0]!.id);
}

/** Whether the database answers within the time (a frozen one must not hold the health check). */
export async function isHealthy(sql: Sql, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = sql.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The cloud code's `sql` over a pool or one of its clients (in a transaction): the rows of
 * one statement, prepared once per connection when it is given a name.
 */
export function cloudSql(db: Pick<pg.Pool | pg.PoolClient, 'query'>): CloudSql {
  return async <Row extends object>(text: string, values?: readonly unknown[], prepared?: string) =>
    (await db.query({ text, values: values as unknown[], ...(prepared ? { name: prepared } : {}) })).rows as Row[];
}

/** Runs `work` on one connection inside BEGIN … COMMIT; ROLLBACK when it throws. */
export async function inTransaction<T>(sql: Sql, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await sql.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

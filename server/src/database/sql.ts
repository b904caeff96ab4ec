// The app's own connection pool, for what Parse cannot express: unique indexes,
// the enrollment sequence and the health check.

import pg from 'pg';
import { logger } from '../logger.ts';
import { protectActivityLog } from './activity-log.ts';
import { ensureIndexes, type IndexDefinition } from './indexes.ts';

export type Sql = pg.Pool;

export interface PoolTimeouts {
  /** Connecting, and waiting for a free connection of the pool. */
  connectMs: number;
  /** One statement, on the server (statement_timeout) and, a little later, on the client. */
  statementMs: number;
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
  pool.on('error', () => undefined);
  return pool;
}

/** The site's own indexes on Parse's tables (built by indexes.ts, without blocking writes). */
const INDEXES: readonly IndexDefinition[] = [
  { name: '_User_unique_mobile', on: '"_User" (mobile)', unique: true },
  { name: '_User_unique_enrollmentId', on: '"_User" ("enrollmentId")', unique: true },
  { name: 'OneTimeCode_unique_active', on: '"OneTimeCode" (purpose, target) WHERE active', unique: true },
  // One result per student and assessment; saving marks upserts on it.
  { name: 'Mark_unique_assessment_student', on: '"Mark" ("assessmentId", "studentId")', unique: true },
  // A student's progress reads their marks by student: without this, PostgreSQL
  // skip-scans the index above once per assessment, a cost that grows every year.
  { name: 'Mark_student', on: '"Mark" ("studentId")' },
  // Parse makes no index on sessions: every authenticated call (by token) and every
  // "log out everywhere" (by account) would read the whole table, which grows with
  // every login of 100,000 students.
  { name: '_Session_sessionToken', on: '"_Session" ("sessionToken")' },
  { name: '_Session_user', on: '"_Session" ("user")' },
];

/** Applied after Parse has created its tables. */
export async function migrate(sql: Sql): Promise<void> {
  // A session's last use (cloud/src/users/sessions.ts reads and writes it in SQL on every call).
  await sql.query(`ALTER TABLE "_Session" ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamp with time zone`);
  await sql.query(`CREATE SEQUENCE IF NOT EXISTS student_enrollment_seq`);
  await ensureIndexes(sql, [...INDEXES, ...(await searchIndexes(sql))]);
  await protectActivityLog(sql);
  // Never hand out a number that is already taken (e.g. after a restore).
  await sql.query(`
    SELECT setval('student_enrollment_seq', m, true)
    FROM (SELECT MAX("enrollmentId")::bigint AS m FROM "_User") AS s
    WHERE m IS NOT NULL
      AND m > (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM student_enrollment_seq)`);
}

/**
 * The admin table searches names, e-mails and mobiles by substring: trigram
 * indexes keep that fast with many students. An external PostgreSQL may not let
 * us add the extension; the search then still works, only slower.
 */
async function searchIndexes(sql: Sql): Promise<IndexDefinition[]> {
  try {
    await sql.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch (error) {
    logger.warn({ error: (error as Error).message }, 'pg_trgm is not available; student search will scan the table');
    return [];
  }
  return ['fullname', 'email', 'mobile'].map((column) => ({
    name: `_User_trgm_${column}`,
    on: `"_User" USING gin ("${column}" gin_trgm_ops)`,
  }));
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

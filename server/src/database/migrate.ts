// The start-up migration: what the site adds to Parse's tables (a column, a
// sequence, indexes, the activity log's triggers, the erased accounts' trigger). Every instance runs it as it
// starts, one at a time (start-up-lock.ts), and never stops the centre's work:
// indexes are built CONCURRENTLY (reads and writes of the table go on meanwhile)
// and without the statement time limit a request has. A build that failed or was
// cut off (a crash, a duplicate in a unique index) leaves an invalid index that
// `IF NOT EXISTS` would skip for ever; the next start drops it and builds it again.

import type pg from 'pg';
import { ACTIVITY_CLASS, MARKS_ENTRIES } from '@tc/cloud/activity/log';
import { logger } from '../logger.ts';
import { protectActivityLog } from './activity-log.ts';
import { keepErasedAccountsErased } from './erased-accounts.ts';
import type { Sql } from './sql.ts';

export interface IndexDefinition {
  name: string;
  /** What follows `ON`: the table and the columns, with `USING` and `WHERE` when needed. */
  on: string;
  unique?: boolean;
}

/** The site's own indexes on Parse's tables. */
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
  // A student's History finds their marks in the entries of marks saved (one entry per
  // save, naming every student it changed) and of drafts deleted with their marks: by
  // containment, `changes @> [{"field": "#12"}]`. (Named anew when its entries changed: an
  // index of the old name is dropped, RETIRED_INDEXES.)
  {
    name: 'ActivityEntry_mark_lines',
    on: `"${ACTIVITY_CLASS}" USING gin (changes jsonb_path_ops) WHERE ${MARKS_ENTRIES}`,
  },
];

/** Indexes of earlier versions, dropped once their successors are built. */
const RETIRED_INDEXES = ['ActivityEntry_marks_changes'];

/** The longest one index build may take (on the server and on the client). */
const INDEX_BUILD_LIMIT_MS = 60 * 60 * 1000;
/** The client's own limit on a build or drop, a little past the server's. */
const BUILD_TIMEOUT = { query_timeout: INDEX_BUILD_LIMIT_MS + 1_000 };

/** Applied after Parse has created its tables, under the start-up lock (start-up-lock.ts). */
export async function migrate(pool: Sql): Promise<void> {
  const client = await pool.connect();
  try {
    // A session's last use (cloud/src/users/sessions.ts reads and writes it in SQL on every call).
    await client.query(`ALTER TABLE "_Session" ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamp with time zone`);
    await client.query(`CREATE SEQUENCE IF NOT EXISTS student_enrollment_seq`);
    await buildIndexes(client, [...INDEXES, ...(await searchIndexes(client))]);
    await dropIndexes(client, RETIRED_INDEXES);
    // Assessments published before students saw an average of their own (cloud/src/assessments/store.ts).
    await client.query(`UPDATE "Assessment" SET "shownAverage" = average, "shownCount" = "markedCount"
                        WHERE status = 'published' AND "shownCount" IS NULL`);
    await protectActivityLog(pool);
    await keepErasedAccountsErased(pool);
    // Never hand out a number that is already taken (e.g. after a restore).
    await client.query(`
      SELECT setval('student_enrollment_seq', m, true)
      FROM (SELECT MAX("enrollmentId")::bigint AS m FROM "_User") AS s
      WHERE m IS NOT NULL
        AND m > (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM student_enrollment_seq)`);
  } catch (error) {
    // A connection left in an unknown state (a build cut off by its time limit) is not reused.
    client.release(error as Error);
    throw error;
  }
  client.release();
}

/** Builds every index of the list that is missing or invalid, CONCURRENTLY. */
export async function buildIndexes(client: pg.PoolClient, indexes: readonly IndexDefinition[]): Promise<void> {
  await client.query(`SET statement_timeout = ${INDEX_BUILD_LIMIT_MS}`);
  for (const index of indexes) {
    const { rows } = await client.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
      [index.name],
    );
    if (rows[0]?.valid) continue;
    if (rows[0]) await client.query({ text: `DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`, ...BUILD_TIMEOUT });
    await client.query({
      text: `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX CONCURRENTLY IF NOT EXISTS "${index.name}" ON ${index.on}`,
      ...BUILD_TIMEOUT,
    });
  }
  await client.query('RESET statement_timeout');
}

/** Drops the indexes named, CONCURRENTLY (reads and writes of their tables go on meanwhile). */
async function dropIndexes(client: pg.PoolClient, names: readonly string[]): Promise<void> {
  await client.query(`SET statement_timeout = ${INDEX_BUILD_LIMIT_MS}`);
  for (const name of names) {
    await client.query({ text: `DROP INDEX CONCURRENTLY IF EXISTS "${name}"`, ...BUILD_TIMEOUT });
  }
  await client.query('RESET statement_timeout');
}

/**
 * The admin table searches names, e-mails and mobiles by substring: trigram
 * indexes keep that fast with many students. An external PostgreSQL may not let
 * us add the extension; the search then still works, only slower.
 */
async function searchIndexes(client: pg.PoolClient): Promise<IndexDefinition[]> {
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch (error) {
    logger.warn({ error: (error as Error).message }, 'pg_trgm is not available; student search will scan the table');
    return [];
  }
  return ['fullname', 'email', 'mobile'].map((column) => ({
    name: `_User_trgm_${column}`,
    on: `"_User" USING gin ("${column}" gin_trgm_ops)`,
  }));
}

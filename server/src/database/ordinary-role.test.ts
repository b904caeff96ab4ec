// The site needs no superuser: the role docker-compose.yml's set-up script makes
// (deploy/postgres/app-role.sh: it owns its database and nothing more) starts the site, whose
// start-up creates Parse's tables, the migration's extension and indexes and the mail
// queue's schema; registers, mails, publishes marks; and backs up and restores.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { batchOf, draftWithMarks } from '../../../testing/publication.ts';
import { loginAdmin, loginStudent, mailTo, startTestSite, type TestSite } from '../../../testing/site.ts';
import { backupDatabase, restoreDatabase } from '../operations/backup.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const made: { role: string; database: string }[] = [];

/**
 * docker-compose.yml's set-up script, run as the postgres image runs it (its superuser,
 * the variables the compose file gives it): a database and the role that owns it, with a
 * password PostgreSQL's quoting must survive. Its connection string.
 */
function ownedDatabase(): string {
  const suffix = randomBytes(5).toString('hex');
  const role = `r_${suffix}`;
  const database = `o_${suffix}`;
  const password = `it's a "${randomBytes(6).toString('hex')}" \\`;
  const superuser = new URL(inject('postgresUri'));
  const run = spawnSync('sh', [path.join(root, 'deploy/postgres/app-role.sh')], {
    env: {
      PATH: process.env.PATH,
      PGHOST: superuser.hostname,
      PGPORT: superuser.port,
      PGPASSWORD: decodeURIComponent(superuser.password),
      POSTGRES_USER: decodeURIComponent(superuser.username),
      APP_DB_USER: role,
      APP_DB_NAME: database,
      APP_DB_PASSWORD: password,
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  made.push({ role, database });
  const uri = new URL(superuser);
  uri.username = role;
  uri.password = encodeURIComponent(password);
  uri.pathname = `/${database}`;
  return uri.toString();
}

let t: TestSite;
let backups: string;
beforeAll(async () => {
  backups = mkdtempSync(path.join(tmpdir(), 'tc-ordinary-role-'));
  t = await startTestSite({ DATABASE_URI: ownedDatabase() });
});

afterAll(async () => {
  await t?.stop();
  rmSync(backups, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: inject('postgresUri') });
  await admin.connect();
  for (const { role, database } of made) {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
  }
  await admin.end();
});

it('runs as a role that owns its database and is no superuser', { timeout: 120_000 }, async () => {
  const { rows } = await t.sql.query<{ rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean }>(
    `SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user`,
  );
  expect(rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false }]);
  // The migration's search extension, created by the owner (pg_trgm is a trusted extension).
  const { rows: extensions } = await t.sql.query(`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`);
  expect(extensions).toHaveLength(1);

  // Registration with its welcome mail through the queue; marks published, mailed and read.
  const admin = await loginAdmin(t);
  const students = await batchOf(t, 5, 4, 'CBSE');
  await mailTo(t, students[0]!.email, /enrollment number/i);
  const found = await t.api('GET', `/api/users?q=${encodeURIComponent(students[0]!.email)}`, undefined, admin);
  expect(found.status).toBe(200);
  expect(found.headers.get('x-total-count')).toBe('1');
  const id = await draftWithMarks(
    t,
    admin,
    { grade: 4, board: 'CBSE', subject: 'Science', title: 'Owner only', date: '2026-11-02', maxMarks: 20 },
    students.map((s, i) => ({ id: s.id, value: String(10 + i) })),
  );
  expect((await t.api('POST', `/api/assessments/${id}/publish`, {}, admin)).status).toBe(200);
  await mailTo(t, students[1]!.email, /New marks in Science: Owner only, 11 \/ 20/);
  const token = await loginStudent(t, students[1]!.email, students[1]!.password);
  const progress = await t.api('GET', '/api/students/me/progress', undefined, token);
  expect(progress.status).toBe(200);
  expect(progress.body.assessments[0]).toMatchObject({ marks: 11, batchAverage: 12 });

  // A backup made with the site's own connection restores into another owner's database, and over it.
  const { file } = await backupDatabase(t.site.databaseUri, backups);
  const target = ownedDatabase();
  const marksIn = async (uri: string) => {
    const client = new pg.Client({ connectionString: uri });
    await client.connect();
    try {
      return (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Mark"`)).rows[0]!.n;
    } finally {
      await client.end();
    }
  };
  await restoreDatabase(target, file);
  expect(await marksIn(target)).toBe(5);
  // Over a database that holds data (--force drops the schema public and makes it again).
  await restoreDatabase(target, file, { force: true });
  expect(await marksIn(target)).toBe(5);
});

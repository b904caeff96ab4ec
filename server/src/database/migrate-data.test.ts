// What the start-up migration and the seed do to a site's data that an earlier version left:
// the average students see (cloud/src/assessments/store.ts) where no admin's save made it (an
// assessment published before it existed gets it at the next start, and the seed gives it),
// and an index of an earlier version replaced by its successor.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { batchOf, draftWithMarks } from '../../../testing/publication.ts';
import { loginAdmin, loginStudent, startTestSite, type TestSite } from '../../../testing/site.ts';
import { migrate } from './migrate.ts';
import { seedAssessments, seedStudents } from './seed.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

it('gives an assessment published before the average students see existed that average at the next start', async () => {
  const admin = await loginAdmin(t);
  const students = await batchOf(t, 5, 3, 'ICSE');
  const id = await draftWithMarks(
    t,
    admin,
    { grade: 3, board: 'ICSE', subject: 'English', title: 'Before', date: '2026-10-01', maxMarks: 10 },
    students.map((s, i) => ({ id: s.id, value: String(4 + i) })),
  );
  expect((await t.api('POST', `/api/assessments/${id}/publish`, {}, admin)).status).toBe(200);
  // As the site before it stored them left it.
  await t.sql.query(
    `UPDATE "Assessment" SET "shownAverage" = NULL, "shownCount" = NULL, "changedSinceShown" = NULL WHERE "objectId" = $1`,
    [id],
  );
  const token = await loginStudent(t, students[0]!.email, students[0]!.password);
  const seen = async () => (await t.api('GET', '/api/students/me/progress', undefined, token)).body.assessments[0];
  expect((await seen()).batchAverage).toBeUndefined();

  await migrate(t.sql);
  expect(await seen()).toMatchObject({ title: 'Before', batchAverage: 6, batchAveragePercentage: 60 });
  // Run again (every start does): nothing changes.
  await migrate(t.sql);
  expect((await seen()).batchAverage).toBe(6);
});

it('seeds assessments whose students see their average', async () => {
  await seedStudents(t.sql, 60);
  const seeded = await seedAssessments(t.sql, 1);
  expect(seeded.marks).toBeGreaterThan(0);
  const { rows } = await t.sql.query(
    `SELECT count(*)::int AS n FROM "Assessment" WHERE "shownCount" IS DISTINCT FROM "markedCount"
       OR "shownAverage" IS DISTINCT FROM average`,
  );
  expect(rows).toEqual([{ n: 0 }]);
});

it("replaces an earlier version's index of the History's marks entries with the one that also finds deleted drafts", async () => {
  // As the version before it left the database.
  await t.sql.query(`DROP INDEX IF EXISTS "ActivityEntry_mark_lines"`);
  await t.sql.query(
    `CREATE INDEX "ActivityEntry_marks_changes" ON "ActivityEntry" USING gin (changes jsonb_path_ops)
     WHERE kind IN ('marks.save', 'marks.import')`,
  );
  await migrate(t.sql);
  const { rows } = await t.sql.query<{ relname: string; valid: boolean }>(
    `SELECT c.relname, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname IN ('ActivityEntry_marks_changes', 'ActivityEntry_mark_lines')`,
  );
  expect(rows).toEqual([{ relname: 'ActivityEntry_mark_lines', valid: true }]);
});

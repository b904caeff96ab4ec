// The seeded timetable (npm run seed, npm run bench): every batch gets a full week
// that the cloud code serves as it serves one made by an admin.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { loginStudent, startTestSite, type TestSite } from '../../../testing/site.ts';
import { SEED_PASSWORD, seedStudents, seedTimetable } from './seed.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

it('seeds every batch a week of classes, once, and a seeded student reads theirs', async () => {
  await seedStudents(t.sql, 20);
  const seeded = await seedTimetable(t.sql, '2026-11-23');
  expect(seeded).toEqual({ slots: 27 * 10 + 9, holidays: 5 });
  expect(await seedTimetable(t.sql, '2026-11-23')).toEqual({ slots: 0, holidays: 0 });

  const { rows } = await t.sql.query(
    `SELECT email, grade, board FROM "_User" WHERE "enrollmentId" IS NOT NULL ORDER BY "enrollmentId" LIMIT 1`,
  );
  const token = await loginStudent(t, rows[0].email, SEED_PASSWORD);
  const schedule = await t.api('GET', '/api/students/me/schedule?week=2026-11-23', undefined, token);
  expect(schedule.status).toBe(200);
  expect(schedule.body).toMatchObject({ grade: rows[0].grade, board: rows[0].board, hasTimetable: true });
  const perDay = schedule.body.days.map((d: { classes: unknown[] }) => d.classes.length);
  expect(perDay).toEqual([2, 2, 2, 2, 2, 1, 0]);

  // The raw SQL the benchmark compares the call with reads the same batch.
  const { rows: batch } = await t.sql.query(
    `SELECT u.grade, u.board FROM "_Session" s JOIN "_User" u ON s."user" = u."objectId"
     WHERE s."sessionToken" = $1`,
    [token],
  );
  expect(batch).toEqual([{ grade: rows[0].grade, board: rows[0].board }]);
});

// Assessments, marks, CSV, publishing and progress on the real site: every
// rule, the permissions on every path, the average threshold and exactly-once
// mails to the SMTP capture.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssessmentMessage as M, MARKS_MAX_ROWS, MARKS_SAVE_MAX_ROWS } from '@tc/domain/assessments';
import { ServerMessage } from '@tc/domain/server-messages';
import { loginAdmin, loginStudent, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { newStudent } from '../../../testing/students.ts';
import { lockWaitsOn } from '../../../testing/locks.ts';
import { publicationMailKey } from './store.ts';

let t: TestSite;
let admin: string;
beforeAll(async () => {
  // Over a hundred pupils register from this one address: more than the default limit of codes texted.
  t = await startTestSite({ RATE_LIMIT_MAX: '1000' });
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t?.stop();
});

interface Pupil {
  objectId: string;
  id: number;
  email: string;
  password: string;
  token?: string;
}

// Each test takes its own grade or board, so batches never mix between tests.
async function pupils(count: number, grade: number, board = 'CBSE'): Promise<Pupil[]> {
  const made: Pupil[] = [];
  for (let i = 0; i < count; i++) {
    const { student, result } = await register(t, newStudent({ grade, board }));
    expect(result.status).toBe(201);
    made.push({ objectId: result.body.objectId, id: result.body.id, email: student.email, password: student.password });
  }
  return made;
}

async function tokenOf(pupil: Pupil): Promise<string> {
  pupil.token ??= await loginStudent(t, pupil.email, pupil.password);
  return pupil.token;
}

const assessment = (overrides: Record<string, unknown> = {}) => ({
  grade: 4,
  board: 'CBSE',
  subject: 'Mathematics',
  title: 'Unit Test 3',
  date: '2026-11-20',
  maxMarks: 20,
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}) {
  const res = await t.api('POST', '/api/assessments', assessment(overrides), admin);
  expect(res.status).toBe(201);
  return res.body as { objectId: string; status: string };
}

const save = (id: string, rows: { id: number; value: string }[], token = admin) =>
  t.api('PUT', `/api/assessments/${id}/marks`, { rows }, token);

/** Waits until a statement of the site with `fragment` in its text waits on a lock a test transaction holds. */
const lockWaitOn = (fragment: string, count = 1) => lockWaitsOn(t.sql, fragment, count);

/**
 * Another admin's change made while a call waits: the assessment's row is held, the call is
 * sent, and once it waits on `waitsOn` the change (`meanwhile`, of the row as $1) is made and
 * the row let go. Answers the call's answer.
 */
async function whileAnotherAdminChanges<R>(
  objectId: string,
  call: () => Promise<R>,
  waitsOn: string,
  meanwhile: string,
) {
  const holder = await t.sql.connect();
  try {
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM "Assessment" WHERE "objectId" = $1 FOR UPDATE`, [objectId]);
    const answer = call();
    await lockWaitOn(waitsOn);
    await holder.query(meanwhile, [objectId]);
    await holder.query('COMMIT');
    return await answer;
  } finally {
    await holder.query('ROLLBACK').catch(() => undefined);
    holder.release();
  }
}

/** The marks mails a student got (the welcome mail of their registration aside). */
async function mailsTo(email: string) {
  await t.site.drainMail();
  return t.captures.mails.filter((m) => m.to.includes(email) && !/Welcome/.test(m.raw));
}

describe('assessment rules', () => {
  it('creates a draft with the rules of domain/', async () => {
    const res = await t.api('POST', '/api/assessments', assessment({ title: '  Unit   Test 1 ' }), admin);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', title: 'Unit Test 1', grade: 4, markedCount: 0 });
    const { rows } = await t.sql.query(`SELECT status FROM "Assessment" WHERE "objectId" = $1`, [res.body.objectId]);
    expect(rows[0].status).toBe('draft');
  });

  it.each([
    [{ grade: 10 }, 'grade', M.gradeInvalid],
    [{ board: 'IB' }, 'board', M.boardInvalid],
    [{ subject: 'Physics' }, 'subject', M.subjectInvalid],
    [{ title: '' }, 'title', M.titleRequired],
    [{ title: 'x'.repeat(81) }, 'title', M.titleTooLong],
    [{ date: '2026-13-01' }, 'date', M.dateInvalid],
    [{ maxMarks: 0 }, 'maxMarks', M.maxMarksInvalid],
    [{ maxMarks: 1001 }, 'maxMarks', M.maxMarksInvalid],
  ])('refuses %j with 400 naming the field', async (change, field, message) => {
    const res = await t.api('POST', '/api/assessments', assessment(change), admin);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, code: 142, field });
  });

  it('refuses a field it does not write rather than ignoring it; a listed record sent back is taken', async () => {
    const unknown = await t.api('POST', '/api/assessments', { ...assessment({}), colour: 'red' }, admin);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Unknown field: colour', code: 142 });
    const asPublished = await t.api('POST', '/api/assessments', { ...assessment({}), status: 'published' }, admin);
    expect(asPublished.body).toMatchObject({ error: 'Unknown field: status' });
    const withId = await t.api('POST', '/api/assessments', { ...assessment({}), objectId: 'chosen' }, admin);
    expect(withId.body).toMatchObject({ error: 'Unknown field: objectId' });

    const [p] = await pupils(1, 5, 'State');
    const a = await create({ grade: 5, board: 'State' });
    await save(a.objectId, [{ id: p!.id, value: '7' }]);
    expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin)).status).toBe(200);
    const listed = (await t.api('GET', `/api/assessments/${a.objectId}`, undefined, admin)).body;
    // Back to a draft: refused, and the assessment stays published with its title.
    const undo = await t.api('PUT', `/api/assessments/${a.objectId}`, { status: 'draft', title: 'Undone' }, admin);
    expect(undo.status).toBe(400);
    expect(undo.body).toMatchObject({ error: M.statusByPublishing, code: 142, field: 'status' });
    const { rows } = await t.sql.query(`SELECT status, title FROM "Assessment" WHERE "objectId" = $1`, [a.objectId]);
    expect(rows[0]).toEqual({ status: 'published', title: listed.title });
    expect((await t.api('PUT', `/api/assessments/${a.objectId}`, { colour: 'red' }, admin)).body).toMatchObject({
      error: 'Unknown field: colour',
    });
    // The record as listed, with a corrected title: its worked-out fields are ignored.
    const back = await t.api('PUT', `/api/assessments/${a.objectId}`, { ...listed, title: 'Corrected' }, admin);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ title: 'Corrected', status: 'published', markedCount: 1 });
  });

  it('edits and deletes a draft; a published one is corrected but never deleted', async () => {
    const [p] = await pupils(1, 2, 'ICSE');
    const a = await create({ grade: 2, board: 'ICSE' });
    const edited = await t.api('PUT', `/api/assessments/${a.objectId}`, { title: 'Renamed', maxMarks: 50 }, admin);
    expect(edited.body).toMatchObject({ title: 'Renamed', maxMarks: 50, subject: 'Mathematics' });
    expect((await save(a.objectId, [{ id: p!.id, value: '40' }])).body.errors).toEqual([]);
    const lower = await t.api('PUT', `/api/assessments/${a.objectId}`, { maxMarks: 30 }, admin);
    expect(lower.body).toMatchObject({ field: 'maxMarks', error: M.maxMarksBelowMarks });
    const moved = await t.api('PUT', `/api/assessments/${a.objectId}`, { grade: 3 }, admin);
    expect(moved.body).toMatchObject({ field: 'grade', error: M.batchFixedOnceMarked });

    expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin)).status).toBe(200);
    const corrected = await t.api('PUT', `/api/assessments/${a.objectId}`, { title: 'Unit Test 1 (corrected)' }, admin);
    expect(corrected.body).toMatchObject({ status: 'published', title: 'Unit Test 1 (corrected)' });
    const del = await t.api('DELETE', `/api/assessments/${a.objectId}`, undefined, admin);
    expect(del.status).toBe(400);
    expect(del.body.error).toBe(M.publishedCannotBeDeleted);
    expect((await t.sql.query(`SELECT 1 FROM "Mark" WHERE "assessmentId" = $1`, [a.objectId])).rowCount).toBe(1);

    const draft = await create({ grade: 2, board: 'ICSE' });
    await save(draft.objectId, [{ id: p!.id, value: '3' }]);
    expect((await t.api('DELETE', `/api/assessments/${draft.objectId}`, undefined, admin)).status).toBe(200);
    expect((await t.sql.query(`SELECT 1 FROM "Mark" WHERE "assessmentId" = $1`, [draft.objectId])).rowCount).toBe(0);
    expect((await t.api('PUT', `/api/assessments/${draft.objectId}`, { title: 'x' }, admin)).status).toBe(404);
    expect((await t.api('GET', `/api/assessments/${draft.objectId}`, undefined, admin)).status).toBe(404);
    expect((await t.api('GET', '/api/assessments/nope/marks', undefined, admin)).status).toBe(404);
  });

  it('lists assessments newest first with the total, filtered by grade', async () => {
    // Other tests of the file make assessments of grade 7 too, before or after this one.
    const totalOf = async () =>
      Number((await t.api('GET', '/api/assessments?grade=7&limit=1', undefined, admin)).headers.get('x-total-count'));
    const before = await totalOf();
    const older = await create({ grade: 7, date: '2026-01-01', title: 'Older' });
    const newer = await create({ grade: 7, date: '2026-02-01', title: 'Newer' });
    const res = await t.api('GET', '/api/assessments?grade=7&limit=1', undefined, admin);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('x-total-count'))).toBe(before + 2);
    expect(res.body).toHaveLength(1);
    const all = await t.api('GET', '/api/assessments?grade=7&limit=100', undefined, admin);
    const ids = all.body.map((a: { objectId: string }) => a.objectId);
    expect(ids).toContain(older.objectId);
    expect(ids.indexOf(newer.objectId)).toBeLessThan(ids.indexOf(older.objectId));
    expect(all.body.every((a: { grade: number }) => a.grade === 7)).toBe(true);
    // A status that is neither is refused, not ignored (which listed drafts too).
    for (const bad of ['Published', 'bogus', 'draft&status=published']) {
      const refused = await t.api('GET', `/api/assessments?grade=7&status=${bad}`, undefined, admin);
      expect(refused.status, bad).toBe(400);
    }
    const drafts = await t.api('GET', '/api/assessments?grade=7&status=draft', undefined, admin);
    expect(drafts.status).toBe(200);
  });

  it("lists a board's assessments with those for all boards, which its batches sit too", async () => {
    const [cbse, icse, everyone] = [
      await create({ grade: 8, board: 'CBSE', title: 'CBSE only' }),
      await create({ grade: 8, board: 'ICSE', title: 'ICSE only' }),
      await create({ grade: 8, board: 'All', title: 'Every board' }),
    ];
    const listed = async (board: string) =>
      (await t.api('GET', `/api/assessments?grade=8&board=${board}&limit=500`, undefined, admin)).body.map(
        (a: { objectId: string }) => a.objectId,
      );
    const forCbse = await listed('CBSE');
    expect(forCbse).toEqual(expect.arrayContaining([cbse.objectId, everyone.objectId]));
    expect(forCbse).not.toContain(icse.objectId);
    const forAll = await listed('All');
    expect(forAll).toContain(everyone.objectId);
    expect(forAll).not.toContain(cbse.objectId);
    // A board in any case, as a timetable slot's.
    expect(await listed('cbse')).toEqual(forCbse);
    expect((await t.api('GET', '/api/assessments?board=IB', undefined, admin)).status).toBe(400);
  });

  it("never undoes another admin's change made between its read and its save", async () => {
    const a = await create({ grade: 5, board: 'CBSE', title: 'Edited twice at once' });
    // Another admin's change holds the assessment while this edit, read before it, waits.
    const editing = await whileAnotherAdminChanges(
      a.objectId,
      () => t.api('PUT', `/api/assessments/${a.objectId}`, { title: 'Renamed' }, admin),
      'FOR UPDATE',
      `UPDATE "Assessment" SET grade = 6 WHERE "objectId" = $1`,
    );
    expect(editing).toMatchObject({ status: 400, body: { error: M.changedMeanwhile } });
    const { rows } = await t.sql.query(`SELECT grade, title FROM "Assessment" WHERE "objectId" = $1`, [a.objectId]);
    expect(rows[0]).toEqual({ grade: 6, title: 'Edited twice at once' });
    // Read again, the same edit goes through.
    expect((await t.api('PUT', `/api/assessments/${a.objectId}`, { title: 'Renamed' }, admin)).status).toBe(200);
  });

  it("answers 404 to a publication that another admin's delete of the draft beat, not 'already published'", async () => {
    const a = await create({ grade: 5, board: 'State', title: 'Deleted while published' });
    // The delete holds the draft while the publication, which has read it, waits for it.
    const publishing = await whileAnotherAdminChanges(
      a.objectId,
      () => t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin),
      "SET status = 'published'",
      `DELETE FROM "Assessment" WHERE "objectId" = $1`,
    );
    expect(publishing).toMatchObject({ status: 404, body: { error: M.notFound } });
  });

  it("answers 404 to a deletion that another admin's deletion of the draft beat, and logs nothing of it", async () => {
    const a = await create({ grade: 5, board: 'State', title: 'Deleted twice' });
    const deleting = await whileAnotherAdminChanges(
      a.objectId,
      () => t.api('DELETE', `/api/assessments/${a.objectId}`, undefined, admin),
      'FOR UPDATE',
      `DELETE FROM "Assessment" WHERE "objectId" = $1`,
    );
    expect(deleting).toMatchObject({ status: 404, body: { error: M.notFound } });
    const { rowCount } = await t.sql.query(
      `SELECT 1 FROM "ActivityEntry" WHERE kind = 'assessment.delete' AND "targetId" = $1`,
      [a.objectId],
    );
    expect(rowCount).toBe(0);
  });

  it('does not delete a draft another admin edited after it was read, so the log names its values', async () => {
    const a = await create({ grade: 5, board: 'ICSE', title: 'Deleted while edited' });
    const deleting = await whileAnotherAdminChanges(
      a.objectId,
      () => t.api('DELETE', `/api/assessments/${a.objectId}`, undefined, admin),
      'FOR UPDATE',
      `UPDATE "Assessment" SET title = 'Renamed meanwhile' WHERE "objectId" = $1`,
    );
    expect(deleting).toMatchObject({ status: 400, body: { error: M.changedMeanwhile } });
    expect((await t.api('GET', `/api/assessments/${a.objectId}`, undefined, admin)).body.title).toBe(
      'Renamed meanwhile',
    );
    // Read again, it is deleted, and the log's entry names the title it had.
    expect((await t.api('DELETE', `/api/assessments/${a.objectId}`, undefined, admin)).status).toBe(200);
    const { rows } = await t.sql.query(
      `SELECT state, changes FROM "ActivityEntry" WHERE kind = 'assessment.delete' AND "targetId" = $1 ORDER BY "createdAt"`,
      [a.objectId],
    );
    expect(rows.map((row) => row.state)).toEqual(['failed', 'applied']);
    expect(rows[1].changes).toContainEqual({ field: 'title', before: 'Renamed meanwhile', after: '' });
  });

  it('reads one assessment by its id, as the list shows it', async () => {
    const made = await create({ grade: 7, date: '2026-03-01', title: 'Linked' });
    const res = await t.api('GET', `/api/assessments/${made.objectId}`, undefined, admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(made);
    expect((await t.api('GET', '/api/assessments/nope', undefined, admin)).status).toBe(404);
  });
});

describe('marks entry', () => {
  it('lists and marks the active students; a deactivated or erased one only keeps the marks they have', async () => {
    const [active, deactivated, erasedMarked, deactivatedMarked, erased] = await pupils(5, 9, 'ICSE');
    const a = await create({ grade: 9, board: 'ICSE', title: 'Statuses', maxMarks: 20 });
    const given = await save(a.objectId, [
      { id: erasedMarked!.id, value: '12' },
      { id: deactivatedMarked!.id, value: '9' },
    ]);
    expect(given.body.errors).toEqual([]);
    for (const pupil of [deactivated!, deactivatedMarked!]) {
      const off = await t.api('PUT', `/api/users/${pupil.objectId}/status`, { status: 'deactivated' }, admin);
      expect(off.status).toBe(200);
    }
    for (const pupil of [erasedMarked!, erased!]) {
      expect((await t.api('POST', `/api/users/${pupil.objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(200);
    }

    const listed = await t.api('GET', `/api/assessments/${a.objectId}/marks?limit=500`, undefined, admin);
    expect(
      listed.body.map((row: { id: number; status: string; value: string }) => [row.id, row.status, row.value]),
    ).toEqual([
      [active!.id, 'active', ''],
      [erasedMarked!.id, 'deactivated', '12'],
      [deactivatedMarked!.id, 'deactivated', '9'],
    ]);
    expect(listed.headers.get('x-total-count')).toBe('3');

    const saved = await save(a.objectId, [
      { id: active!.id, value: '15' },
      { id: deactivated!.id, value: '10' },
      { id: erasedMarked!.id, value: '13' },
      { id: deactivatedMarked!.id, value: 'absent' },
      { id: erased!.id, value: '11' },
    ]);
    expect(saved.body.errors).toEqual([
      { id: deactivated!.id, message: M.studentDeactivated },
      { id: erased!.id, message: M.studentErased },
    ]);
    const stored = await t.sql.query(
      `SELECT "studentId", marks, absent FROM "Mark" WHERE "assessmentId" = $1 ORDER BY marks NULLS LAST`,
      [a.objectId],
    );
    expect(stored.rows).toEqual([
      { studentId: erasedMarked!.objectId, marks: 13, absent: false },
      { studentId: active!.objectId, marks: 15, absent: false },
      { studentId: deactivatedMarked!.objectId, marks: null, absent: true },
    ]);
    // A CSV row with its marks left blank (an older template's) gives none, and is no error.
    const csv = `enrollment id,marks\n${active!.id},16\n${deactivated!.id},\n${erased!.id},\n`;
    const preview = await t.api('POST', `/api/assessments/${a.objectId}/marks/csv-preview`, { csv }, admin);
    expect(preview.body.errorCount).toBe(0);
  });

  it.each([
    ['moved to another batch', { grade: 3 }, '', M.otherBatch],
    ['deactivated', { status: 'deactivated' }, '/status', M.studentDeactivated],
  ] as const)('saves nothing for a student %s after the rows were checked', async (_, change, path, refusal) => {
    const [stays, moves] = await pupils(2, 2, 'State');
    const a = await create({ grade: 2, board: 'State', title: 'Changed meanwhile' });
    const holder = await t.sql.connect();
    try {
      // Another admin's save holds the assessment: this one has checked its rows and waits.
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM "Assessment" WHERE "objectId" = $1 FOR UPDATE`, [a.objectId]);
      const saving = save(a.objectId, [
        { id: stays!.id, value: '12' },
        { id: moves!.id, value: '15' },
      ]);
      await lockWaitOn('FOR UPDATE');
      expect((await t.api('PUT', `/api/users/${moves!.objectId}${path}`, change, admin)).status).toBe(200);
      await holder.query('COMMIT');
      expect(await saving).toMatchObject({ status: 400, body: { error: M.studentChangedMeanwhile, field: 'rows' } });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "Mark" WHERE "assessmentId" = $1`, [a.objectId]);
    expect(rows[0].n).toBe(0);
    // Saved again, the student's row is refused on its own.
    const again = await save(a.objectId, [
      { id: stays!.id, value: '12' },
      { id: moves!.id, value: '15' },
    ]);
    expect(again.body).toEqual({ saved: 1, errors: [{ id: moves!.id, message: refusal }] });
  });

  it('saves good rows in one request and answers each bad row with its error', async () => {
    const [a1, a2, a3] = await pupils(3, 5);
    const [other] = await pupils(1, 5, 'State');
    const a = await create({ grade: 5, board: 'CBSE', maxMarks: 20 });
    const res = await save(a.objectId, [
      { id: a1!.id, value: '17.5' },
      { id: a2!.id, value: 'absent' },
      { id: a3!.id, value: '20.5' },
      { id: other!.id, value: '10' },
      { id: 99_999_999, value: '10' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.saved).toBe(2);
    expect(res.body.errors).toEqual([
      { id: a3!.id, message: M.marksInvalid(20) },
      { id: other!.id, message: M.otherBatch },
      { id: 99_999_999, message: M.unknownStudent },
    ]);
    const dup = await save(a.objectId, [
      { id: a3!.id, value: '1' },
      { id: a3!.id, value: '2' },
    ]);
    expect(dup.body).toEqual({
      saved: 0,
      errors: [
        { id: a3!.id, message: M.duplicateRow },
        { id: a3!.id, message: M.duplicateRow },
      ],
    });

    const page = await t.api('GET', `/api/assessments/${a.objectId}/marks?limit=2`, undefined, admin);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.body.map((r: { value: string }) => r.value)).toEqual(['17.5', 'absent']);
    const past = await t.api('GET', `/api/assessments/${a.objectId}/marks?skip=10`, undefined, admin);
    expect(past.body).toEqual([]);
    expect(past.headers.get('x-total-count')).toBe('3');
    const found = await t.api('GET', `/api/assessments/${a.objectId}/marks?q=${a3!.id}`, undefined, admin);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ id: a3!.id, value: '' });

    // Changing and clearing: still one row per student and assessment.
    await save(a.objectId, [
      { id: a1!.id, value: '18' },
      { id: a2!.id, value: '' },
    ]);
    const { rows } = await t.sql.query(`SELECT "studentId", marks FROM "Mark" WHERE "assessmentId" = $1`, [a.objectId]);
    expect(rows).toEqual([{ studentId: a1!.objectId, marks: 18 }]);
  });

  it('keeps the marks of a student who moves batch listed with the assessment, and correctable', async () => {
    const [stays, moves] = (await pupils(2, 7, 'CBSE')) as [Pupil, Pupil];
    const a = await create({ grade: 7, board: 'CBSE', maxMarks: 20, title: 'Before the move' });
    await save(a.objectId, [
      { id: stays.id, value: '12' },
      { id: moves.id, value: '14' },
    ]);
    expect((await t.api('PUT', `/api/users/${moves.objectId}`, { grade: 8 }, admin)).status).toBe(200);

    const listed = await t.api('GET', `/api/assessments/${a.objectId}/marks`, undefined, admin);
    expect(listed.headers.get('x-total-count')).toBe('2');
    expect(listed.body.map((r: { id: number; grade: number; value: string }) => [r.id, r.grade, r.value])).toEqual([
      [stays.id, 7, '12'],
      [moves.id, 8, '14'],
    ]);
    expect((await save(a.objectId, [{ id: moves.id, value: '15' }])).body).toEqual({ saved: 1, errors: [] });
    const [stored] = (await t.sql.query(`SELECT average FROM "Assessment" WHERE "objectId" = $1`, [a.objectId])).rows;
    expect(stored.average).toBe(13.5);
    // The student sees them on their own progress page, in their new batch.
    expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin)).status).toBe(200);
    const progress = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(moves));
    expect(progress.body.assessments).toMatchObject([{ title: 'Before the move', marks: 15, maxMarks: 20 }]);
    // A student of another batch without marks here is still refused.
    const [newcomer] = (await pupils(1, 8, 'CBSE')) as [Pupil];
    expect((await save(a.objectId, [{ id: newcomer.id, value: '9' }])).body.errors).toEqual([
      { id: newcomer.id, message: M.otherBatch },
    ]);
  });

  it.each([
    {
      what: 'a mark above a maximum lowered',
      grade: 9,
      meanwhile: `"maxMarks" = 20`,
      error: M.marksInvalid(20),
    },
    {
      what: 'marks checked for the batch the assessment had before its grade changed',
      grade: 2,
      meanwhile: `grade = grade + 1`,
      error: M.batchChangedMeanwhile,
    },
  ])('never leaves $what while the marks were being saved', async ({ grade, meanwhile, error }) => {
    const [p] = (await pupils(1, grade, 'CBSE')) as [Pupil];
    const a = await create({ grade, board: 'CBSE', maxMarks: 50, title: 'Changed meanwhile' });
    const holder = await t.sql.connect();
    try {
      // Another change holds the assessment while the save checks its rows against it as it was.
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM "Assessment" WHERE "objectId" = $1 FOR UPDATE`, [a.objectId]);
      const saving = save(a.objectId, [{ id: p.id, value: '45' }]);
      await lockWaitOn('FOR UPDATE');
      await holder.query(`UPDATE "Assessment" SET ${meanwhile} WHERE "objectId" = $1`, [a.objectId]);
      await holder.query('COMMIT');
      const res = await saving;
      expect(res).toMatchObject({ status: 400, body: { error, field: 'rows' } });
    } finally {
      // A failure before the COMMIT must not leave the row locked for the tests that follow.
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    expect((await t.sql.query(`SELECT 1 FROM "Mark" WHERE "assessmentId" = $1`, [a.objectId])).rowCount).toBe(0);
  });

  it('refuses a malformed request with 400, never 500, and says what a row lacks', async () => {
    const a = await create();
    const put = (body: unknown) => t.api('PUT', `/api/assessments/${a.objectId}/marks`, body, admin);
    expect((await put({ rows: 'x' })).status).toBe(400);
    for (const id of ['abc', '3', 0, -1, 1.5, null, true, undefined]) {
      const res = await put({ rows: [{ id: 1, value: '1' }, { id, value: '1' }, null] });
      expect(res, String(id)).toMatchObject({ status: 400, body: { field: 'rows', error: M.rowIdInvalid } });
    }
    expect(await put({ rows: [null] })).toMatchObject({ status: 400, body: { error: M.rowIdInvalid } });
  });

  it('takes a save of as many rows as it allows within the 100 kB any call may send, and says so beyond', async () => {
    const a = await create();
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: 1_000_000 + i, value: 'absent' }));
    const full = await t.api('PUT', `/api/assessments/${a.objectId}/marks`, { rows: rows(MARKS_SAVE_MAX_ROWS) }, admin);
    // Enrollment numbers no student has: each row is answered with its error, none saved.
    expect(full.status).toBe(200);
    expect(full.body.errors).toHaveLength(MARKS_SAVE_MAX_ROWS);
    const over = await t.api(
      'PUT',
      `/api/assessments/${a.objectId}/marks`,
      { rows: rows(MARKS_SAVE_MAX_ROWS + 1) },
      admin,
    );
    expect(over).toMatchObject({ status: 400, body: { field: 'rows', error: M.tooManyRowsToSave } });
  });
});

describe('the activity log', () => {
  it('records the assessment, each mark before and after, and the publication', async () => {
    const [p1] = await pupils(1, 2, 'ICSE');
    const a = await create({ grade: 2, board: 'ICSE', title: 'Logged test' });
    expect((await save(a.objectId, [{ id: p1!.id, value: '12' }])).status).toBe(200);
    expect((await save(a.objectId, [{ id: p1!.id, value: 'absent' }])).status).toBe(200);
    // An edit that changes nothing leaves no entry.
    const same = await t.api('PUT', `/api/assessments/${a.objectId}`, { title: 'Logged test' }, admin);
    expect(same.body).toMatchObject({ title: 'Logged test' });
    expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, {}, admin)).status).toBe(200);
    const entries = async (kind: string) =>
      (
        (await t.api('GET', `/api/activity?kind=${kind}&limit=100`, undefined, admin)).body as Array<{
          targetId: string;
          changes: Array<{ field: string; before: string; after: string }>;
        }>
      ).filter((entry) => entry.targetId === a.objectId);
    const marks = await entries('marks.save');
    expect(marks.map((entry) => entry.changes)).toEqual(
      expect.arrayContaining([
        [{ field: `#${p1!.id}`, before: '', after: '12' }],
        [{ field: `#${p1!.id}`, before: '12', after: 'absent' }],
      ]),
    );
    expect(await entries('assessment.publish')).toEqual([
      expect.objectContaining({ changes: [{ field: 'status', before: 'draft', after: 'published' }] }),
    ]);
    expect(await entries('assessment.update')).toEqual([]);
    // The creation's entry names the assessment it made.
    expect(await entries('assessment.create')).toEqual([
      expect.objectContaining({
        changes: expect.arrayContaining([{ field: 'title', before: '', after: 'Logged test' }]),
      }),
    ]);
  });
  it('logs two saves of one mark at once one after the other, each with the value it replaced', async () => {
    const [p1] = (await pupils(1, 3, 'CBSE')) as [Pupil];
    const a = await create({ grade: 3, board: 'CBSE', title: 'Saved twice at once' });
    expect((await save(a.objectId, [{ id: p1.id, value: '12' }])).status).toBe(200);
    const holder = await t.sql.connect();
    let saves: Promise<unknown>[];
    try {
      // Another change holds the assessment: both saves wait for it, then take their turns.
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM "Assessment" WHERE "objectId" = $1 FOR UPDATE`, [a.objectId]);
      saves = [save(a.objectId, [{ id: p1.id, value: '15' }])];
      await lockWaitOn('FOR UPDATE');
      saves.push(save(a.objectId, [{ id: p1.id, value: '17' }]));
      await lockWaitOn('FOR UPDATE', 2);
      await holder.query('COMMIT');
    } finally {
      // (Never back to the pool inside a transaction that holds the row.)
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    await Promise.all(saves);
    const logged = (
      (await t.api('GET', `/api/activity?kind=marks.save&limit=100`, undefined, admin)).body as Array<{
        targetId: string;
        changes: Array<{ before: string; after: string }>;
      }>
    )
      .filter((entry) => entry.targetId === a.objectId)
      .map((entry) => `${entry.changes[0]!.before} -> ${entry.changes[0]!.after}`)
      .sort();
    const [stored] = (await t.sql.query(`SELECT marks FROM "Mark" WHERE "assessmentId" = $1`, [a.objectId])).rows;
    // Whichever went first, the second replaced the first's value, and is what is stored.
    expect(logged).toEqual(
      stored.marks === 17 ? [' -> 12', '12 -> 15', '15 -> 17'] : [' -> 12', '12 -> 17', '17 -> 15'],
    );
  });
});

describe("another admin's marks saved meanwhile", () => {
  const saveRows = (id: string, rows: { id: number; value: string; before?: unknown }[]) =>
    t.api('PUT', `/api/assessments/${id}/marks`, { rows }, admin);
  const stored = async (assessmentId: string) =>
    (
      await t.sql.query(
        `SELECT u."enrollmentId" AS id, m.marks, m.absent FROM "Mark" m JOIN "_User" u ON u."objectId" = m."studentId"
         WHERE m."assessmentId" = $1 ORDER BY u."enrollmentId"`,
        [assessmentId],
      )
    ).rows.map((row: { id: number; marks: number | null; absent: boolean }) => [
      Number(row.id),
      row.absent ? 'absent' : row.marks,
    ]);

  it('are not overwritten by a save made against what its table showed before them; the other rows are saved', async () => {
    const [p1, p2, p3] = (await pupils(3, 2, 'State')) as [Pupil, Pupil, Pupil];
    const a = await create({ grade: 2, board: 'State', title: 'Two admins' });
    expect((await saveRows(a.objectId, [{ id: p1.id, value: '15' }])).status).toBe(200);
    // The second admin's table showed p1 and p2 with no marks, and p3 too.
    const second = await saveRows(a.objectId, [
      { id: p1.id, value: '12', before: '' },
      { id: p2.id, value: '9', before: '' },
      { id: p3.id, value: '15', before: '' },
    ]);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      saved: 2,
      errors: [{ id: p1.id, message: M.markChangedMeanwhile('15'), now: '15' }],
    });
    expect(await stored(a.objectId)).toEqual([
      [p1.id, 15],
      [p2.id, 9],
      [p3.id, 15],
    ]);
    // Against what is stored now (as the table takes it from the answer), the change is saved.
    const again = await saveRows(a.objectId, [{ id: p1.id, value: '12', before: '15' }]);
    expect(again.body).toEqual({ saved: 1, errors: [] });
    // The same marks saved meanwhile are no conflict; "absent" and "" are read as the table writes them.
    expect((await saveRows(a.objectId, [{ id: p1.id, value: '12', before: '3' }])).body).toEqual({
      saved: 1,
      errors: [],
    });
    expect((await saveRows(a.objectId, [{ id: p2.id, value: 'absent', before: ' 9.0 ' }])).body).toEqual({
      saved: 1,
      errors: [],
    });
    const cleared = await saveRows(a.objectId, [{ id: p2.id, value: '', before: '9' }]);
    expect(cleared.body.errors).toEqual([{ id: p2.id, message: M.markChangedMeanwhile('absent'), now: 'absent' }]);
    // Without `before`, the last save wins, as a client that does not say it expects.
    expect((await saveRows(a.objectId, [{ id: p3.id, value: '1' }])).body).toEqual({ saved: 1, errors: [] });
    expect(await stored(a.objectId)).toEqual([
      [p1.id, 12],
      [p2.id, 'absent'],
      [p3.id, 1],
    ]);
    // Only the rows saved are in the log.
    const logged = (
      (await t.api('GET', `/api/activity?kind=marks.save&limit=100`, undefined, admin)).body as Array<{
        targetId: string;
        changes: Array<{ before: string; after: string }>;
      }>
    ).filter((entry) => entry.targetId === a.objectId);
    expect(logged.map((entry) => entry.changes.map((c) => `${c.before}->${c.after}`).join(' '))).toEqual([
      '15->1',
      '9->absent',
      '15->12',
      '->9 ->15',
      '->15',
    ]);
  });

  it('answers a `before` it cannot read on its row, and saves the rest', async () => {
    const [p1, p2] = (await pupils(2, 2, 'ICSE')) as [Pupil, Pupil];
    const a = await create({ grade: 2, board: 'ICSE', title: 'Bad before' });
    const res = await saveRows(a.objectId, [
      { id: p1.id, value: '4', before: { marks: 3 } },
      { id: p2.id, value: '5', before: '' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ saved: 1, errors: [{ id: p1.id, message: M.beforeInvalid }] });
    expect(await stored(a.objectId)).toEqual([[p2.id, 5]]);
  });
});

describe('refused and failed changes in the activity log', () => {
  const entriesOf = async (kind: string, targetId: string) =>
    (
      (await t.api('GET', `/api/activity?kind=${kind}&limit=100`, undefined, admin)).body as Array<{
        targetId: string;
        state: string;
      }>
    ).filter((entry) => entry.targetId === targetId);

  it('logs a refused delete or a second publication as failed, never as applied', async () => {
    const a = await create({ grade: 2, board: 'State', title: 'Refused changes' });
    expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, {}, admin)).status).toBe(200);
    expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, {}, admin)).status).toBe(400);
    expect((await t.api('DELETE', `/api/assessments/${a.objectId}`, undefined, admin)).status).toBe(400);
    expect((await entriesOf('assessment.publish', a.objectId)).map((e) => e.state).sort()).toEqual([
      'applied',
      'failed',
    ]);
    expect((await entriesOf('assessment.delete', a.objectId)).map((e) => e.state)).toEqual(['failed']);
  });

  it('publishes nothing when its mails cannot be queued, and publishing again mails each student once', async () => {
    const class9 = await pupils(2, 9, 'State');
    const a = await create({ grade: 9, board: 'State', subject: 'English', title: 'Queue refused' });
    await save(
      a.objectId,
      class9.map((p) => ({ id: p.id, value: '15' })),
    );
    // The database refuses this publication's mails (a full disk, a lost connection).
    const refuse = `refuse_${a.objectId.toLowerCase()}`;
    await t.sql.query(`CREATE FUNCTION ${refuse}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'mail queue refused'; END $$`);
    await t.sql.query(`CREATE TRIGGER ${refuse} BEFORE INSERT ON mail_delivery FOR EACH ROW
      WHEN (NEW.key LIKE 'marks-published:${a.objectId}:%') EXECUTE FUNCTION ${refuse}()`);
    try {
      const failed = await t.api('POST', `/api/assessments/${a.objectId}/publish`, {}, admin);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(failed.body.error).not.toContain('mail queue refused');
    } finally {
      await t.sql.query(`DROP TRIGGER ${refuse} ON mail_delivery`);
      await t.sql.query(`DROP FUNCTION ${refuse}()`);
    }
    const [row] = (await t.sql.query(`SELECT status FROM "Assessment" WHERE "objectId" = $1`, [a.objectId])).rows;
    expect(row.status).toBe('draft');
    expect((await entriesOf('assessment.publish', a.objectId)).map((e) => e.state)).toEqual(['failed']);

    const again = await t.api('POST', `/api/assessments/${a.objectId}/publish`, {}, admin);
    expect(again.body).toMatchObject({ status: 'published', mailsQueued: 2, average: 15 });
    for (const p of class9) expect(await mailsTo(p.email)).toHaveLength(1);
  });
});

describe('CSV import', () => {
  it('previews every bad row and saves nothing until all are good', async () => {
    const [c1, c2, c3] = await pupils(3, 6);
    const [other] = await pupils(1, 3);
    const a = await create({ grade: 6, board: 'All', maxMarks: 20 });
    const bad = [
      'enrollment id,marks',
      `${c1!.id},18`,
      `${c2!.id},21`,
      `${other!.id},5`,
      '99999999,5',
      `${c3!.id},5`,
      `${c3!.id},6`,
      'not a line',
      '',
    ].join('\n');
    const preview = await t.api('POST', `/api/assessments/${a.objectId}/marks/csv-preview`, { csv: bad }, admin);
    expect(preview.status).toBe(200);
    expect(preview.body.errorCount).toBe(6);
    expect(preview.body.rows.map((r: { line: number; error?: string }) => [r.line, r.error])).toEqual([
      [2, undefined],
      [3, M.marksInvalid(20)],
      [4, M.otherBatch],
      [5, M.unknownStudent],
      [6, M.duplicateRow],
      [7, M.duplicateRow],
      [8, M.malformedLine],
    ]);
    const refused = await t.api('POST', `/api/assessments/${a.objectId}/marks/csv`, { csv: bad }, admin);
    expect(refused.status).toBe(400);
    expect(refused.body.field).toBe('csv');
    expect((await t.sql.query(`SELECT 1 FROM "Mark" WHERE "assessmentId" = $1`, [a.objectId])).rowCount).toBe(0);

    const good = `${c1!.id},18\n${c2!.id},ABSENT\n"${c3!.id}", 19.5\n`;
    expect(
      (await t.api('POST', `/api/assessments/${a.objectId}/marks/csv-preview`, { csv: good }, admin)).body.errorCount,
    ).toBe(0);
    const saved = await t.api('POST', `/api/assessments/${a.objectId}/marks/csv`, { csv: good }, admin);
    expect(saved.body).toEqual({ saved: 3 });
    const unclosed = await t.api(
      'POST',
      `/api/assessments/${a.objectId}/marks/csv-preview`,
      { csv: `${c1!.id},"5\n` },
      admin,
    );
    expect(unclosed.body.rows[0]).toMatchObject({ line: 1, error: M.quoteBroken });
    const empty = await t.api('POST', `/api/assessments/${a.objectId}/marks/csv`, { csv: ' ' }, admin);
    expect(empty.body).toMatchObject({ field: 'csv', error: M.emptyFile });
    // A header and a spreadsheet's blank rows are no rows either.
    const headerOnly = 'enrollment id,marks\n,\n , \n';
    for (const path of ['csv', 'csv-preview']) {
      const res = await t.api('POST', `/api/assessments/${a.objectId}/marks/${path}`, { csv: headerOnly }, admin);
      expect(res).toMatchObject({ status: 400, body: { field: 'csv', error: M.emptyFile } });
    }
  });

  it("takes a header of any column names, and skips a spreadsheet's blank rows", async () => {
    const [c1, c2] = await pupils(2, 8, 'CBSE');
    const a = await create({ grade: 8, board: 'CBSE', maxMarks: 20 });
    const csv = `Roll No,Marks (of 20)\r\n${c1!.id},11\r\n,\r\n${c2!.id},absent\r\n`;
    const preview = await t.api('POST', `/api/assessments/${a.objectId}/marks/csv-preview`, { csv }, admin);
    expect(preview.body).toMatchObject({ errorCount: 0 });
    expect(preview.body.rows.map((r: { line: number; id: number }) => [r.line, r.id])).toEqual([
      [2, c1!.id],
      [4, c2!.id],
    ]);
    // A first line of data with a mistake is not taken for a header: it is shown as wrong.
    for (const [first, error] of [
      [`${c1!.id}x,11`, M.enrollmentIdInvalid],
      ['Asha,15', M.enrollmentIdInvalid],
      [',15', M.enrollmentIdInvalid],
      ['Asha,', M.enrollmentIdInvalid],
      ['Asha,absent', M.enrollmentIdInvalid],
      ['Asha,15,16', M.malformedLine],
    ] as const) {
      const typo = await t.api(
        'POST',
        `/api/assessments/${a.objectId}/marks/csv-preview`,
        { csv: `${first}\n${c2!.id},12\n` },
        admin,
      );
      expect(
        typo.body.rows.map((r: { line: number; error?: string }) => [r.line, r.error]),
        first,
      ).toEqual([
        [1, error],
        [2, undefined],
      ]);
    }
  });

  it('takes a file of 5,000 rows within the 100 kB every call may send; a larger body is a 413', async () => {
    const a = await create({ grade: 5, board: 'All', maxMarks: 100 });
    const file = (rows: number) =>
      `enrollment id,marks\n${Array.from({ length: rows }, (_, i) => `${900_000_000 + i},absent`).join('\n')}\n`;
    const preview = async (csv: string) =>
      t.api('POST', `/api/assessments/${a.objectId}/marks/csv-preview`, { csv }, admin);
    const full = await preview(file(MARKS_MAX_ROWS));
    expect(full.status).toBe(200);
    expect(full.body.errorCount).toBe(MARKS_MAX_ROWS);
    expect(await preview(file(MARKS_MAX_ROWS + 1))).toMatchObject({
      status: 400,
      body: { field: 'csv', error: M.tooManyRows },
    });
    expect((await preview(`${file(MARKS_MAX_ROWS)}${' '.repeat(20_000)}`)).status).toBe(413);
  });

  it('reads files as Excel, Google Sheets and LibreOffice save them', async () => {
    const [c1, c2, c3] = await pupils(3, 7, 'State');
    const a = await create({ grade: 7, board: 'State', maxMarks: 20 });
    const preview = async (csv: string) =>
      (await t.api('POST', `/api/assessments/${a.objectId}/marks/csv-preview`, { csv }, admin)).body;
    const good = (body: { errorCount: number; rows: { line: number; id?: number; value: string }[] }) => {
      expect(body.errorCount).toBe(0);
      return body.rows.map((r) => [r.line, r.id, r.value]);
    };
    // Excel where the comma is the decimal mark: a BOM, its "sep=" line, semicolons, 7,5.
    expect(good(await preview(`\uFEFFsep=;\r\nenrollment id;marks\r\n${c1!.id};7,5\r\n${c2!.id};absent\r\n`))).toEqual([
      [3, c1!.id, '7.5'],
      [4, c2!.id, 'absent'],
    ]);
    // ... or without the "sep=" line; and a tab-separated download.
    expect(good(await preview(`enrollment id;marks\n${c1!.id};12,5\n`))).toEqual([[2, c1!.id, '12.5']]);
    expect(good(await preview(`enrollment id\tmarks\n${c1!.id}\t12\n`))).toEqual([[2, c1!.id, '12']]);
    // With no header either, the decimal comma of the first line does not decide.
    expect(good(await preview(`${c1!.id};7,5\r\n${c2!.id};8\r\n`))).toEqual([
      [1, c1!.id, '7.5'],
      [2, c2!.id, '8'],
    ]);
    expect(good(await preview(`${c1!.id}\t7,5\n`))).toEqual([[1, c1!.id, '7.5']]);
    // A thousands separator is never read as a decimal mark: "1.000" is not 1.
    const thousands = await preview(`${c1!.id};1.000\n${c2!.id};1,000\n${c3!.id};7,50\n`);
    expect(thousands.rows.map((r: { line: number; error?: string }) => [r.line, r.error])).toEqual([
      [1, M.thousandsSeparator],
      [2, M.thousandsSeparator],
      [3, undefined],
    ]);
    // Ids formatted as numbers, a column once used now empty, lines appended with other line ends.
    expect(good(await preview(`enrollment id,marks,\r\n${c1!.id}.0,11,\r\n${c2!.id},12,,\n${c3!.id},13\r`))).toEqual([
      [2, c1!.id, '11'],
      [3, c2!.id, '12'],
      [4, c3!.id, '13'],
    ]);
    // A broken quote is its own row with its line, and the lines before it are still read.
    const quoted = await preview(`${c1!.id},"1"2\n${c2!.id},7"\n\n  \n"${c3!.id}"x,3\n${c3!.id},4\n`);
    expect(quoted.rows.map((r: { line: number; error?: string }) => [r.line, r.error])).toEqual([
      [1, M.quoteBroken],
      [2, M.marksInvalid(20)],
      [5, M.quoteBroken],
      [6, undefined],
    ]);
    // A control character is its line's error, shown as � (also in a line with a broken
    // quote), and the other lines are still read; an old DOS program's Ctrl-Z at the end is no
    // line at all, however many there are.
    const brokenControl = await preview(`${c1!.id},"5\u0001\n`);
    expect(
      brokenControl.rows.map((r: { value: string; error?: string }) => [r.value.includes('\u0001'), r.error]),
    ).toEqual([[false, M.quoteBroken]]);
    expect(good(await preview(`${c1!.id},4\r\n${'\u001a'.repeat(5000)} \r\n`))).toEqual([[1, c1!.id, '4']]);
    const controls = await preview(`${c1!.id},5\u0001\r\n${c2!.id},\u000b6\u0007\r\n${c3!.id},4\r\n\u001a`);
    expect(
      controls.rows.map((r: { line: number; value: string; error?: string }) => [r.line, r.value, r.error]),
    ).toEqual([
      [1, `${c1!.id},5\uFFFD`, M.controlCharacter],
      [2, `${c2!.id},\uFFFD6\uFFFD`, M.controlCharacter],
      [3, '4', undefined],
    ]);
    // A workbook or a UTF-16 file read as text is refused (the page says so before sending it).
    for (const csv of ['PK\u0003\u0004\u0014\u0000\u0006\u0000', `e\u0000n\u0000,\u0000${c1!.id}\u0000`]) {
      for (const path of ['csv', 'csv-preview']) {
        const res = await t.api('POST', `/api/assessments/${a.objectId}/marks/${path}`, { csv }, admin);
        expect(res).toMatchObject({ status: 400, body: { error: ServerMessage.controlCharacter } });
      }
    }
    expect((await t.sql.query(`SELECT 1 FROM "Mark" WHERE "assessmentId" = $1`, [a.objectId])).rowCount).toBe(0);
  });

  it("leaves a student's marks as they are when the file's marks cell is blank, as in the template", async () => {
    const [c1, c2] = await pupils(2, 6, 'ICSE');
    const a = await create({ grade: 6, board: 'ICSE', maxMarks: 20 });
    expect((await save(a.objectId, [{ id: c1!.id, value: '17' }])).body.errors).toEqual([]);
    const csv = `enrollment id,marks\n${c1!.id},\n${c2!.id},12\n`;
    const preview = await t.api('POST', `/api/assessments/${a.objectId}/marks/csv-preview`, { csv }, admin);
    expect(preview.body).toMatchObject({ errorCount: 0, unchangedCount: 1 });
    expect(preview.body.rows[0]).toMatchObject({ id: c1!.id, value: '', unchanged: true });
    expect((await t.api('POST', `/api/assessments/${a.objectId}/marks/csv`, { csv }, admin)).body).toEqual({
      saved: 1,
    });
    const { rows } = await t.sql.query(
      `SELECT "studentId", marks FROM "Mark" WHERE "assessmentId" = $1 ORDER BY marks DESC`,
      [a.objectId],
    );
    expect(rows).toEqual([
      { studentId: c1!.objectId, marks: 17 },
      { studentId: c2!.objectId, marks: 12 },
    ]);
  });
});

describe('publishing and progress', () => {
  it('mails nothing to a student erased while the publication is queueing the mails', async () => {
    const [kept, erased] = (await pupils(2, 1, 'ICSE')) as [Pupil, Pupil];
    const a = await create({ grade: 1, board: 'ICSE', subject: 'English', title: 'Erased meanwhile' });
    await save(a.objectId, [
      { id: kept.id, value: '12' },
      { id: erased.id, value: '14' },
    ]);
    const holder = await t.sql.connect();
    try {
      // Another transaction holds the erased student's mail key: the publication, past its
      // read of the students, waits on it before it commits.
      await holder.query('BEGIN');
      await holder.query(`INSERT INTO mail_delivery (key) VALUES ($1)`, [
        publicationMailKey(a.objectId, erased.objectId),
      ]);
      const publishing = t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
      await lockWaitOn('mail_delivery');
      // The erasure comes now, and is done before the publication's mails are queued:
      // the queue finds the student erased when their mail's turn comes.
      const erasing = await t.api('POST', `/api/users/${erased.objectId}/erase`, { confirm: 'ERASE' }, admin);
      await holder.query('ROLLBACK');
      expect((await publishing).status).toBe(200);
      expect(erasing.status).toBe(200);
    } finally {
      holder.release();
    }
    expect(await mailsTo(kept.email)).toHaveLength(1);
    expect(await mailsTo(erased.email)).toHaveLength(0);
  });

  it('gives the admin the average rounded once to one decimal: the figure students see', async () => {
    // Ten 14s and one 14.5: the mean is 14.04545..., 14.0 to one decimal (14.05 first would make it 14.1).
    const batch = await pupils(11, 6, 'State');
    const a = await create({ grade: 6, board: 'State', subject: 'Hindi', title: 'Rounded once' });
    await save(
      a.objectId,
      batch.map((p, i) => ({ id: p.id, value: i === 0 ? '14.5' : '14' })),
    );
    const published = await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    expect(published.body).toMatchObject({ average: 14, markedCount: 11 });
    const listed = await t.api('GET', `/api/assessments/${a.objectId}`, undefined, admin);
    expect(listed.body.average).toBe(14);
    const progress = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(batch[1]!));
    expect(progress.body.assessments[0]).toMatchObject({ title: 'Rounded once', batchAverage: 14 });
  });

  it('stores the average, mails each student with marks exactly once, and a correction sends nothing', async () => {
    const class8 = await pupils(6, 8, 'ICSE');
    const a = await create({ grade: 8, board: 'ICSE', subject: 'Science', title: 'Unit Test 3', maxMarks: 20 });
    const values = ['18', '10', '12', '14', '16', 'absent'];
    await save(
      a.objectId,
      class8.map((p, i) => ({ id: p.id, value: values[i]! })),
    );
    // Two publications at once: one wins, one is refused, the mails go out once.
    const [first, second] = await Promise.all([
      t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin),
      t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 400]);
    const published = first.status === 200 ? first.body : second.body;
    expect(published).toMatchObject({ status: 'published', average: 14, markedCount: 5, mailsQueued: 5 });

    const mails = await mailsTo(class8[0]!.email);
    expect(mails).toHaveLength(1);
    const raw = mails[0]!.raw.replace(/=\r?\n/g, '');
    expect(raw).toContain('New marks in Science: Unit Test 3, 18 / 20');
    expect(raw).toContain(`${t.url}/dashboard/progress`);
    expect(await mailsTo(class8[5]!.email)).toHaveLength(0); // absent: no marks, no mail

    // A correction: the average moves, no second mail.
    await save(a.objectId, [{ id: class8[1]!.id, value: '20' }]);
    const [stored] = (await t.sql.query(`SELECT average FROM "Assessment" WHERE "objectId" = $1`, [a.objectId])).rows;
    expect(stored.average).toBe(16);
    expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin)).status).toBe(400);
    for (const p of class8.slice(0, 5)) expect(await mailsTo(p.email)).toHaveLength(1);
    expect(await mailsTo(class8[5]!.email)).toHaveLength(0);

    // The students see the average as published until 5 students' marks have changed (one
    // correction, read before and after, would give that child's mark away).
    const progress = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(class8[0]!));
    expect(progress.body.assessments[0]).toMatchObject({
      subject: 'Science',
      marks: 18,
      maxMarks: 20,
      percentage: 90,
      absent: false,
      batchAverage: 14,
      batchAveragePercentage: 70,
    });
    const absent = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(class8[5]!));
    expect(absent.body.assessments[0]).toMatchObject({ absent: true });
    expect(absent.body.assessments[0].marks).toBeUndefined();
  });

  it("mails a student's first marks after publishing once, and nothing to the deactivated", async () => {
    const [marked, absent, late, away] = (await pupils(4, 4, 'State')) as [Pupil, Pupil, Pupil, Pupil];
    const a = await create({ grade: 4, board: 'State', subject: 'Hindi', title: 'Late marks', maxMarks: 25 });
    await save(a.objectId, [
      { id: marked.id, value: '20' },
      { id: absent.id, value: 'absent' },
      { id: away.id, value: '11' },
    ]);
    // Deactivated after the test, before its publication.
    expect((await t.api('PUT', `/api/users/${away.objectId}/status`, { status: 'deactivated' }, admin)).status).toBe(
      200,
    );
    const published = await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    // The deactivated student cannot open the page the mail links to: no mail.
    expect(published.body).toMatchObject({ markedCount: 2, mailsQueued: 1 });
    expect(await mailsTo(away.email)).toHaveLength(0);

    // Marks for the one who sat it later, and for the one missing from the list: a mail each.
    await save(a.objectId, [
      { id: absent.id, value: '15' },
      { id: late.id, value: '12.5' },
    ]);
    for (const [pupil, score] of [
      [absent, '15 / 25'],
      [late, '12.5 / 25'],
    ] as const) {
      const mails = await mailsTo(pupil.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.raw.replace(/=\r?\n/g, '')).toContain(`New marks in Hindi: Late marks, ${score}`);
    }
    // Corrections of all of them: no second mail to anyone.
    await save(a.objectId, [
      { id: marked.id, value: '21' },
      { id: absent.id, value: '16' },
      { id: late.id, value: '13' },
    ]);
    for (const pupil of [marked, absent, late]) expect(await mailsTo(pupil.email)).toHaveLength(1);
    expect(await mailsTo(away.email)).toHaveLength(0);
  });

  it('saves marks and their average together or not at all', async () => {
    const [p1, p2] = (await pupils(2, 1, 'State')) as [Pupil, Pupil];
    const a = await create({ grade: 1, board: 'State', title: 'All or nothing', maxMarks: 10 });
    await save(a.objectId, [{ id: p1.id, value: '4' }]);
    // The average cannot be stored (a full disk, a lost connection) after the marks were written.
    const refuse = `refuse_${a.objectId.toLowerCase()}`;
    await t.sql.query(`CREATE FUNCTION ${refuse}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'average refused'; END $$`);
    await t.sql.query(`CREATE TRIGGER ${refuse} BEFORE UPDATE OF average ON "Assessment" FOR EACH ROW
      WHEN (NEW."objectId" = '${a.objectId}') EXECUTE FUNCTION ${refuse}()`);
    try {
      const failed = await save(a.objectId, [
        { id: p1.id, value: '9' },
        { id: p2.id, value: '7' },
      ]);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(failed.body.error).not.toContain('average refused');
    } finally {
      await t.sql.query(`DROP TRIGGER ${refuse} ON "Assessment"`);
      await t.sql.query(`DROP FUNCTION ${refuse}()`);
    }
    const { rows } = await t.sql.query(`SELECT "studentId", marks FROM "Mark" WHERE "assessmentId" = $1`, [a.objectId]);
    expect(rows).toEqual([{ studentId: p1.objectId, marks: 4 }]);
    const [stored] = (await t.sql.query(`SELECT average FROM "Assessment" WHERE "objectId" = $1`, [a.objectId])).rows;
    expect(stored.average).toBe(4);
  });

  it('shows the batch average only when at least 5 students have marks', async () => {
    const class9 = await pupils(5, 9, 'State');
    const four = await create({ grade: 9, board: 'State', date: '2026-03-01', title: 'Four' });
    await save(
      four.objectId,
      class9.map((p, i) => ({ id: p.id, value: i === 4 ? 'absent' : '10' })),
    );
    const five = await create({ grade: 9, board: 'State', date: '2026-04-01', title: 'Five' });
    await save(
      five.objectId,
      class9.map((p) => ({ id: p.id, value: '10' })),
    );
    const draft = await create({ grade: 9, board: 'State', date: '2026-05-01', title: 'Draft' });
    await save(draft.objectId, [{ id: class9[0]!.id, value: '3' }]);
    await t.api('POST', `/api/assessments/${four.objectId}/publish`, undefined, admin);
    await t.api('POST', `/api/assessments/${five.objectId}/publish`, undefined, admin);

    const res = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(class9[0]!));
    expect(res.status).toBe(200);
    // Newest first, no draft.
    expect(res.body.assessments.map((a: { title: string }) => a.title)).toEqual(['Five', 'Four']);
    expect(res.body.assessments[0].batchAverage).toBe(10);
    expect(res.body.assessments[1].batchAverage).toBeUndefined();
    expect(res.body.subjects).toEqual([
      {
        subject: 'Mathematics',
        averagePercentage: 50,
        points: [
          { date: '2026-03-01', title: 'Four', percentage: 50 },
          { date: '2026-04-01', title: 'Five', percentage: 50 },
        ],
      },
    ]);
  });

  it("lists a student's subjects in the centre's order of subjects, whichever came first", async () => {
    const [pupil] = (await pupils(1, 8, 'State')) as [Pupil];
    for (const [subject, date] of [
      ['Social Studies', '2026-01-05'],
      ['Science', '2026-02-05'],
      ['Mathematics', '2026-03-05'],
    ] as const) {
      const a = await create({ grade: 8, board: 'State', subject, date, title: `${subject} test` });
      await save(a.objectId, [{ id: pupil.id, value: '5' }]);
      expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin)).status).toBe(200);
    }
    const res = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(pupil));
    expect(res.body.subjects.map((s: { subject: string }) => s.subject)).toEqual([
      'Mathematics',
      'Science',
      'Social Studies',
    ]);
  });

  it("gives a subject's average from the exact percentages, rounded once", async () => {
    const [pupil] = (await pupils(1, 7, 'ICSE')) as [Pupil];
    for (const [title, marks] of [
      ['Sevenths 1', '1'],
      ['Sevenths 2', '2'],
    ] as const) {
      const a = await create({ grade: 7, board: 'ICSE', subject: 'Science', title, maxMarks: 7 });
      await save(a.objectId, [{ id: pupil.id, value: marks }]);
      expect((await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin)).status).toBe(200);
    }
    const res = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(pupil));
    // 1/7 and 2/7 are 14.29% and 28.57%: their average is 21.43%, shown 21.4 (not 21.5 from 14.3 and 28.6).
    expect(res.body.subjects).toMatchObject([
      { subject: 'Science', averagePercentage: 21.4, points: [{ percentage: 14.3 }, { percentage: 28.6 }] },
    ]);
  });

  it("moves the average students see only once 5 students' marks have changed: a late mark cannot be worked out", async () => {
    const class4 = await pupils(11, 4, 'CBSE');
    const a = await create({ grade: 4, board: 'CBSE', title: 'Re-sit', maxMarks: 20 });
    await save(
      a.objectId,
      class4.slice(0, 6).map((p, i) => ({ id: p.id, value: i < 5 ? '10' : 'absent' })),
    );
    await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    const token = await tokenOf(class4[0]!);
    const seen = async () =>
      (await t.api('GET', '/api/students/me/progress', undefined, token)).body.assessments[0].batchAverage as number;
    const record = async () => (await t.api('GET', `/api/assessments/${a.objectId}`, undefined, admin)).body;
    const stored = async () => (await record()).average as number;
    expect(await seen()).toBe(10);

    // The absent student's re-sit: the admin's average moves at once, the students' does not,
    // and saving the same mark again changes nothing.
    await save(a.objectId, [{ id: class4[5]!.id, value: '20' }]);
    await save(a.objectId, [{ id: class4[5]!.id, value: '20' }]);
    expect(await stored()).toBe(11.7);
    expect(await seen()).toBe(10);
    // The admin is told what the students see.
    expect(await record()).toMatchObject({ average: 11.7, markedCount: 6, shownAverage: 10 });
    // Three more students' marks: four students' in all, still the average as published.
    await save(
      a.objectId,
      class4.slice(6, 9).map((p) => ({ id: p.id, value: '20' })),
    );
    expect(await seen()).toBe(10);
    // A fifth: the students see the average as it is now, over ten marks.
    await save(a.objectId, [{ id: class4[9]!.id, value: '20' }]);
    expect(await stored()).toBe(15);
    expect(await seen()).toBe(15);
    // And the next late mark, alone, does not move it again; nor does a mark cleared.
    await save(a.objectId, [{ id: class4[10]!.id, value: '4' }]);
    await save(a.objectId, [{ id: class4[9]!.id, value: '' }]);
    expect(await stored()).toBe(13.4);
    expect(await seen()).toBe(15);
    expect((await record()).shownAverage).toBe(15);
  });

  it('counts a student as changed only while their mark differs from when the average was taken: undone changes make no five', async () => {
    // Eleven with marks, four without.
    const class5 = await pupils(15, 5, 'ICSE');
    const a = await create({ grade: 5, board: 'ICSE', title: 'Undone slips', maxMarks: 20 });
    await save(
      a.objectId,
      class5.slice(0, 10).map((p) => ({ id: p.id, value: '10' })),
    );
    await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    const token = await tokenOf(class5[0]!);
    const seen = async () =>
      (await t.api('GET', '/api/students/me/progress', undefined, token)).body.assessments[0].batchAverage as number;
    expect(await seen()).toBe(10);
    // Four marks typed wrong and put right, one cleared and entered again: nothing differs.
    const four = class5.slice(0, 4);
    await save(
      a.objectId,
      four.map((p) => ({ id: p.id, value: '2' })),
    );
    await save(
      a.objectId,
      four.map((p) => ({ id: p.id, value: '10' })),
    );
    await save(a.objectId, [{ id: class5[4]!.id, value: '' }]);
    await save(a.objectId, [{ id: class5[4]!.id, value: '10' }]);
    // So the eleventh's late mark is one change: two readings must not give it away.
    await save(a.objectId, [{ id: class5[10]!.id, value: '20' }]);
    expect((await t.api('GET', `/api/assessments/${a.objectId}`, undefined, admin)).body.average).toBe(10.9);
    expect(await seen()).toBe(10);
    // Three real corrections: four students differ, still the average as published.
    await save(
      a.objectId,
      class5.slice(0, 3).map((p) => ({ id: p.id, value: '12' })),
    );
    expect(await seen()).toBe(10);
    // One of them changed again still counts once; a fifth student, and it is taken again.
    await save(a.objectId, [{ id: class5[0]!.id, value: '13' }]);
    expect(await seen()).toBe(10);
    await save(a.objectId, [{ id: class5[3]!.id, value: '12' }]);
    expect(await seen()).toBe(11.7);
    // Students kept by an earlier version as bare ids, their marks then unknown: never counted,
    // however their marks change after (slips put right after it cannot make up the five); four
    // empty cells marked Absent change nothing the average is made of. So one more change is one.
    const bareIds = JSON.stringify(class5.slice(0, 4).map((p) => p.objectId));
    await t.sql.query(`UPDATE "Assessment" SET "changedSinceShown" = $2::jsonb WHERE "objectId" = $1`, [
      a.objectId,
      bareIds,
    ]);
    await save(
      a.objectId,
      class5.slice(0, 4).map((p) => ({ id: p.id, value: '9' })),
    );
    await save(
      a.objectId,
      class5.slice(11, 15).map((p) => ({ id: p.id, value: 'absent' })),
    );
    await save(a.objectId, [{ id: class5[5]!.id, value: '0' }]);
    expect((await t.api('GET', `/api/assessments/${a.objectId}`, undefined, admin)).body.average).toBe(9.6);
    expect(await seen()).toBe(11.7);
  });

  it('shows the average at once when it first covers 5 students after publishing: there was none to compare', async () => {
    const class4 = await pupils(5, 4, 'ICSE');
    const a = await create({ grade: 4, board: 'ICSE', title: 'Four then five', maxMarks: 20 });
    await save(
      a.objectId,
      class4.slice(0, 4).map((p) => ({ id: p.id, value: '12' })),
    );
    await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    const token = await tokenOf(class4[0]!);
    const seen = async () => (await t.api('GET', '/api/students/me/progress', undefined, token)).body.assessments[0];
    expect((await seen()).batchAverage).toBeUndefined();
    const record = async () => (await t.api('GET', `/api/assessments/${a.objectId}`, undefined, admin)).body;
    expect((await record()).shownAverage).toBeUndefined();
    await save(a.objectId, [{ id: class4[4]!.id, value: '17' }]);
    expect((await record()).shownAverage).toBe(13);
    expect(await seen()).toMatchObject({ batchAverage: 13, batchAveragePercentage: 65 });
  });

  it('hides the average while fewer than 5 students have marks again, and shows it unmoved when 5 have', async () => {
    const class6 = await pupils(5, 6, 'ICSE');
    const a = await create({ grade: 6, board: 'ICSE', title: 'Five then four', maxMarks: 20 });
    await save(
      a.objectId,
      class6.map((p) => ({ id: p.id, value: '10' })),
    );
    await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    const token = await tokenOf(class6[0]!);
    const seen = async () => (await t.api('GET', '/api/students/me/progress', undefined, token)).body.assessments[0];
    const record = async () => (await t.api('GET', `/api/assessments/${a.objectId}`, undefined, admin)).body;
    expect((await seen()).batchAverage).toBe(10);

    // One student marked absent after all: four have marks, and the students see no average.
    await save(a.objectId, [{ id: class6[4]!.id, value: 'absent' }]);
    expect((await seen()).batchAverage).toBeUndefined();
    expect(await record()).toMatchObject({ average: 10, markedCount: 4 });
    expect((await record()).shownAverage).toBeUndefined();
    // So with a mark cleared.
    await save(a.objectId, [{ id: class6[4]!.id, value: '' }]);
    expect((await seen()).batchAverage).toBeUndefined();

    // Five again, with that one student's new mark: shown again, as it was published (one
    // student's change alone does not move it, or their mark could be worked out).
    await save(a.objectId, [{ id: class6[4]!.id, value: '20' }]);
    expect(await record()).toMatchObject({ average: 12, markedCount: 5, shownAverage: 10 });
    expect(await seen()).toMatchObject({ batchAverage: 10, batchAveragePercentage: 50 });
  });

  it("works the batch average's percentage out from the exact average, not the rounded one shown", async () => {
    const class5 = await pupils(7, 5, 'ICSE');
    const a = await create({ grade: 5, board: 'ICSE', maxMarks: 1, title: 'Quiz' });
    // 5 marks in 7: the average is 0.714..., shown as 0.7, and 71.4% (not 70%).
    await save(
      a.objectId,
      class5.map((p, i) => ({ id: p.id, value: i < 5 ? '1' : '0' })),
    );
    await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    const res = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(class5[0]!));
    expect(res.body.assessments[0]).toMatchObject({ batchAverage: 0.7, batchAveragePercentage: 71.4, percentage: 100 });
  });

  it('gives a student with no marks an empty progress', async () => {
    const [p] = await pupils(1, 1);
    const res = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(p!));
    expect(res.body).toEqual({ assessments: [], subjects: [] });
  });

  it('puts the last published first among assessments of one date, with half marks and Absent as stored', async () => {
    const [p] = (await pupils(1, 7, 'State')) as [Pupil];
    const first = await create({
      grade: 7,
      board: 'State',
      date: '2026-05-05',
      title: 'Published first',
      maxMarks: 10,
    });
    const second = await create({
      grade: 7,
      board: 'State',
      date: '2026-05-05',
      title: 'Published second',
      maxMarks: 8,
    });
    await save(first.objectId, [{ id: p.id, value: 'absent' }]);
    await save(second.objectId, [{ id: p.id, value: '7.5' }]);
    await t.api('POST', `/api/assessments/${first.objectId}/publish`, undefined, admin);
    await t.api('POST', `/api/assessments/${second.objectId}/publish`, undefined, admin);

    const res = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(p));
    expect(res.body.assessments).toEqual([
      expect.objectContaining({ title: 'Published second', marks: 7.5, maxMarks: 8, percentage: 93.8, absent: false }),
      expect.objectContaining({ title: 'Published first', maxMarks: 10, absent: true }),
    ]);
    expect(res.body.assessments[1]).not.toHaveProperty('marks');
  });

  it('gives no progress through a session that has ended: too old, or logged out', async () => {
    const [p] = (await pupils(1, 7, 'ICSE')) as [Pupil];
    const a = await create({ grade: 7, board: 'ICSE', title: 'Behind a session' });
    await save(a.objectId, [{ id: p.id, value: '9' }]);
    await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    const old = await loginStudent(t, p.email, p.password);
    const later = await loginStudent(t, p.email, p.password);
    expect((await t.api('GET', '/api/students/me/progress', undefined, old)).body.assessments).toHaveLength(1);

    expect((await t.api('GET', '/api/students/me/progress', undefined, later)).body.assessments).toHaveLength(1);

    // 31 days old (a student's sessions last 30) but used a moment ago, so that only its age
    // ends it: refused with nothing of the marks, and the session is gone.
    await t.sql.query(
      `UPDATE "_Session" SET "createdAt" = now() - interval '31 days', "lastUsedAt" = now() WHERE "sessionToken" = $1`,
      [old],
    );
    const aged = await t.api('GET', '/api/students/me/progress', undefined, old);
    expect(aged.status).toBe(401);
    expect(JSON.stringify(aged.body)).not.toContain('Behind a session');
    expect((await t.sql.query(`SELECT 1 FROM "_Session" WHERE "sessionToken" = $1`, [old])).rowCount).toBe(0);

    expect((await t.api('POST', '/api/student/logout', undefined, later)).status).toBe(200);
    const loggedOut = await t.api('GET', '/api/students/me/progress', undefined, later);
    expect(loggedOut.status).toBe(401);
    expect(JSON.stringify(loggedOut.body)).not.toContain('Behind a session');
  });
});

describe('permissions on every path', () => {
  let pupil: Pupil;
  let draftId: string;
  beforeAll(async () => {
    [pupil] = (await pupils(1, 3, 'ICSE')) as [Pupil];
    draftId = (await create({ grade: 3, board: 'ICSE' })).objectId;
    await save(draftId, [{ id: pupil.id, value: '7' }]);
  });

  const adminCalls = (id: string): [string, string, unknown?][] => [
    ['GET', '/api/assessments'],
    ['GET', `/api/assessments/${id}`],
    ['POST', '/api/assessments', assessment()],
    ['PUT', `/api/assessments/${id}`, { title: 'x' }],
    ['DELETE', `/api/assessments/${id}`],
    ['POST', `/api/assessments/${id}/publish`],
    ['GET', `/api/assessments/${id}/marks`],
    ['PUT', `/api/assessments/${id}/marks`, { rows: [{ id: 1, value: '20' }] }],
    ['POST', `/api/assessments/${id}/marks/csv-preview`, { csv: '1,2' }],
    ['POST', `/api/assessments/${id}/marks/csv`, { csv: '1,2' }],
  ];

  it('answers 401 without a session and 403 to a student on every admin call', async () => {
    const token = await tokenOf(pupil);
    for (const [method, route, body] of adminCalls(draftId)) {
      expect((await t.api(method, route, body)).status, `${method} ${route}`).toBe(401);
      expect((await t.api(method, route, body, token)).status, `${method} ${route}`).toBe(403);
    }
    expect((await t.sql.query(`SELECT marks FROM "Mark" WHERE "assessmentId" = $1`, [draftId])).rows).toEqual([
      { marks: 7 },
    ]);
  });

  it('never shows a student a draft, and an admin has no progress', async () => {
    const res = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(pupil));
    expect(res.body.assessments).toEqual([]);
    expect((await t.api('GET', '/api/students/me/progress', undefined, admin)).status).toBe(403);
    expect((await t.api('GET', '/api/students/me/progress')).status).toBe(401);
  });

  it('shows a student only their own marks', async () => {
    const [mine, theirs] = await pupils(2, 3, 'State');
    const a = await create({ grade: 3, board: 'State' });
    await save(a.objectId, [
      { id: mine!.id, value: '4' },
      { id: theirs!.id, value: '19' },
    ]);
    await t.api('POST', `/api/assessments/${a.objectId}/publish`, undefined, admin);
    const res = await t.api('GET', '/api/students/me/progress', undefined, await tokenOf(mine!));
    // Nowhere in the answer (its random ids aside, which may hold any digits).
    const withoutIds = JSON.stringify(res.body, (key, value: unknown) => (key === 'objectId' ? undefined : value));
    expect(withoutIds).not.toContain('19');
    expect(res.body.assessments).toHaveLength(1);
    expect(res.body.assessments[0].marks).toBe(4);
  });

  it('keeps Parse REST and cloud functions closed: no class reads, no writes by a student', async () => {
    const token = await tokenOf(pupil);
    const headers = { 'X-Parse-Application-Id': t.site.config.appId, 'content-type': 'application/json' };
    for (const className of ['Assessment', 'Mark']) {
      for (const session of [{}, { 'X-Parse-Session-Token': token }] as Record<string, string>[]) {
        const read = await fetch(`${t.url}/parse/classes/${className}`, { headers: { ...headers, ...session } });
        expect(read.status).toBeGreaterThanOrEqual(400);
        const write = await fetch(`${t.url}/parse/classes/${className}`, {
          method: 'POST',
          headers: { ...headers, ...session },
          body: JSON.stringify({ assessmentId: draftId, studentId: pupil.objectId, marks: 20 }),
        });
        expect(write.status).toBeGreaterThanOrEqual(400);
      }
    }
    const viaFunction = await fetch(`${t.url}/parse/functions/saveMarks`, {
      method: 'POST',
      headers: { ...headers, 'X-Parse-Session-Token': token },
      body: JSON.stringify({ objectId: draftId, rows: [{ id: pupil.id, value: '20' }] }),
    });
    expect(viaFunction.status).toBeGreaterThanOrEqual(400);
    const batch = await fetch(`${t.url}/parse/batch`, {
      method: 'POST',
      headers: { ...headers, 'X-Parse-Session-Token': token },
      body: JSON.stringify({
        requests: [{ method: 'POST', path: '/parse/classes/Mark', body: { assessmentId: draftId, marks: 20 } }],
      }),
    });
    expect(JSON.stringify(await batch.json())).toMatch(/error/);
    expect((await t.sql.query(`SELECT marks FROM "Mark" WHERE "assessmentId" = $1`, [draftId])).rows).toEqual([
      { marks: 7 },
    ]);
  });
});

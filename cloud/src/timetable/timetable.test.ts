// The study schedule on the real site: every slot and holiday rule through /api,
// the clash rule, who may read and write what (through /api, Parse functions,
// Parse REST and batch), a student's week and next class in the centre's zone,
// and the private calendar feed parsed back with an iCalendar parser.

import { randomBytes } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimetableMessage as M } from '@tc/domain/timetable-messages';
import { addDays, weekdayOf, zonedParts } from '@tc/domain/zoned-time';
import { loginAdmin, loginStudent, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { newStudent } from '../../../testing/students.ts';
import { lockWaitsOn } from '../../../testing/locks.ts';

let t: TestSite;
let admin: string;
const KOLKATA = 'Asia/Kolkata';

beforeAll(async () => {
  t = await startTestSite();
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t?.stop();
});

const slotBody = (overrides: Record<string, unknown> = {}) => ({
  grade: 1,
  board: 'CBSE',
  subject: 'Mathematics',
  weekday: 1,
  start: '18:00',
  duration: 60,
  teacher: 'Mrs Rao',
  link: 'https://meet.example.com/maths',
  ...overrides,
});

async function createSlot(overrides: Record<string, unknown> = {}) {
  const res = await t.api('POST', '/api/timetable/slots', slotBody(overrides), admin);
  if (res.status !== 201) throw new Error(`create slot: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { objectId: string } & Record<string, unknown>;
}

async function studentOf(grade: number, board: string) {
  const { student, result } = await register(t, newStudent({ grade, board }));
  const token = await loginStudent(t, student.email, student.password);
  return { token, objectId: result.body.objectId as string };
}

const todayInKolkata = () => zonedParts(new Date(), KOLKATA).date;

describe('slot rules', () => {
  it('creates, lists, updates and deletes a slot', async () => {
    const made = await createSlot({ grade: 2, weekday: 3, start: '07:30', duration: 45 });
    expect(made).toMatchObject({ grade: 2, board: 'CBSE', weekday: 3, start: '07:30', end: '08:15', duration: 45 });
    const listed = await t.api('GET', '/api/timetable/slots?grade=2&board=CBSE', undefined, admin);
    expect(listed.status).toBe(200);
    expect(listed.body.map((s: { objectId: string }) => s.objectId)).toContain(made.objectId);
    const otherBoard = await t.api('GET', '/api/timetable/slots?grade=2&board=ICSE', undefined, admin);
    expect(otherBoard.body.map((s: { objectId: string }) => s.objectId)).not.toContain(made.objectId);

    const changed = await t.api(
      'PUT',
      `/api/timetable/slots/${made.objectId}`,
      { teacher: 'Mr Iyer', link: '' },
      admin,
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ teacher: 'Mr Iyer', link: '', start: '07:30' });

    expect((await t.api('DELETE', `/api/timetable/slots/${made.objectId}`, undefined, admin)).status).toBe(200);
    const gone = await t.api('DELETE', `/api/timetable/slots/${made.objectId}`, undefined, admin);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe(M.slotNotFound);
    const missing = await t.api('PUT', `/api/timetable/slots/${made.objectId}`, { teacher: 'x' }, admin);
    expect(missing.status).toBe(404);
  });

  it('refuses a field a class or a holiday does not take rather than ignoring it; a listed class sent back is taken', async () => {
    const typo = await t.api('POST', '/api/timetable/slots', { ...slotBody({ grade: 1 }), teachr: 'Mr T' }, admin);
    expect(typo.status).toBe(400);
    expect(typo.body).toMatchObject({ error: 'Unknown field: teachr', code: 142 });
    const made = await createSlot({ grade: 1, weekday: 6, start: '06:00' });
    const path = `/api/timetable/slots/${made.objectId}`;
    const unknown = await t.api('PUT', path, { teacher: 'Mr U', room: '4B' }, admin);
    expect(unknown.body).toMatchObject({ error: 'Unknown field: room' });
    const { rows } = await t.sql.query(`SELECT teacher FROM "TimetableSlot" WHERE "objectId" = $1`, [made.objectId]);
    expect(rows[0].teacher).toBe(made.teacher);
    // The class as listed (with its worked-out end), its teacher changed.
    const back = await t.api('PUT', path, { ...made, teacher: 'Mr Back' }, admin);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ teacher: 'Mr Back', end: made.end });
    const holiday = await t.api(
      'POST',
      '/api/timetable/holidays',
      { title: 'Typo day', from: '2031-01-02', too: '2031-01-03' },
      admin,
    );
    expect(holiday.body).toMatchObject({ error: 'Unknown field: too' });
  });

  it.each([
    [{ grade: 12 }, 'grade', M.gradeRequired],
    [{ board: 'IB' }, 'board', M.boardInvalid],
    [{ subject: 'Drawing' }, 'subject', M.subjectInvalid],
    [{ weekday: 8 }, 'weekday', M.weekdayInvalid],
    [{ start: '7pm' }, 'start', M.startInvalid],
    [{ duration: 10 }, 'duration', M.durationInvalid],
    [{ duration: 200 }, 'duration', M.durationInvalid],
    [{ start: '23:30', duration: 60 }, 'duration', M.endsAfterMidnight],
    [{ teacher: '' }, 'teacher', M.teacherRequired],
    [{ teacher: 'x'.repeat(61) }, 'teacher', M.teacherTooLong],
    [{ link: 'http://meet.example.com' }, 'link', M.linkInvalid],
  ])('refuses %o with 400 naming %s', async (change, field, message) => {
    const res = await t.api('POST', '/api/timetable/slots', slotBody({ grade: 3, ...change }), admin);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, field, code: 142 });
  });

  it('applies the rules to an update too, and keeps the stored slot as it was', async () => {
    const made = await createSlot({ grade: 3, weekday: 2 });
    const res = await t.api('PUT', `/api/timetable/slots/${made.objectId}`, { duration: 500 }, admin);
    expect(res.body).toMatchObject({ field: 'duration', error: M.durationInvalid });
    const { rows } = await t.sql.query(`SELECT duration FROM "TimetableSlot" WHERE "objectId" = $1`, [made.objectId]);
    expect(rows[0].duration).toBe(60);
  });

  it('refuses an overlap in the batch and names the slot it clashes with', async () => {
    await createSlot({ grade: 4, board: 'ICSE', weekday: 5, start: '16:00', subject: 'Science', teacher: 'Mr Khan' });
    const res = await t.api(
      'POST',
      '/api/timetable/slots',
      slotBody({ grade: 4, board: 'ICSE', weekday: 5, start: '16:30' }),
      admin,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      field: 'start',
      error: 'This slot overlaps Science on Friday 16:00-17:00 (ICSE, Mr Khan)',
    });
    // Touching ends, another board, another day: no clash.
    await createSlot({ grade: 4, board: 'ICSE', weekday: 5, start: '17:00' });
    await createSlot({ grade: 4, board: 'State', weekday: 5, start: '16:00' });
    await createSlot({ grade: 4, board: 'ICSE', weekday: 6, start: '16:00' });
  });

  it('makes a slot for all boards clash with every board of its grade, and not with itself', async () => {
    await createSlot({ grade: 5, board: 'State', weekday: 1, start: '10:00', teacher: 'Ms Das' });
    const all = await t.api(
      'POST',
      '/api/timetable/slots',
      slotBody({ grade: 5, board: 'All', start: '10:30' }),
      admin,
    );
    expect(all.body.error).toBe('This slot overlaps Mathematics on Monday 10:00-11:00 (State, Ms Das)');
    const made = await createSlot({ grade: 5, board: 'All', weekday: 2, start: '10:00', teacher: 'Mr All' });
    const cbse = await t.api('POST', '/api/timetable/slots', slotBody({ grade: 5, weekday: 2, start: '09:30' }), admin);
    expect(cbse.body.error).toBe('This slot overlaps Mathematics on Tuesday 10:00-11:00 (all boards, Mr All)');
    const moved = await t.api('PUT', `/api/timetable/slots/${made.objectId}`, { start: '10:15' }, admin);
    expect(moved.status).toBe(200);
    // The list by board: a board's batch week has the all-boards slots; All lists those alone.
    const teachers = async (board: string) =>
      (await t.api('GET', `/api/timetable/slots?grade=5&board=${board}`, undefined, admin)).body.map(
        (s: { teacher: string }) => s.teacher,
      );
    expect(await teachers('State')).toEqual(['Ms Das', 'Mr All']);
    expect(await teachers('all')).toEqual(['Mr All']);
    const bad = await t.api('GET', '/api/timetable/slots?grade=5&board=IB', undefined, admin);
    expect(bad).toMatchObject({ status: 400, body: { field: 'board', error: M.boardInvalid } });
  });

  /**
   * Another admin moves a class of the 8th grade to the 9th while `second`, sent after the move
   * and reading the class before it, waits behind it: the grade's timetable is held, the move
   * waits for it, `second` after the move. Answers both answers.
   */
  async function movedMeanwhile<R>(objectId: string, second: () => Promise<R>) {
    const holder = await t.sql.connect();
    let moving: Promise<{ status: number }> | undefined;
    let after: Promise<R> | undefined;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(7240001, 8)');
      moving = t.api('PUT', `/api/timetable/slots/${objectId}`, { grade: 9 }, admin);
      await lockWaitsOn(t.sql, 'pg_advisory_xact_lock');
      after = second();
      // The second waits in this process's queue, not on the database (serialisedForGrades), so
      // nothing shows that it has read the slot: it is given a second. Too short, it would
      // read the slot after the move and answer 200: the test fails, it never passes wrongly.
      await new Promise((r) => setTimeout(r, 1_000));
      await holder.query('COMMIT');
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    return { moved: await moving, second: await after };
  }

  it("never undoes another admin's change made between its read and its save", async () => {
    const made = await createSlot({ grade: 8, board: 'ICSE', weekday: 6, start: '05:00', duration: 30 });
    const { moved, second: retimed } = await movedMeanwhile(made.objectId, () =>
      t.api('PUT', `/api/timetable/slots/${made.objectId}`, { start: '05:30' }, admin),
    );
    expect(moved.status).toBe(200);
    expect(retimed).toMatchObject({ status: 400, body: { error: M.slotChangedMeanwhile } });
    const { rows } = await t.sql.query(`SELECT grade, start FROM "TimetableSlot" WHERE "objectId" = $1`, [
      made.objectId,
    ]);
    expect(rows[0]).toEqual({ grade: 9, start: '05:00' });
  });

  it('does not delete a class another admin moved or retimed after it was read: it is logged and signalled as it is', async () => {
    const made = await createSlot({ grade: 8, board: 'CBSE', weekday: 6, start: '06:00', duration: 30 });
    const { moved, second: deleted } = await movedMeanwhile(made.objectId, () =>
      t.api('DELETE', `/api/timetable/slots/${made.objectId}`, undefined, admin),
    );
    expect(moved.status).toBe(200);
    expect(deleted).toMatchObject({ status: 400, body: { error: M.slotChangedMeanwhile } });
    expect(
      (await t.sql.query(`SELECT grade FROM "TimetableSlot" WHERE "objectId" = $1`, [made.objectId])).rows,
    ).toEqual([{ grade: 9 }]);
    // Read again, it is deleted, and its entry names the grade it had.
    expect((await t.api('DELETE', `/api/timetable/slots/${made.objectId}`, undefined, admin)).status).toBe(200);
    const { rows } = await t.sql.query(
      `SELECT state, changes FROM "ActivityEntry" WHERE kind = 'timetable.delete' AND "targetId" = $1 ORDER BY "createdAt"`,
      [made.objectId],
    );
    expect(rows.map((row) => row.state)).toEqual(['applied']);
    expect(rows[0].changes).toContainEqual({ field: 'grade', before: '9', after: '' });
  });

  it('lets only one of two simultaneous overlapping slots in', async () => {
    const answers = await Promise.all(
      ['12:00', '12:10', '12:20', '12:30'].map((start) =>
        t.api('POST', '/api/timetable/slots', slotBody({ grade: 6, board: 'State', weekday: 4, start }), admin),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(3);
  });
});

describe('the activity log', () => {
  it('records every change of a slot and a holiday: who, what, and each field before and after', async () => {
    const made = await createSlot({ grade: 6, board: 'ICSE', weekday: 6, start: '08:00', teacher: 'Mr Logged' });
    // An edit that changes nothing is answered and not recorded.
    const same = await t.api('PUT', `/api/timetable/slots/${made.objectId}`, { teacher: 'Mr Logged' }, admin);
    expect(same.status).toBe(200);
    const changed = await t.api('PUT', `/api/timetable/slots/${made.objectId}`, { teacher: 'Ms Logged' }, admin);
    expect(changed.status).toBe(200);
    expect((await t.api('DELETE', `/api/timetable/slots/${made.objectId}`, undefined, admin)).status).toBe(200);
    const holiday = await t.api('POST', '/api/timetable/holidays', { title: 'Logged day', from: '2031-01-02' }, admin);
    expect(holiday.status).toBe(201);

    const entries = async (kind: string) =>
      (await t.api('GET', `/api/activity?kind=${kind}&limit=50`, undefined, admin)).body as Array<{
        adminEmail: string;
        targetId: string;
        state: string;
        changes: Array<{ field: string; before: string; after: string }>;
      }>;
    const created = (await entries('timetable.create')).find((e) =>
      e.changes.some((c) => c.field === 'teacher' && c.after === 'Mr Logged'),
    );
    // The creation's entry names the slot it made, so the slot's history starts with it.
    expect(created).toMatchObject({ adminEmail: t.admin.email, state: 'applied', targetId: made.objectId });
    const updated = (await entries('timetable.update')).filter((e) => e.targetId === made.objectId);
    expect(updated.map((e) => e.changes)).toEqual([[{ field: 'teacher', before: 'Mr Logged', after: 'Ms Logged' }]]);
    const deleted = (await entries('timetable.delete')).find((e) => e.targetId === made.objectId);
    expect(deleted?.changes).toContainEqual({ field: 'teacher', before: 'Ms Logged', after: '' });
    const holidays = await entries('holiday.create');
    const holidayEntry = holidays.find((e) => e.changes.some((c) => c.field === 'title' && c.after === 'Logged day'));
    expect(holidayEntry).toMatchObject({ state: 'applied', targetId: holiday.body.objectId });
  });
});

describe('holiday rules', () => {
  it('creates, lists and deletes a holiday; one day by default', async () => {
    const res = await t.api(
      'POST',
      '/api/timetable/holidays',
      { title: ' Guru Nanak Jayanti ', from: '2031-11-05' },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Guru Nanak Jayanti', from: '2031-11-05', to: '2031-11-05' });
    const listed = await t.api('GET', '/api/timetable/holidays', undefined, admin);
    expect(listed.body.map((h: { objectId: string }) => h.objectId)).toContain(res.body.objectId);
    expect((await t.api('DELETE', `/api/timetable/holidays/${res.body.objectId}`, undefined, admin)).status).toBe(200);
    const again = await t.api('DELETE', `/api/timetable/holidays/${res.body.objectId}`, undefined, admin);
    expect(again).toMatchObject({ status: 404, body: { error: M.holidayNotFound } });
  });

  it('refuses an exact copy of a holiday, also sent twice at once; another title or other days are taken', async () => {
    const body = { title: 'Double Submit Day', from: '2033-03-07', to: '2033-03-08' };
    const both = await Promise.all([1, 2].map(() => t.api('POST', '/api/timetable/holidays', body, admin)));
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(both.find((r) => r.status === 400)!.body).toMatchObject({ field: 'title', error: M.holidayDuplicate });
    const again = await t.api('POST', '/api/timetable/holidays', { ...body, title: 'double submit DAY' }, admin);
    expect(again).toMatchObject({ status: 400, body: { field: 'title', error: M.holidayDuplicate } });
    // Overlapping holidays are fine: a founders' day inside a term break.
    for (const other of [
      { ...body, title: 'Founders Day' },
      { ...body, to: '2033-03-09' },
    ]) {
      expect((await t.api('POST', '/api/timetable/holidays', other, admin)).status).toBe(201);
    }
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "Holiday" WHERE title = $1`, [body.title]);
    expect(rows[0].n).toBe(2);
  });

  it('answers one of several deletes of a holiday at once, and the others in its own words (404)', async () => {
    const made = await t.api('POST', '/api/timetable/holidays', { title: 'Raced', from: '2032-01-05' }, admin);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.api('DELETE', `/api/timetable/holidays/${made.body.objectId}`, undefined, admin),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const lost of answers.filter((r) => r.status !== 200)) {
      expect(lost).toMatchObject({ status: 404, body: { error: M.holidayNotFound } });
    }
  });

  it('answers 404 to an id no slot or holiday could have, as to any unknown id', async () => {
    for (const id of ['a%2Fb', '%F0%9F%98%80', 'x'.repeat(300), '%2E%2E%2Ex']) {
      const slot = await t.api('PUT', `/api/timetable/slots/${id}`, { teacher: 'Mr X' }, admin);
      expect(slot, id).toMatchObject({ status: 404, body: { error: M.slotNotFound } });
      const slotDelete = await t.api('DELETE', `/api/timetable/slots/${id}`, undefined, admin);
      expect(slotDelete, id).toMatchObject({ status: 404, body: { error: M.slotNotFound } });
      const holiday = await t.api('DELETE', `/api/timetable/holidays/${id}`, undefined, admin);
      expect(holiday, id).toMatchObject({ status: 404, body: { error: M.holidayNotFound } });
    }
  });

  it.each([
    [{ title: '', from: '2031-01-01' }, 'title', M.holidayTitleRequired],
    [{ title: 'x'.repeat(81), from: '2031-01-01' }, 'title', M.holidayTitleTooLong],
    [{ title: 'a', from: '2031-02-30' }, 'from', M.holidayFromInvalid],
    [{ title: 'a', from: '2031-01-05', to: '2031-01-04' }, 'to', M.holidayToBeforeFrom],
    [{ title: 'a', from: '2031-01-01', to: '2031-12-31' }, 'to', M.holidayTooLong],
  ])('refuses %o naming %s', async (body, field, message) => {
    const res = await t.api('POST', '/api/timetable/holidays', body, admin);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, error: message });
  });
});

describe('permissions', () => {
  let studentToken: string;
  let slotId: string;
  beforeAll(async () => {
    studentToken = (await studentOf(7, 'CBSE')).token;
    slotId = (await createSlot({ grade: 7, board: 'ICSE', weekday: 1, start: '08:00', teacher: 'Secret Teacher' }))
      .objectId;
  });

  it('answers 403 to a student and 401 to nobody on every admin call', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/timetable/slots?grade=7&board=ICSE'],
      ['POST', '/api/timetable/slots', slotBody({ grade: 7, weekday: 7 })],
      ['PUT', `/api/timetable/slots/${slotId}`, { teacher: 'Hacker' }],
      ['DELETE', `/api/timetable/slots/${slotId}`],
      ['GET', '/api/timetable/holidays'],
      ['POST', '/api/timetable/holidays', { title: 'Skip school', from: '2031-01-01' }],
    ];
    for (const [method, route, body] of calls) {
      expect((await t.api(method, route, body, studentToken)).status, `${method} ${route}`).toBe(403);
      expect((await t.api(method, route, body)).status, `${method} ${route}`).toBe(401);
    }
    const { rows } = await t.sql.query(`SELECT teacher FROM "TimetableSlot" WHERE "objectId" = $1`, [slotId]);
    expect(rows[0].teacher).toBe('Secret Teacher');
  });

  it('keeps the classes closed on Parse REST and batch, even to a student session', async () => {
    const appId = t.site.config.appId;
    for (const className of ['TimetableSlot', 'Holiday', 'CalendarFeed']) {
      for (const sessionToken of [undefined, studentToken]) {
        const headers: Record<string, string> = { 'X-Parse-Application-Id': appId, 'content-type': 'application/json' };
        if (sessionToken) headers['X-Parse-Session-Token'] = sessionToken;
        const read = await fetch(`${t.url}/parse/classes/${className}`, { headers });
        expect(read.status).toBeGreaterThanOrEqual(400);
        expect(await read.text()).not.toContain('Secret Teacher');
        const write = await fetch(`${t.url}/parse/classes/${className}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(slotBody({ grade: 7, weekday: 7 })),
        });
        expect(write.status).toBeGreaterThanOrEqual(400);
        const batch = await fetch(`${t.url}/parse/batch`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ requests: [{ method: 'GET', path: `/parse/classes/${className}` }] }),
        });
        expect(await batch.text()).not.toContain('Secret Teacher');
      }
    }
    // And the class-level permissions themselves let no client in, should a route ever open.
    const { rows } = await t.sql.query(
      `SELECT "className", "schema"->'classLevelPermissions' AS clp FROM "_SCHEMA" WHERE "className" = ANY($1)`,
      [['TimetableSlot', 'Holiday', 'CalendarFeed']],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      for (const operation of ['find', 'count', 'get', 'create', 'update', 'delete', 'addField']) {
        expect(row.clp[operation], `${row.className}.${operation}`).toEqual({});
      }
    }
  });

  it('lets a student call the admin functions through /parse/functions no more than through /api', async () => {
    const res = await fetch(`${t.url}/parse/functions/createTimetableSlot`, {
      method: 'POST',
      headers: {
        'X-Parse-Application-Id': t.site.config.appId,
        'X-Parse-Session-Token': studentToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify(slotBody({ grade: 7, weekday: 7 })),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const { rows } = await t.sql.query(`SELECT 1 FROM "TimetableSlot" WHERE grade = 7 AND weekday = 7`);
    expect(rows).toHaveLength(0);
  });

  it("never shows a student another batch's classes, whatever they ask", async () => {
    const res = await t.api('GET', '/api/students/me/schedule?grade=7&board=ICSE', undefined, studentToken);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('Secret Teacher');
    expect(res.body).toMatchObject({ grade: 7, board: 'CBSE', hasTimetable: false });
    expect(res.body.next).toBeUndefined();
  });
});

describe("a student's schedule", () => {
  it('shows the batch week with slots for its board and for all boards, holidays marked, in the centre zone', async () => {
    const today = todayInKolkata();
    const inTwoDays = addDays(today, 2);
    const inThreeDays = addDays(today, 3);
    await createSlot({ grade: 8, board: 'State', weekday: weekdayOf(inTwoDays), start: '18:00', teacher: 'Ms State' });
    await createSlot({ grade: 8, board: 'All', weekday: weekdayOf(inTwoDays), start: '19:00', teacher: 'Mr All' });
    await createSlot({ grade: 8, board: 'CBSE', weekday: weekdayOf(inTwoDays), start: '17:00', teacher: 'Not Mine' });
    await createSlot({ grade: 8, board: 'State', weekday: weekdayOf(inThreeDays), start: '09:00', teacher: 'Ms Hol' });
    const holiday = await t.api('POST', '/api/timetable/holidays', { title: 'Sports day', from: inThreeDays }, admin);
    const { token } = await studentOf(8, 'State');

    const week = await t.api('GET', `/api/students/me/schedule?week=${inTwoDays}`, undefined, token);
    expect(week.status).toBe(200);
    expect(week.body).toMatchObject({ timeZone: KOLKATA, today, grade: 8, board: 'State', hasTimetable: true });
    expect(week.body.days).toHaveLength(7);
    expect(weekdayOf(week.body.weekStart)).toBe(1);
    const day = week.body.days.find((d: { date: string }) => d.date === inTwoDays);
    expect(day.classes.map((c: { teacher: string }) => c.teacher)).toEqual(['Ms State', 'Mr All']);
    expect(day.classes[0]).toMatchObject({ start: '18:00', end: '19:00', link: 'https://meet.example.com/maths' });
    // 18:00 in Kolkata is 12:30 UTC.
    expect(day.classes[0].startsAt).toBe(`${inTwoDays}T12:30:00.000Z`);
    expect(JSON.stringify(week.body)).not.toContain('Not Mine');

    // The next class: the first of the day after tomorrow, unless a class of this batch falls earlier.
    expect(week.body.next).toMatchObject({ teacher: 'Ms State', date: inTwoDays, start: '18:00' });
    // And the class straight after it (back to back: its Join opens before the first ends).
    expect(week.body.following).toMatchObject({ teacher: 'Mr All', date: inTwoDays, start: '19:00' });

    // The holiday's week marks it and drops its class.
    const holidayWeek = await t.api('GET', `/api/students/me/schedule?week=${inThreeDays}`, undefined, token);
    const off = holidayWeek.body.days.find((d: { date: string }) => d.date === inThreeDays);
    expect(off).toMatchObject({ holiday: 'Sports day', classes: [] });
    await t.api('DELETE', `/api/timetable/holidays/${holiday.body.objectId}`, undefined, admin);
  });

  it('moves to earlier and later weeks, and refuses a bad week', async () => {
    const { token } = await studentOf(8, 'ICSE');
    const now = await t.api('GET', '/api/students/me/schedule', undefined, token);
    const later = await t.api(
      'GET',
      `/api/students/me/schedule?week=${addDays(now.body.weekStart, 7)}`,
      undefined,
      token,
    );
    expect(later.body.weekStart).toBe(addDays(now.body.weekStart, 7));
    const earlier = await t.api(
      'GET',
      `/api/students/me/schedule?week=${addDays(now.body.today, -7)}`,
      undefined,
      token,
    );
    expect(earlier.body.weekStart).toBe(addDays(now.body.weekStart, -7));
    // Not a date, or a date whose week would leave four-digit years: 400, never 500.
    for (const week of ['2026-13-01', '0100-01-01', '9999-12-31', '1899-12-31']) {
      const bad = await t.api('GET', `/api/students/me/schedule?week=${week}`, undefined, token);
      expect(bad).toMatchObject({ status: 400, body: { field: 'week', error: M.weekInvalid } });
    }
    const edges = ['1900-01-01', '9998-12-31'];
    for (const week of edges) {
      expect((await t.api('GET', `/api/students/me/schedule?week=${week}`, undefined, token)).status).toBe(200);
    }
    expect((await t.api('GET', '/api/students/me/schedule')).status).toBe(401);
    // Who may ask is checked before the week: no session is 401, an admin 403, bad week or not.
    expect((await t.api('GET', '/api/students/me/schedule?week=2026-13-01')).status).toBe(401);
    expect((await t.api('GET', '/api/students/me/schedule?week=2026-13-01', undefined, admin)).status).toBe(403);
  });

  it('counts a class going on as the next one until it ends: the join window is the server-given times', async () => {
    // A class that started 5 minutes ago (in the centre's zone) and lasts 30 minutes.
    const now = new Date();
    const started = new Date(now.getTime() - 5 * 60_000);
    const { date, time, weekday } = zonedParts(started, KOLKATA);
    if (time > '23:20') return; // would run past midnight: the rule forbids it, nothing to test this minute
    await createSlot({ grade: 9, board: 'CBSE', weekday, start: time, duration: 30, teacher: 'Live now' });
    const { token } = await studentOf(9, 'CBSE');
    const res = await t.api('GET', '/api/students/me/schedule', undefined, token);
    expect(res.body.next).toMatchObject({ teacher: 'Live now', date, start: time });
    const startsAt = Date.parse(res.body.next.startsAt);
    expect(
      Math.abs(startsAt - (started.getTime() - started.getSeconds() * 1000 - started.getMilliseconds())),
    ).toBeLessThan(60_000);
    expect(Date.parse(res.body.next.endsAt) - startsAt).toBe(30 * 60_000);
  });

  it("shows the new batch's schedule at once when an admin changes the student's grade", async () => {
    // Today's weekday: a class added today shows from today on (this week's days gone by had none).
    const weekday = weekdayOf(todayInKolkata());
    await createSlot({ grade: 1, board: 'ICSE', weekday, start: '11:00', teacher: 'Grade one' });
    await createSlot({ grade: 2, board: 'ICSE', weekday, start: '11:00', teacher: 'Grade two' });
    const { token, objectId } = await studentOf(1, 'ICSE');
    const before = await t.api('GET', '/api/students/me/schedule', undefined, token);
    expect(JSON.stringify(before.body)).toContain('Grade one');
    const moved = await t.api('PUT', `/api/users/${objectId}`, { grade: 2 }, admin);
    expect(moved.status).toBe(200);
    const after = await t.api('GET', '/api/students/me/schedule', undefined, token);
    expect(after.body.grade).toBe(2);
    expect(JSON.stringify(after.body)).toContain('Grade two');
    expect(JSON.stringify(after.body)).not.toContain('Grade one');
  });

  it('shows a class from the day it was added: the weeks before and the days gone by had none', async () => {
    const today = todayInKolkata();
    const yesterday = addDays(today, -1);
    const made = await createSlot({
      grade: 6,
      board: 'CBSE',
      weekday: weekdayOf(yesterday),
      start: '20:00',
      teacher: 'Ms Newly Added',
    });
    const { token } = await studentOf(6, 'CBSE');
    const teachersOn = async (date: string) => {
      const res = await t.api('GET', `/api/students/me/schedule?week=${date}`, undefined, token);
      expect(res.status).toBe(200);
      const day = res.body.days.find((d: { date: string }) => d.date === date);
      return day.classes.map((c: { teacher: string }) => c.teacher);
    };
    expect(await teachersOn(yesterday)).not.toContain('Ms Newly Added');
    expect(await teachersOn(addDays(yesterday, -7))).not.toContain('Ms Newly Added');
    expect(await teachersOn(addDays(yesterday, 7))).toContain('Ms Newly Added');
    // Added a month ago, it was there yesterday and the week before.
    await t.sql.query(`UPDATE "TimetableSlot" SET "createdAt" = now() - interval '30 days' WHERE "objectId" = $1`, [
      made.objectId,
    ]);
    expect(await teachersOn(yesterday)).toContain('Ms Newly Added');
    expect(await teachersOn(addDays(yesterday, -7))).toContain('Ms Newly Added');
  });

  it('answers 403 to an admin asking for a student schedule', async () => {
    expect((await t.api('GET', '/api/students/me/schedule', undefined, admin)).status).toBe(403);
  });
});

describe('the calendar feed', () => {
  it('serves weekly events with the time zone, the link, and holidays as exceptions; a new link kills the old', async () => {
    const today = todayInKolkata();
    const holidayDate = addDays(today, 9);
    await createSlot({
      grade: 3,
      board: 'ICSE',
      weekday: weekdayOf(holidayDate),
      start: '18:00',
      duration: 90,
      subject: 'English',
      teacher: 'Ms Feed',
      link: 'https://meet.example.com/english',
    });
    await createSlot({ grade: 3, board: 'CBSE', weekday: 1, start: '06:00', teacher: 'Other batch' });
    await t.api('POST', '/api/timetable/holidays', { title: 'Feed holiday', from: holidayDate }, admin);
    const { token } = await studentOf(3, 'ICSE');

    const feed = await t.api('GET', '/api/students/me/calendar', undefined, token);
    expect(feed.status).toBe(200);
    expect(feed.body.url).toMatch(new RegExp(`^${t.url}/api/calendar/[A-Za-z0-9_-]{32}\\.ics$`));
    expect(feed.body.webcalUrl).toBe(feed.body.url.replace(/^http:/, 'webcal:'));
    // The same link until the student asks for a new one.
    expect((await t.api('GET', '/api/students/me/calendar', undefined, token)).body.url).toBe(feed.body.url);

    const res = await fetch(feed.body.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await res.text();
    expect(text).toContain('BEGIN:VTIMEZONE');
    expect(text).not.toContain('Other batch');

    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstSubcomponent('vtimezone')?.getFirstPropertyValue('tzid')).toBe(KOLKATA);
    const events = calendar.getAllSubcomponents('vevent');
    expect(events).toHaveLength(1);
    const vevent = events[0]!;
    const event = new ICAL.Event(vevent);
    expect(event.summary).toBe('English (Ms Feed)');
    expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe(KOLKATA);
    expect(event.startDate.toString()).toMatch(/T18:00:00$/);
    // Added today: the series starts on its first day from today, none in the weeks before.
    expect(event.startDate.toString().slice(0, 10)).toBe(addDays(today, 2));
    expect(event.duration.toSeconds()).toBe(90 * 60);
    expect(String(vevent.getFirstPropertyValue('rrule'))).toContain('FREQ=WEEKLY');
    expect(vevent.getFirstPropertyValue('url')).toBe('https://meet.example.com/english');
    expect(event.description).toContain('https://meet.example.com/english');
    const exdates = vevent.getAllProperties('exdate').flatMap((p) => p.getValues().map(String));
    expect(exdates).toContain(`${holidayDate}T18:00:00`);

    // Expanding the series: the holiday's class is left out, the week after it is there.
    const iterator = event.iterator();
    const dates: string[] = [];
    for (let next = iterator.next(); next && dates.length < 12; next = iterator.next()) {
      dates.push(next.toString().slice(0, 10));
    }
    expect(dates).not.toContain(holidayDate);
    expect(dates).toContain(addDays(holidayDate, 7));

    const reset = await t.api('POST', '/api/students/me/calendar/reset', undefined, token);
    expect(reset.status).toBe(200);
    expect(reset.body.url).not.toBe(feed.body.url);
    expect((await fetch(feed.body.url)).status).toBe(404);
    expect((await fetch(reset.body.url)).status).toBe(200);
  });

  it('keeps one link live however many tabs ask for it or replace it at once', async () => {
    const { token, objectId } = await studentOf(3, 'CBSE');
    // Two tabs showing the link for the first time, and resets from others, all at once.
    const answers = await Promise.all(
      ['GET', 'GET', 'POST', 'POST', 'POST', 'GET'].map((method) =>
        t.api(
          method,
          method === 'GET' ? '/api/students/me/calendar' : '/api/students/me/calendar/reset',
          undefined,
          token,
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const { rows } = await t.sql.query(`SELECT token FROM "CalendarFeed" WHERE "userId" = $1`, [objectId]);
    expect(rows).toHaveLength(1);
    // Of the links handed out, only the one stored answers; the one shown from now on is it.
    const live = (await t.api('GET', '/api/students/me/calendar', undefined, token)).body.url as string;
    expect(live).toContain(rows[0].token);
    for (const url of new Set(answers.map((a) => a.body.url as string))) {
      expect((await fetch(url)).status, url).toBe(url === live ? 200 : 404);
    }
  });

  it('drops a second link an earlier race left, keeping the first', async () => {
    const { token, objectId } = await studentOf(3, 'CBSE');
    const first = (await t.api('GET', '/api/students/me/calendar', undefined, token)).body.url as string;
    const extra = randomBytes(24).toString('base64url');
    await t.sql.query(
      `INSERT INTO "CalendarFeed" ("objectId", "userId", token, "createdAt", "updatedAt")
       VALUES ($1, $2, $3, now(), now())`,
      [randomBytes(5).toString('hex'), objectId, extra],
    );
    expect((await fetch(`${t.url}/api/calendar/${extra}.ics`)).status).toBe(200);
    expect((await t.api('GET', '/api/students/me/calendar', undefined, token)).body.url).toBe(first);
    expect((await fetch(`${t.url}/api/calendar/${extra}.ics`)).status).toBe(404);
    expect((await fetch(first)).status).toBe(200);
  });

  it('makes no link for an account deactivated while the request waited for its lock', async () => {
    const { token, objectId } = await studentOf(3, 'ICSE');
    const holder = await t.sql.connect();
    let resetting: Promise<{ status: number; body: { code?: number } }> | undefined;
    try {
      // The account's lock, held as an erasure or a change of status holds it.
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(7240003, hashtext($1))', [objectId]);
      resetting = t.api('POST', '/api/students/me/calendar/reset', undefined, token);
      await lockWaitsOn(t.sql, 'pg_advisory_xact_lock');
      // What that change did meanwhile.
      await holder.query(`UPDATE "_User" SET status = 'deactivated' WHERE "objectId" = $1`, [objectId]);
      await holder.query('COMMIT');
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    expect(await resetting).toMatchObject({ status: 401, body: { code: 209 } });
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "CalendarFeed" WHERE "userId" = $1`, [objectId]);
    expect(rows[0].n).toBe(0);
  });

  it('stops while the student is deactivated, comes back with the account, and goes for ever with an erasure', async () => {
    const { token, objectId } = await studentOf(3, 'State');
    const { url } = (await t.api('GET', '/api/students/me/calendar', undefined, token)).body as { url: string };
    expect((await fetch(url)).status).toBe(200);
    const setStatus = (status: string) => t.api('PUT', `/api/users/${objectId}/status`, { status }, admin);
    expect((await setStatus('deactivated')).status).toBe(200);
    expect((await fetch(url)).status).toBe(404);
    expect((await setStatus('active')).status).toBe(200);
    expect((await fetch(url)).status).toBe(200);

    expect((await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(200);
    expect((await fetch(url)).status).toBe(404);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "CalendarFeed" WHERE "userId" = $1`, [objectId]);
    expect(rows[0].n).toBe(0);
  });

  it('answers 404 to unknown and malformed tokens, and the feed calls need a student', async () => {
    expect((await fetch(`${t.url}/api/calendar/${'A'.repeat(32)}.ics`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/calendar/short.ics`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/calendar/${'A'.repeat(32)}`)).status).toBe(404);
    expect((await t.api('GET', '/api/students/me/calendar')).status).toBe(401);
    expect((await t.api('GET', '/api/students/me/calendar', undefined, admin)).status).toBe(403);
  });

  it('is documented in the OpenAPI document with the other schedule calls', async () => {
    const doc = (await t.api('GET', '/api/openapi.json')).body;
    expect(doc.paths['/api/calendar/{token}.ics'].get.tags).toEqual(['Schedule']);
    for (const route of [
      '/api/timetable/slots',
      '/api/timetable/slots/{objectId}',
      '/api/timetable/holidays',
      '/api/timetable/holidays/{objectId}',
      '/api/students/me/schedule',
      '/api/students/me/calendar',
      '/api/students/me/calendar/reset',
    ]) {
      expect(doc.paths[route], route).toBeDefined();
    }
  });
});

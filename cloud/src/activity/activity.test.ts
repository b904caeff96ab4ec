// The activity log on the real site: every admin change has its
// record; nobody, the master key included, changes or deletes one; only admins read it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, loginStudent, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { HISTORY_MAX_ENTRIES } from '@tc/domain/constants';
import { zonedParts } from '@tc/domain/zoned-time';
import { inviteAndAcceptAdmin } from '../../../testing/admins.ts';

let t: TestSite;
let admin: string;
let adminId: string;
beforeAll(async () => {
  t = await startTestSite();
  admin = await loginAdmin(t);
  const { rows } = await t.sql.query(`SELECT "objectId" FROM "_User" WHERE username = $1`, [t.admin.email]);
  adminId = rows[0].objectId;
});
afterAll(async () => {
  await t?.stop();
});

async function student() {
  const { student, result } = await register(t);
  return { student, objectId: result.body.objectId as string, id: result.body.id as number };
}

/** A draft assessment for every board of the 4th grade (the registration's), out of 20. */
async function newAssessment(subject: string, title: string) {
  const res = await t.api(
    'POST',
    '/api/assessments',
    { grade: 4, board: 'All', subject, title, date: '2026-11-02', maxMarks: 20 },
    admin,
  );
  expect(res.status).toBe(201);
  return res;
}

const parseHeaders = (token?: string) => ({
  'content-type': 'application/json',
  'x-parse-application-id': t.site.config.appId,
  ...(token ? { 'x-parse-session-token': token } : {}),
});

describe('the activity log', () => {
  it('records an edit with who, when and each field before and after', async () => {
    const { objectId, id } = await student();
    const started = Date.now();
    const res = await t.api('PUT', `/api/users/${objectId}`, { grade: 7, board: 'ICSE' }, admin);
    expect(res.status).toBe(200);
    const history = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(history.body).toHaveLength(1);
    const [entry] = history.body;
    expect(entry).toMatchObject({
      adminId,
      adminEmail: t.admin.email,
      kind: 'student.update',
      targetClass: '_User',
      targetId: objectId,
      enrollmentId: id,
      state: 'applied',
    });
    expect(entry.changes).toEqual([
      { field: 'grade', before: '4', after: '7' },
      { field: 'board', before: 'CBSE', after: 'ICSE' },
    ]);
    expect(new Date(entry.at).getTime()).toBeGreaterThanOrEqual(started - 1000);
  });

  it('records nothing for an edit that changes nothing', async () => {
    const { objectId, student: made } = await student();
    for (const body of [{}, { grade: made.grade, board: made.board }, { email: made.email.toUpperCase() }]) {
      const res = await t.api('PUT', `/api/users/${objectId}`, body, admin);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toMatchObject({ grade: made.grade, board: made.board });
    }
    const history = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(history.body).toEqual([]);
    // An id that is no student's: 404, as for every call on a student (an admin's id included).
    for (const nobody of ['noSuchStudent', adminId]) {
      const missing = await t.api('GET', `/api/users/${nobody}/history`, undefined, admin);
      expect(missing.status, nobody).toBe(404);
      expect(missing.body.error).toBe('Student not found');
    }
  });

  it('keeps a refused change out of the data, and its entry says failed', async () => {
    const a = await student();
    const b = await student();
    const taken = await t.api('PUT', `/api/users/${a.objectId}`, { email: b.student.email }, admin);
    expect(taken.status).toBe(409);
    const history = await t.api('GET', `/api/users/${a.objectId}/history`, undefined, admin);
    expect(history.body.map((e: { state: string }) => e.state)).toEqual(['failed']);
    // A change that changes nothing records no field.
    const { rows } = await t.sql.query(`SELECT username FROM "_User" WHERE "objectId" = $1`, [a.objectId]);
    expect(rows[0].username).toBe(a.student.email);
  });

  it('lists with filters (admin, kind, dates) and server-side paging, newest first', async () => {
    const { objectId } = await student();
    for (const grade of [5, 6, 7]) await t.api('PUT', `/api/users/${objectId}`, { grade }, admin);
    await t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' }, admin);

    const unfiltered = await t.api('GET', '/api/activity?skip=0&limit=25', undefined, admin);
    // The whole log's count, of which this page holds the first 25 (other tests of the file write many).
    expect(unfiltered.body).toHaveLength(Math.min(Number(unfiltered.headers.get('x-total-count')), 25));
    const page = await t.api('GET', '/api/activity?kind=student.update&limit=2', undefined, admin);
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(2);
    const total = Number(page.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(3);
    const second = await t.api('GET', '/api/activity?kind=student.update&limit=2&skip=2', undefined, admin);
    const seen = [...page.body, ...second.body].map((e: { objectId: string }) => e.objectId);
    expect(new Set(seen).size).toBe(seen.length);
    expect(page.body[0].changes).toEqual([{ field: 'grade', before: '6', after: '7' }]);

    const deactivations = await t.api('GET', '/api/activity?kind=student.deactivate', undefined, admin);
    expect(deactivations.body.every((e: { kind: string }) => e.kind === 'student.deactivate')).toBe(true);
    expect(deactivations.body.some((e: { targetId: string }) => e.targetId === objectId)).toBe(true);

    const byAdmin = await t.api('GET', `/api/activity?admin=${adminId}`, undefined, admin);
    expect(Number(byAdmin.headers.get('x-total-count'))).toBeGreaterThanOrEqual(4);
    const nobody = await t.api('GET', '/api/activity?admin=nobody', undefined, admin);
    expect(nobody.body).toEqual([]);

    // The centre's today: the days of the filter are the centre's (activity-days.test.ts).
    const today = zonedParts(new Date(), t.site.config.centreTimeZone).date;
    const todays = await t.api('GET', `/api/activity?from=${today}&to=${today}`, undefined, admin);
    expect(Number(todays.headers.get('x-total-count'))).toBeGreaterThanOrEqual(4);
    const past = await t.api('GET', '/api/activity?to=2000-01-01', undefined, admin);
    expect(past.body).toEqual([]);
    // Not a date, not a real one, or beyond what the database compares: 400 naming the field, never 500.
    for (const [query, field] of [
      ['from=yesterday', 'from'],
      ['from=2026-02-30', 'from'],
      ['from=0000-01-01', 'from'],
      ['to=9999-12-31', 'to'],
    ]) {
      const bad = await t.api('GET', `/api/activity?${query}`, undefined, admin);
      expect(bad, query).toMatchObject({ status: 400, body: { field, error: AdminToolsMessage.dateInvalid } });
    }
    expect((await t.api('GET', '/api/activity?kind=student.delete', undefined, admin)).status).toBe(400);
  });

  it('names what an entry of marks, an assessment, a class or a holiday is about, and what it was once deleted', async () => {
    // A student of the 4th grade (the registration's), in the assessment's batch.
    const { id } = await student();
    const title = `Named ${Date.now()}`;
    const assessment = await newAssessment('Science', title);
    const marksOf = `/api/assessments/${assessment.body.objectId}/marks`;
    expect((await t.api('PUT', marksOf, { rows: [{ id, value: '12' }] }, admin)).status).toBe(200);
    const slot = await t.api(
      'POST',
      '/api/timetable/slots',
      { grade: 7, board: 'ICSE', subject: 'English', weekday: 3, start: '16:30', duration: 45, teacher: 'Mr Das' },
      admin,
    );
    expect(slot.status).toBe(201);
    const holiday = await t.api('POST', '/api/timetable/holidays', { title: 'Named day', from: '2031-03-04' }, admin);
    expect(holiday.status).toBe(201);

    const entries = (await t.api('GET', '/api/activity?limit=10', undefined, admin)).body as Record<string, unknown>[];
    const targetOf = (kind: string, targetId: unknown) =>
      entries.find((e) => e.kind === kind && e.targetId === targetId)?.target;
    expect(targetOf('assessment.create', assessment.body.objectId)).toBe(`Science: ${title} (4th all boards)`);
    expect(targetOf('marks.save', assessment.body.objectId)).toBe(`Science: ${title} (4th all boards)`);
    expect(targetOf('timetable.create', slot.body.objectId)).toBe('English, 7th ICSE, Wednesday 16:30');
    expect(targetOf('holiday.create', holiday.body.objectId)).toBe('Named day (04/03/2031-04/03/2031)');
    // A student's entries name the student by enrollment number alone, as before.
    expect(entries.find((e) => e.kind === 'marks.save')).not.toHaveProperty('enrollmentId');

    // Deleted since: named as its deletion's entry says it was, on its entries and the deletion's own.
    const deletions = [
      `/api/timetable/holidays/${holiday.body.objectId}`,
      `/api/timetable/slots/${slot.body.objectId}`,
      `/api/assessments/${assessment.body.objectId}`,
    ];
    for (const path of deletions) expect((await t.api('DELETE', path, undefined, admin)).status).toBe(200);
    const after = (await t.api('GET', '/api/activity?limit=20', undefined, admin)).body as Record<string, unknown>[];
    const namesOf = (targetId: unknown) => [
      ...new Set(after.filter((e) => e.targetId === targetId).map((e) => [e.kind, e.target].join(': '))),
    ];
    expect(namesOf(holiday.body.objectId)).toEqual([
      'holiday.delete: Named day (04/03/2031-04/03/2031)',
      'holiday.create: Named day (04/03/2031-04/03/2031)',
    ]);
    expect(namesOf(slot.body.objectId)).toEqual([
      'timetable.delete: English, 7th ICSE, Wednesday 16:30',
      'timetable.create: English, 7th ICSE, Wednesday 16:30',
    ]);
    expect(namesOf(assessment.body.objectId)).toEqual([
      `assessment.delete: Science: ${title} (4th all boards)`,
      `marks.save: Science: ${title} (4th all boards)`,
      `assessment.create: Science: ${title} (4th all boards)`,
    ]);
  });

  it("keeps a deleted draft's marks in the students' History: their mark's removal, named as the draft was", async () => {
    const [one, other] = [await student(), await student()];
    const title = `Dropped ${Date.now()}`;
    const draft = await newAssessment('Hindi', title);
    const marksOf = `/api/assessments/${draft.body.objectId}/marks`;
    const rows = [
      { id: one.id, value: '7.5' },
      { id: other.id, value: 'absent' },
    ];
    expect((await t.api('PUT', marksOf, { rows }, admin)).status).toBe(200);
    expect((await t.api('DELETE', `/api/assessments/${draft.body.objectId}`, undefined, admin)).status).toBe(200);

    const historyOf = async (objectId: string) =>
      ((await t.api('GET', `/api/users/${objectId}/history`, undefined, admin)).body as Record<string, unknown>[]).map(
        (e) => [e.kind, e.target, e.changes],
      );
    const named = `Hindi: ${title} (4th all boards)`;
    expect(await historyOf(one.objectId)).toEqual([
      ['assessment.delete', named, [{ field: `#${one.id}`, before: '7.5', after: '' }]],
      ['marks.save', named, [{ field: `#${one.id}`, before: '', after: '7.5' }]],
    ]);
    expect(await historyOf(other.objectId)).toEqual([
      ['assessment.delete', named, [{ field: `#${other.id}`, before: 'absent', after: '' }]],
      ['marks.save', named, [{ field: `#${other.id}`, before: '', after: 'absent' }]],
    ]);
    // The Activity page's entry lists the draft as it was, and each student's removed mark.
    const entries = (await t.api('GET', '/api/activity?kind=assessment.delete&limit=5', undefined, admin))
      .body as Record<string, unknown>[];
    const entry = entries.find((e) => e.targetId === draft.body.objectId);
    expect(entry).toMatchObject({ state: 'applied', target: named });
    expect(entry!.changes).toEqual(
      expect.arrayContaining([
        { field: 'title', before: title, after: '' },
        { field: `#${one.id}`, before: '7.5', after: '' },
        { field: `#${other.id}`, before: 'absent', after: '' },
      ]),
    );
  });

  it("shows a student's marks in their History: their line of each save and import, with its assessment", async () => {
    // Two students of the 4th grade (the registration's) in one assessment's batch.
    const [one, other] = [await student(), await student()];
    const title = `History ${Date.now()}`;
    const created = await newAssessment('English', title);
    const marksOf = `/api/assessments/${created.body.objectId}/marks`;
    const rows = [
      { id: one.id, value: '12' },
      { id: other.id, value: '15' },
    ];
    expect((await t.api('PUT', marksOf, { rows }, admin)).status).toBe(200);
    const csv = `enrollment id,marks\n${one.id},14.5\n${other.id},15\n`;
    expect((await t.api('POST', `${marksOf}/csv`, { csv }, admin)).status).toBe(200);
    expect((await t.api('PUT', `/api/users/${one.objectId}`, { grade: 5 }, admin)).status).toBe(200);

    const history = (await t.api('GET', `/api/users/${one.objectId}/history`, undefined, admin)).body as {
      kind: string;
      target?: string;
      changes: unknown[];
    }[];
    const named = `English: ${title} (4th all boards)`;
    expect(history.map((e) => [e.kind, e.target, e.changes])).toEqual([
      ['student.update', undefined, [{ field: 'grade', before: '4', after: '5' }]],
      ['marks.import', named, [{ field: `#${one.id}`, before: '12', after: '14.5' }]],
      ['marks.save', named, [{ field: `#${one.id}`, before: '', after: '12' }]],
    ]);
    // The other student's: their own line; the import left their mark as it was, so no entry of it.
    const theirs = (await t.api('GET', `/api/users/${other.objectId}/history`, undefined, admin)).body as {
      kind: string;
      changes: unknown[];
    }[];
    expect(theirs.map((e) => [e.kind, e.changes])).toEqual([
      ['marks.save', [{ field: `#${other.id}`, before: '', after: '15' }]],
    ]);
    // A student with no marks: nobody else's.
    const { objectId: none } = await student();
    expect((await t.api('GET', `/api/users/${none}/history`, undefined, admin)).body).toEqual([]);
  });

  it("lists a student's latest HISTORY_MAX_ENTRIES changes in their History, newest first", async () => {
    const { objectId } = await student();
    // Years of a real centre's changes, written here as the log stores them.
    await t.sql.query(
      `INSERT INTO "ActivityEntry" ("objectId", "createdAt", "updatedAt", "adminId", "adminEmail", kind,
         "targetClass", "targetId", changes, state)
       SELECT 'h' || $1 || n, at, at, $2, $3, 'student.update', '_User', $1,
              jsonb_build_array(jsonb_build_object('field', 'grade', 'before', '4', 'after', '5')), 'applied'
       FROM generate_series(0, $4) n, LATERAL (SELECT now() - make_interval(mins => n + 1) AS at) t`,
      [objectId, adminId, t.admin.email, HISTORY_MAX_ENTRIES],
    );
    const history = (await t.api('GET', `/api/users/${objectId}/history`, undefined, admin)).body as {
      objectId: string;
    }[];
    expect(history).toHaveLength(HISTORY_MAX_ENTRIES);
    expect(history[0]!.objectId).toBe(`h${objectId}0`);
    // The oldest of the HISTORY_MAX_ENTRIES + 1 is the one left out.
    expect(history.at(-1)!.objectId).toBe(`h${objectId}${HISTORY_MAX_ENTRIES - 1}`);
  });

  it("offers a removed administrator on the Admin filter, by their account's e-mail, after the current ones", async () => {
    const second = await inviteAndAcceptAdmin(t, admin);
    const { objectId } = await student();
    expect((await t.api('PUT', `/api/users/${objectId}`, { grade: 6 }, second.token)).status).toBe(200);
    const choices = async () =>
      (await t.api('GET', '/api/activity/admins', undefined, admin)).body as {
        objectId: string;
        email: string;
        current: boolean;
      }[];
    expect(await choices()).toContainEqual({ objectId: second.objectId, email: second.email, current: true });

    expect((await t.api('DELETE', `/api/admins/${second.objectId}`, undefined, admin)).status).toBe(200);
    const after = await choices();
    expect(after).toContainEqual({ objectId: second.objectId, email: second.email, current: false });
    expect(after).toContainEqual({ objectId: adminId, email: t.admin.email, current: true });
    // Each once; the current administrators first.
    expect(new Set(after.map((a) => a.objectId)).size).toBe(after.length);
    const firstFormer = after.findIndex((a) => !a.current);
    expect(after.slice(firstFormer).every((a) => !a.current)).toBe(true);
    // Picked, the filter finds the entries the removed administrator left.
    const theirs = await t.api('GET', `/api/activity?admin=${second.objectId}`, undefined, admin);
    expect(theirs.body.map((e: { kind: string }) => e.kind)).toEqual(['student.update', 'admin.accept']);
    expect(theirs.body[0]).toMatchObject({ targetId: objectId, adminEmail: second.email });

    // Named by their account's e-mail as it is now; by their latest entry's once the account is gone.
    const renamed = `renamed-${second.email}`;
    await t.sql.query(`UPDATE "_User" SET email = $1, username = $1 WHERE "objectId" = $2`, [renamed, second.objectId]);
    expect(await choices()).toContainEqual({ objectId: second.objectId, email: renamed, current: false });
    await t.sql.query(`DELETE FROM "_User" WHERE "objectId" = $1`, [second.objectId]);
    expect(await choices()).toContainEqual({ objectId: second.objectId, email: second.email, current: false });
  });

  it('is closed to students and to the anonymous, by every path', async () => {
    const { student: s, objectId } = await student();
    await t.api('PUT', `/api/users/${objectId}`, { grade: 8 }, admin);
    const token = await loginStudent(t, s.email, s.password);
    expect((await t.api('GET', '/api/activity', undefined, token)).status).toBe(403);
    expect((await t.api('GET', `/api/users/${objectId}/history`, undefined, token)).status).toBe(403);
    expect((await t.api('GET', '/api/activity')).status).toBe(401);
    expect((await t.api('GET', '/api/activity/admins', undefined, token)).status).toBe(403);

    const base = `${t.url}/parse`;
    const read = await fetch(`${base}/classes/ActivityEntry`, { headers: parseHeaders(token) });
    expect(read.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(await read.json())).not.toContain('student.update');
    const write = await fetch(`${base}/classes/ActivityEntry`, {
      method: 'POST',
      headers: parseHeaders(token),
      body: JSON.stringify({ kind: 'student.update', state: 'applied' }),
    });
    expect(write.status).toBeGreaterThanOrEqual(400);
    const batch = await fetch(`${base}/batch`, {
      method: 'POST',
      headers: parseHeaders(token),
      body: JSON.stringify({
        requests: [
          { method: 'GET', path: '/parse/classes/ActivityEntry' },
          { method: 'POST', path: '/parse/classes/ActivityEntry', body: { kind: 'x' } },
        ],
      }),
    });
    const batchText = await batch.text();
    expect(batchText).not.toContain('student.update');
    expect(batchText).not.toMatch(/"success"/);
    const fn = await fetch(`${base}/functions/listActivity`, {
      method: 'POST',
      headers: parseHeaders(token),
      body: '{}',
    });
    expect(((await fn.json()) as { code: number }).code).toBe(119);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "ActivityEntry" WHERE kind = 'x'`);
    expect(rows[0].n).toBe(0);
  });

  it('cannot be changed or deleted by the master key through Parse, nor by SQL', async () => {
    const { objectId } = await student();
    await t.api('PUT', `/api/users/${objectId}`, { grade: 9 }, admin);
    const { rows } = await t.sql.query(`SELECT "objectId" FROM "ActivityEntry" WHERE "targetId" = $1`, [objectId]);
    const entryId = rows[0].objectId as string;
    const master = { ...parseHeaders(), 'x-parse-master-key': t.site.config.masterKey };
    const url = `${t.url}/parse/classes/ActivityEntry/${entryId}`;

    const edit = await fetch(url, { method: 'PUT', headers: master, body: JSON.stringify({ kind: 'student.erase' }) });
    expect(edit.status).toBeGreaterThanOrEqual(400);
    const forge = await fetch(url, {
      method: 'PUT',
      headers: master,
      body: JSON.stringify({ changes: [{ field: 'grade', before: '1', after: '2' }] }),
    });
    expect(forge.status).toBeGreaterThanOrEqual(400);
    const reopen = await fetch(url, { method: 'PUT', headers: master, body: JSON.stringify({ state: 'pending' }) });
    expect(reopen.status).toBeGreaterThanOrEqual(400);
    // Only a creation's entry, as it settles, takes its new object's id.
    const retarget = await fetch(url, { method: 'PUT', headers: master, body: JSON.stringify({ targetId: 'other' }) });
    expect(retarget.status).toBeGreaterThanOrEqual(400);
    // Redaction is for erased students only.
    const redact = await fetch(url, {
      method: 'PUT',
      headers: master,
      body: JSON.stringify({ changes: [{ field: 'grade', before: '[erased]', after: '[erased]' }] }),
    });
    expect(redact.status).toBeGreaterThanOrEqual(400);
    const del = await fetch(url, { method: 'DELETE', headers: master });
    expect(del.status).toBeGreaterThanOrEqual(400);
    const purge = await fetch(`${t.url}/parse/purge/ActivityEntry`, { method: 'DELETE', headers: master });
    expect(purge.status).toBe(403);
    const drop = await fetch(`${t.url}/parse/schemas/ActivityEntry`, { method: 'DELETE', headers: master });
    expect(drop.status).toBe(403);
    const forged = await fetch(`${t.url}/parse/classes/ActivityEntry`, {
      method: 'POST',
      headers: master,
      body: JSON.stringify({
        adminId: 'x',
        adminEmail: 'x@example.com',
        kind: 'student.update',
        targetClass: '_User',
        targetId: objectId,
        changes: [],
        state: 'applied',
      }),
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);

    await expect(t.sql.query(`DELETE FROM "ActivityEntry" WHERE "objectId" = $1`, [entryId])).rejects.toThrow(
      /cannot be deleted/,
    );
    await expect(t.sql.query(`TRUNCATE "ActivityEntry"`)).rejects.toThrow(/cannot be deleted/);
    await expect(
      t.sql.query(`UPDATE "ActivityEntry" SET "adminEmail" = 'someone@example.com' WHERE "objectId" = $1`, [entryId]),
    ).rejects.toThrow(/cannot be changed/);
    await expect(
      t.sql.query(`UPDATE "ActivityEntry" SET "targetId" = 'other' WHERE "objectId" = $1`, [entryId]),
    ).rejects.toThrow(/cannot be changed/);

    const after = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(after.body).toHaveLength(1);
    expect(after.body[0]).toMatchObject({ kind: 'student.update', state: 'applied' });
    expect(after.body[0].changes).toEqual([{ field: 'grade', before: '4', after: '9' }]);
  });

  it("lets only a creation's pending entry take its new object's id, as it settles applied", async () => {
    const master = { ...parseHeaders(), 'x-parse-master-key': t.site.config.masterKey };
    const classes = `${t.url}/parse/classes/ActivityEntry`;
    const pending = async (targetId: string) => {
      const res = await fetch(classes, {
        method: 'POST',
        headers: master,
        body: JSON.stringify({
          adminId,
          adminEmail: t.admin.email,
          kind: 'assessment.create',
          targetClass: 'Assessment',
          targetId,
          changes: [],
          state: 'pending',
        }),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { objectId: string }).objectId;
    };
    const put = (id: string, body: object) =>
      fetch(`${classes}/${id}`, { method: 'PUT', headers: master, body: JSON.stringify(body) });
    const targetOf = async (id: string) =>
      (await t.sql.query(`SELECT "targetId", state FROM "ActivityEntry" WHERE "objectId" = $1`, [id])).rows[0];

    // Through Parse (the master key): not as it fails, not a target other than `new`, not afterwards.
    const failing = await pending('new');
    expect((await put(failing, { state: 'failed', targetId: 'abc123' })).status).toBeGreaterThanOrEqual(400);
    const named = await pending('old123');
    expect((await put(named, { state: 'applied', targetId: 'abc123' })).status).toBeGreaterThanOrEqual(400);
    const created = await pending('new');
    expect((await put(created, { state: 'applied', targetId: 'abc123' })).status).toBe(200);
    expect(await targetOf(created)).toEqual({ targetId: 'abc123', state: 'applied' });
    expect((await put(created, { targetId: 'def456' })).status).toBeGreaterThanOrEqual(400);

    // In the database: the same rule.
    const update = (id: string, state: string, targetId: string) =>
      t.sql.query(`UPDATE "ActivityEntry" SET state = $2, "targetId" = $3 WHERE "objectId" = $1`, [
        id,
        state,
        targetId,
      ]);
    const inSql = await pending('new');
    await expect(update(inSql, 'failed', 'abc123')).rejects.toThrow(/cannot be changed/);
    await expect(update(named, 'applied', 'abc123')).rejects.toThrow(/cannot be changed/);
    await update(inSql, 'applied', 'abc123');
    expect(await targetOf(inSql)).toEqual({ targetId: 'abc123', state: 'applied' });
    await expect(update(inSql, 'applied', 'def456')).rejects.toThrow(/cannot be changed/);
  });
});

// The administrator's calls through /api: login and profile, the fence against
// students, the student list (paging, sorting, search, filters) and editing a student.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, loginStudent, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { newStudent } from '../../../testing/students.ts';
import { ERASED_DOMAIN } from '@tc/domain/admin-tools';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

describe('admin', () => {
  it('logs in, shows its profile, logs out', async () => {
    const bad = await t.api('POST', '/api/admin/login', { email: t.admin.email, password: 'nope-nope-nope' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ success: false, error: expect.any(String), code: expect.any(Number) });

    const res = await t.api('POST', '/api/admin/login', t.admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, token: expect.any(String) });
    const me = await t.api('GET', '/api/admin/me', undefined, res.body.token);
    expect(me.body).toEqual({ name: 'Test Admin', email: t.admin.email });
    expect((await t.api('POST', '/api/admin/logout', undefined, res.body.token)).body).toEqual({ success: true });
    expect((await t.api('GET', '/api/admin/me', undefined, res.body.token)).status).toBe(401);
    // Spaces around a password are not part of it, as everywhere else (docs/decisions/0007).
    const spaced = await t.api('POST', '/api/admin/login', { email: t.admin.email, password: ` ${t.admin.password} ` });
    expect(spaced.status).toBe(200);
  });

  it('refuses a student login at the admin door, and a student token on admin calls (403)', async () => {
    const { student, result } = await register(t);
    expect((await t.api('POST', '/api/admin/login', { email: student.email, password: student.password })).status).toBe(
      401,
    );
    const token = await loginStudent(t, student.email, student.password);
    expect((await t.api('GET', '/api/admin/me', undefined, token)).status).toBe(403);
    expect((await t.api('GET', '/api/users', undefined, token)).status).toBe(403);
    expect((await t.api('PUT', `/api/users/${result.body.objectId}`, { grade: 9 }, token)).status).toBe(403);
    expect((await t.api('GET', '/api/users')).status).toBe(401);
  });

  it('lists students with paging, sorting, search and filters, and the total in X-Total-Count', async () => {
    const token = await loginAdmin(t);
    const tag = `zq${Date.now().toString(36)}`;
    const made = [];
    for (const [i, grade] of [7, 2, 5].entries()) {
      made.push((await register(t, newStudent({ fullname: `${tag} Kid ${i}`, grade, board: 'ICSE' }))).student);
    }
    const search = await t.api('GET', `/api/users?q=${tag.toUpperCase()}&sort=grade`, undefined, token);
    expect(search.status).toBe(200);
    expect(search.headers.get('x-total-count')).toBe('3');
    expect(search.body.map((s: { grade: number }) => s.grade)).toEqual([2, 5, 7]);
    expect(Object.keys(search.body[0]).sort()).toEqual(
      // status: active or deactivated.
      [
        'board',
        'createdAt',
        'dob',
        'email',
        'fullname',
        'gender',
        'grade',
        'id',
        'mobile',
        'objectId',
        'status',
      ].sort(),
    );
    const second = made[1]!;
    expect(search.body[0]).toMatchObject({
      fullname: second.fullname,
      email: second.email,
      mobile: second.mobile,
      dob: second.dob,
      gender: second.gender,
      board: 'ICSE',
      grade: 2,
    });
    expect(typeof search.body[0].id).toBe('number');
    expect(new Date(search.body[0].createdAt).toISOString()).toBe(search.body[0].createdAt);

    const page = await t.api('GET', `/api/users?q=${tag}&sort=-grade&skip=1&limit=1`, undefined, token);
    expect(page.body).toHaveLength(1);
    expect(page.body[0].grade).toBe(5);
    expect(page.headers.get('x-total-count')).toBe('3');

    // Pages past the middle are read from the other end: same rows, same order.
    const last = await t.api('GET', `/api/users?q=${tag}&sort=grade&skip=2&limit=1`, undefined, token);
    expect(last.body.map((s: { grade: number }) => s.grade)).toEqual([7]);
    const lastTwo = await t.api('GET', `/api/users?q=${tag}&sort=-grade&skip=2&limit=5`, undefined, token);
    expect(lastTwo.body.map((s: { grade: number }) => s.grade)).toEqual([2]);
    // Any field of the record sorts, its objectId too (in the database's order of text).
    const { rows } = await t.sql.query<{ objectId: string }>(
      `SELECT "objectId" FROM "_User" WHERE "objectId" = ANY($1) ORDER BY "objectId"`,
      [search.body.map((s: { objectId: string }) => s.objectId)],
    );
    const ids = rows.map((row) => row.objectId);
    for (const [sort, order] of [
      ['objectId', ids],
      ['-objectId', [...ids].reverse()],
    ] as const) {
      const sorted = await t.api('GET', `/api/users?q=${tag}&sort=${sort}`, undefined, token);
      expect(sorted.status).toBe(200);
      expect(sorted.body.map((s: { objectId: string }) => s.objectId)).toEqual(order);
    }
    const tail = await t.api('GET', `/api/users?q=${tag}&skip=1&limit=2`, undefined, token);
    expect(tail.body.map((s: { fullname: string }) => s.fullname)).toEqual([`${tag} Kid 1`, `${tag} Kid 2`]);
    expect((await t.api('GET', `/api/users?q=${tag}&skip=3`, undefined, token)).body).toEqual([]);

    const byMobile = await t.api('GET', `/api/users?q=${made[1]!.mobile.slice(2, 8)}`, undefined, token);
    expect(byMobile.body.map((s: { email: string }) => s.email)).toContain(made[1]!.email);
    // A mobile written as people write it: with the country code, spaced, or with a leading 0.
    const mobile = made[1]!.mobile;
    for (const written of [`+91 ${mobile.slice(0, 5)}`, `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`, `0${mobile}`]) {
      const found = await t.api('GET', `/api/users?q=${encodeURIComponent(written)}`, undefined, token);
      expect(
        found.body.map((s: { email: string }) => s.email),
        written,
      ).toContain(made[1]!.email);
    }
    const byEmail = await t.api('GET', `/api/users?q=${made[2]!.email.slice(0, 14)}`, undefined, token);
    expect(byEmail.body.map((s: { email: string }) => s.email)).toContain(made[2]!.email);

    const filtered = await t.api('GET', `/api/users?q=${tag}&grade=7&board=icse`, undefined, token);
    expect(filtered.body).toHaveLength(1);

    const regexLike = await t.api('GET', `/api/users?q=${encodeURIComponent('.*')}`, undefined, token);
    expect(regexLike.status).toBe(200);
    expect(regexLike.body).toHaveLength(0);

    for (const bad of ['limit=0', 'limit=501', 'skip=-1', 'sort=password', 'limit=abc', 'sort=id&sort=-id']) {
      expect((await t.api('GET', `/api/users?${bad}`, undefined, token)).status).toBe(400);
    }
    // A filter given twice is said as such (it read "Grade must be between 1 to 9" for ?grade=3&grade=4).
    for (const [path, name] of [
      ['/api/users?grade=3&grade=4', 'grade'],
      ['/api/timetable/slots?grade=4&board=CBSE&board=ICSE', 'board'],
      ['/api/students/me/schedule?week=2026-11-23&week=2026-11-30', 'week'],
    ] as const) {
      const twice = await t.api('GET', path, undefined, token);
      expect(twice.status, path).toBe(400);
      expect(twice.body, path).toMatchObject({ error: `${name} is given more than once: give it once`, field: name });
      // Without a live session the caller is told that first (it was told about the filter).
      expect((await t.api('GET', path, undefined, 'r:no-such-session')).status, path).toBe(401);
    }
    expect((await t.api('POST', '/api/timetable/holidays', [1, 2], 'r:no-such-session')).status).toBe(401);
    const all = await t.api('GET', '/api/users', undefined, token);
    expect(all.body.length).toBeLessThanOrEqual(50);
    expect(all.body.some((s: { email: string }) => s.email === t.admin.email)).toBe(false);
  });

  it('edits a student with the registration rules, keeps fullname, id and status read-only (sent back as stored, no change)', async () => {
    const token = await loginAdmin(t);
    const { result } = await register(t);
    const other = (await register(t)).student;
    const url = `/api/users/${result.body.objectId}`;

    const ok = await t.api(
      'PUT',
      url,
      { grade: '8th', board: 'State', gender: 'Daughter', mobile: `+91 ${newStudent().mobile}` },
      token,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({
      objectId: result.body.objectId,
      id: result.body.id,
      grade: 8,
      board: 'State',
      gender: 'Daughter',
    });
    expect(ok.body.mobile).toMatch(/^\d{10}$/);

    expect((await t.api('PUT', url, { grade: 12 }, token)).body).toEqual({
      error: 'Grade must be between 1 to 9',
      code: 142,
      field: 'grade',
    });
    expect((await t.api('PUT', url, { email: 'bad' }, token)).body).toEqual({
      error: 'Please enter a valid email address',
      code: 142,
      field: 'email',
    });
    // Nor the address an erasure gives an account (no mail reaches it).
    const erasedLike = { email: `erased-${String(result.body.objectId).toLowerCase()}@${ERASED_DOMAIN}` };
    expect((await t.api('PUT', url, erasedLike, token)).body).toMatchObject({ code: 142, field: 'email' });
    const renamed = await t.api('PUT', url, { fullname: 'New Name' }, token);
    expect(renamed).toMatchObject({ status: 400, body: { error: 'fullname cannot be changed' } });
    expect((await t.api('PUT', url, { id: 99 }, token)).status).toBe(400);
    expect((await t.api('PUT', url, { id: String(result.body.id) }, token)).status).toBe(400);
    // The row sent back whole, as listed, with one change: the read-only fields as stored are no change.
    const [row] = (await t.api('GET', `/api/users?q=${ok.body.email}`, undefined, token)).body;
    const echoed = row; // objectId and createdAt too: ignored
    const whole = await t.api('PUT', url, { ...echoed, grade: 7 }, token);
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body).toMatchObject({ fullname: row.fullname, id: row.id, grade: 7 });
    expect((await t.api('PUT', url, { ...echoed, fullname: `${row.fullname} Jr` }, token)).status).toBe(400);
    // The status changes by its own call, never here.
    const deactivating = await t.api('PUT', url, { ...echoed, status: 'deactivated' }, token);
    expect(deactivating).toMatchObject({ status: 400, body: { error: 'status cannot be changed' } });
    expect((await t.api('PUT', '/api/users/doesNotExist', { fullname: 'Anyone' }, token)).status).toBe(404);
    const takenEmail = await t.api('PUT', url, { email: other.email }, token);
    expect(takenEmail.status).toBe(409);
    expect(takenEmail.body.code).toBe(3033);
    const takenMobile = await t.api('PUT', url, { mobile: other.mobile }, token);
    expect(takenMobile.body.code).toBe(3034);
    expect((await t.api('PUT', '/api/users/doesNotExist', { grade: 3 }, token)).status).toBe(404);

    const list = await t.api('GET', `/api/users?q=${ok.body.email}`, undefined, token);
    expect(list.body[0]).toMatchObject({ grade: 7, board: 'State', status: 'active' });
  });

  it("refuses an edit over another admin's change made since the first opened the student, when told what it was shown", async () => {
    const token = await loginAdmin(t);
    const { result, student } = await register(t, newStudent({ grade: 3, board: 'CBSE' }));
    const url = `/api/users/${result.body.objectId}`;
    // Another admin moves the student to grade 4 while the first has them open at grade 3.
    expect((await t.api('PUT', url, { grade: 4, before: { grade: 3 } }, token)).status).toBe(200);
    const stale = await t.api('PUT', url, { grade: 5, board: 'ICSE', before: { grade: 3, board: 'CBSE' } }, token);
    expect(stale.status).toBe(400);
    expect(stale.body.error).toBe(AdminToolsMessage.changedMeanwhile);
    const [stored] = (await t.api('GET', `/api/users?q=${encodeURIComponent(student.email)}`, undefined, token)).body;
    expect(stored).toMatchObject({ grade: 4, board: 'CBSE' });
    // A field the other admin did not change goes through; so does an edit that says nothing of before (§5).
    expect((await t.api('PUT', url, { board: 'ICSE', before: { board: 'CBSE' } }, token)).body).toMatchObject({
      grade: 4,
      board: 'ICSE',
    });
    expect((await t.api('PUT', url, { grade: 6 }, token)).body).toMatchObject({ grade: 6 });
    for (const before of ['grade', [3], { fullname: 'X' }]) {
      const bad = await t.api('PUT', url, { grade: 7, before }, token);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(AdminToolsMessage.beforeInvalid);
    }
  });

  it('rejects concurrent edits that would give two students one mobile: the database keeps it unique', async () => {
    const token = await loginAdmin(t);
    const a = (await register(t)).result.body.objectId;
    const b = (await register(t)).result.body.objectId;
    const mobile = newStudent().mobile;
    const answers = await Promise.all([a, b].map((id) => t.api('PUT', `/api/users/${id}`, { mobile }, token)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body.code).toBe(3034);
  });
});

// Deactivation, reactivation and erasure on the real site.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { loginAdmin, loginStudent, mailTo, register, startTestSite, type TestSite } from '../../../testing/site.ts';

let t: TestSite;
let admin: string;
beforeAll(async () => {
  t = await startTestSite();
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t?.stop();
});

async function registered() {
  const { student, result } = await register(t);
  expect(result.status).toBe(201);
  return { student, objectId: result.body.objectId as string, id: result.body.id as number };
}

describe('deactivation', () => {
  it('revokes every session at once, refuses login with the message, hides the student; reactivation restores', async () => {
    const { student, objectId } = await registered();
    const tokens = [
      await loginStudent(t, student.email, student.password),
      await loginStudent(t, student.mobile, student.password),
    ];
    for (const token of tokens) expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(200);

    const off = await t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' }, admin);
    expect(off.status).toBe(200);
    expect(off.body.status).toBe('deactivated');
    for (const token of tokens) expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "_Session" WHERE "user" = $1`, [
      `_User$${objectId}`,
    ]);
    expect(rows[0].n).toBe(0);

    const refused = await t.api('POST', '/api/student/login', {
      identifier: student.email,
      password: student.password,
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe(AdminToolsMessage.accountDeactivated);
    expect(refused.body.code).toBe(3053);
    // A wrong password still gets the ordinary answer: the status is told only to the owner.
    const wrong = await t.api('POST', '/api/student/login', { identifier: student.email, password: 'wrong-pass-1' });
    expect(wrong.body.error).not.toBe(AdminToolsMessage.accountDeactivated);

    const byDefault = await t.api('GET', `/api/users?q=${encodeURIComponent(student.email)}`, undefined, admin);
    expect(byDefault.body).toEqual([]);
    const shown = await t.api(
      'GET',
      `/api/users?status=deactivated&q=${encodeURIComponent(student.email)}`,
      undefined,
      admin,
    );
    expect(shown.body.map((r: { objectId: string }) => r.objectId)).toEqual([objectId]);
    const all = await t.api('GET', `/api/users?status=all&q=${encodeURIComponent(student.email)}`, undefined, admin);
    expect(all.body).toHaveLength(1);
    expect((await t.api('GET', '/api/users?status=gone', undefined, admin)).status).toBe(400);

    const on = await t.api('PUT', `/api/users/${objectId}/status`, { status: 'active' }, admin);
    expect(on.body.status).toBe('active');
    expect(await loginStudent(t, student.email, student.password)).toBeTruthy();
    const listed = await t.api('GET', `/api/users?q=${encodeURIComponent(student.email)}`, undefined, admin);
    expect(listed.body).toHaveLength(1);

    const history = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(history.body.map((e: { kind: string }) => e.kind)).toEqual(['student.reactivate', 'student.deactivate']);
    expect(history.body[1].changes).toEqual([{ field: 'status', before: 'active', after: 'deactivated' }]);
    expect(history.body.every((e: { state: string }) => e.state === 'applied')).toBe(true);
  });

  it('is for admins only and refuses a bad status', async () => {
    const { student, objectId } = await registered();
    const token = await loginStudent(t, student.email, student.password);
    expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' }, token)).status).toBe(403);
    expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' })).status).toBe(401);
    const bad = await t.api('PUT', `/api/users/${objectId}/status`, { status: 'gone' }, admin);
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('status');
    expect((await t.api('PUT', `/api/users/nope/status`, { status: 'deactivated' }, admin)).status).toBe(404);
  });
});

/** Every row of every table of the database, as text, that contains the value. */
async function rowsContaining(value: string): Promise<string[]> {
  const { rows: tables } = await t.sql.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await t.sql.query(
      `SELECT t::text AS row FROM "${name}" t WHERE strpos(lower(t::text), lower($1)) > 0`,
      [value],
    );
    found.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return found;
}

describe('erasure', () => {
  it('needs the typed confirmation', async () => {
    const { objectId } = await registered();
    const res = await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'erase' }, admin);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('confirm');
  });

  it('leaves no personal value anywhere, the log included; keeps the enrollment number; stops mail and logins', async () => {
    const { student, objectId, id } = await registered();
    const token = await loginStudent(t, student.email, student.password);
    // Earlier changes put personal values in the log.
    const newMobile = `8${String(Date.now()).slice(-9)}`;
    const edited = await t.api('PUT', `/api/users/${objectId}`, { mobile: newMobile }, admin);
    expect(edited.status).toBe(200);
    // A pending reset code is stored by e-mail.
    expect((await t.api('POST', '/api/send-email-otp', { email: student.email })).status).toBe(200);
    await mailTo(t, student.email, /reset code/i);
    for (const value of [student.email, newMobile, student.mobile, student.fullname]) {
      expect((await rowsContaining(value)).length).toBeGreaterThan(0);
    }

    const erased = await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({
      objectId,
      id,
      erased: true,
      status: 'deactivated',
      fullname: 'Erased student',
    });
    expect(erased.body.email).toMatch(/@erased\.invalid$/);

    for (const value of [student.email, student.mobile, newMobile, student.fullname]) {
      expect(await rowsContaining(value), value).toEqual([]);
    }
    // Test students share birthdays: no row about this one holds it.
    const aboutIt = (await rowsContaining(student.dob)).filter((row) => row.includes(objectId));
    expect(aboutIt).toEqual([]);
    expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
    const login = await t.api('POST', '/api/student/login', { identifier: student.email, password: student.password });
    expect(login.status).toBe(401);

    // The record of the erasure remains, with fields and no values that went.
    const history = await t.api('GET', `/api/users/${objectId}/history`, undefined, admin);
    expect(history.body[0].kind).toBe('student.erase');
    expect(history.body[0].enrollmentId).toBe(id);
    expect(history.body[0].changes.map((c: { field: string }) => c.field)).toContain('email');
    const update = history.body.find((e: { kind: string }) => e.kind === 'student.update');
    expect(update.changes).toEqual([{ field: 'mobile', before: '[erased]', after: '[erased]' }]);

    // No mail reaches an erased account, by any path.
    // (Counted for the erased address only: other tests' welcome mails arrive meanwhile.)
    const mailsToErased = () => t.captures.mails.filter((m) => m.to.includes(erased.body.email)).length;
    const mailsBefore = mailsToErased();
    expect((await t.api('POST', '/api/send-email-otp', { email: erased.body.email })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsToErased()).toBe(mailsBefore);

    // Nothing about it changes any more, and a second erasure is refused.
    expect((await t.api('PUT', `/api/users/${objectId}`, { grade: 5 }, admin)).status).toBe(403);
    expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'active' }, admin)).status).toBe(403);
    expect((await t.api('POST', `/api/users/${objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(400);
  });

  it('keeps the unique indexes: two erased students side by side', async () => {
    const a = await registered();
    const b = await registered();
    expect((await t.api('POST', `/api/users/${a.objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(200);
    expect((await t.api('POST', `/api/users/${b.objectId}/erase`, { confirm: 'ERASE' }, admin)).status).toBe(200);
    const both = await t.api('GET', '/api/users?status=deactivated&q=erased.invalid&limit=500', undefined, admin);
    const ids = both.body.map((r: { objectId: string }) => r.objectId);
    expect(ids).toEqual(expect.arrayContaining([a.objectId, b.objectId]));
  });
});

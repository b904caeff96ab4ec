// A logged-in student changes their password on the real site: the current
// password is required, the registration's rules apply, the other sessions end,
// the new password works and the old one no longer does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage } from '@tc/domain/messages';
import { PasswordChangeMessage } from '@tc/domain/password-change-messages';
import { loginStudent, register, startTestSite, type TestSite } from '../../../testing/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

const PATH = '/api/students/me/password';

async function registered() {
  const { student, result } = await register(t);
  expect(result.status).toBe(201);
  const email = String(student.email);
  const password = String(student.password);
  return { email, mobile: String(student.mobile), password, token: await loginStudent(t, email, password) };
}

describe('a student changes their password', () => {
  it('refuses a wrong or missing current password with a 400 on currentPassword, and changes nothing', async () => {
    const s = await registered();
    const wrong = await t.api(
      'PUT',
      PATH,
      { currentPassword: `${s.password}-x`, newPassword: 'Brand-new-pass-1' },
      s.token,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: PasswordChangeMessage.wrongCurrent, field: 'currentPassword' });
    const empty = await t.api('PUT', PATH, { currentPassword: '', newPassword: 'Brand-new-pass-1' }, s.token);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: PasswordChangeMessage.currentRequired, field: 'currentPassword' });
    // The session goes on and the password is the old one.
    expect((await t.api('GET', '/api/students/me', undefined, s.token)).status).toBe(200);
    expect(await loginStudent(t, s.email, s.password)).toBeTruthy();
  });

  it('applies the registration password rules to the new password', async () => {
    const s = await registered();
    for (const [newPassword, message] of [
      ['', RegistrationMessage.passwordRequired],
      ['short', RegistrationMessage.passwordTooShort],
      ['x'.repeat(65), RegistrationMessage.passwordTooLong],
    ] as const) {
      const res = await t.api('PUT', PATH, { currentPassword: s.password, newPassword }, s.token);
      expect(res.status, newPassword).toBe(400);
      expect(res.body).toMatchObject({ error: message, field: 'newPassword' });
    }
    const typed = await t.api('PUT', PATH, { currentPassword: s.password, newPassword: 12345678 }, s.token);
    expect(typed.status).toBe(400);
    expect(await loginStudent(t, s.email, s.password)).toBeTruthy();
  });

  it('ends the other sessions, answers a fresh one, and only the new password logs in', async () => {
    const s = await registered();
    const other = await loginStudent(t, s.mobile, s.password);
    const changed = await t.api('PUT', PATH, { currentPassword: s.password, newPassword: 'Brand-new-pass-1' }, s.token);
    expect(changed.status).toBe(200);
    expect(changed.body.success).toBe(true);
    const fresh = changed.body.tokenStudent as string;
    expect(fresh).toBeTruthy();
    expect((await t.api('GET', '/api/students/me', undefined, other)).status).toBe(401);
    expect((await t.api('GET', '/api/students/me', undefined, s.token)).status).toBe(401);
    expect((await t.api('GET', '/api/students/me', undefined, fresh)).status).toBe(200);
    const old = await t.api('POST', '/api/student/login', { identifier: s.email, password: s.password });
    expect(old.status).toBe(401);
    expect(await loginStudent(t, s.email, 'Brand-new-pass-1')).toBeTruthy();
  });

  it('takes one of four changes sent at once from four sessions; every session but its new one ends', async () => {
    const s = await registered();
    const tokens = [s.token];
    for (let i = 0; i < 3; i++) tokens.push(await loginStudent(t, s.email, s.password));
    const answers = await Promise.all(
      tokens.map((token, i) =>
        t.api('PUT', PATH, { currentPassword: s.password, newPassword: `Brand-new-pass-${i}` }, token),
      ),
    );
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    // The others checked their "current" password against the one the first had set, or
    // came after their own session had ended with the first change.
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect([400, 401]).toContain(lost.status);
      expect(lost.body.error).toBeTruthy();
      if (lost.status === 400) expect(lost.body.field).toBe('currentPassword');
    }
    const winner = answers.indexOf(won[0]!);
    for (const token of tokens) expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
    expect((await t.api('GET', '/api/students/me', undefined, won[0]!.body.tokenStudent)).status).toBe(200);
    const login = (password: string) =>
      t.api('POST', '/api/student/login', { identifier: s.email, password }).then((res) => res.status);
    expect(await login(`Brand-new-pass-${winner}`)).toBe(200);
  });

  it("changes twelve students' passwords at once: every change answers 200 and its new password logs in", async () => {
    // Each change holds its account's lock on a connection of the site's pool while its
    // login check counts on that pool too: twelve at once must not hold every connection.
    const students = [];
    for (let i = 0; i < 12; i++) students.push(await registered());
    const answers = await Promise.all(
      students.map((s) =>
        t.api('PUT', PATH, { currentPassword: s.password, newPassword: 'Twelve-at-once-1' }, s.token),
      ),
    );
    expect(
      answers.map((a) => a.status),
      JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)),
    ).toEqual(students.map(() => 200));
    const login = await t.api('POST', '/api/student/login', {
      identifier: students[11]!.email,
      password: 'Twelve-at-once-1',
    });
    expect(login.status).toBe(200);
  });

  it('needs a student session: none is 401, an admin token is 403', async () => {
    const body = { currentPassword: 'whatever-1', newPassword: 'Brand-new-pass-1' };
    expect((await t.api('PUT', PATH, body)).status).toBe(401);
    const admin = await t.api('POST', '/api/admin/login', t.admin);
    const asAdmin = await t.api('PUT', PATH, body, admin.body.token);
    expect(asAdmin.status).toBe(403);
  });

  it('counts wrong current passwords like failed logins: the fifth locks this address out', async () => {
    const s = await registered();
    for (let i = 0; i < 5; i++) {
      await t.api('PUT', PATH, { currentPassword: `wrong-${i}-pass`, newPassword: 'Brand-new-pass-1' }, s.token);
    }
    const locked = await t.api('PUT', PATH, { currentPassword: s.password, newPassword: 'Brand-new-pass-1' }, s.token);
    expect(locked.status).toBe(401);
    expect(locked.body.code).toBe(ErrorCode.AccountLocked);
    // Still the old password: the lock stopped the change.
    const login = await t.api('POST', '/api/student/login', { identifier: s.email, password: s.password });
    expect(login.body.code).toBe(ErrorCode.AccountLocked);
  });
});

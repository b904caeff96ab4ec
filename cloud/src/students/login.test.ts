// A student's login through /api: by e-mail or mobile, the profile, logout and
// revoked sessions, one answer for every failure, and the lockout after wrong passwords.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailCode } from '../../../testing/codes.ts';
import { loginStudent, mailTo, register, startTestSite, type TestSite } from '../../../testing/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

describe('student session', () => {
  it('logs in by e-mail or mobile, shows the profile, logs out and revokes the session', async () => {
    const { student, result } = await register(t);
    const byMobile = await t.api('POST', '/api/student/login', {
      identifier: `+91-${student.mobile}`,
      password: student.password,
    });
    expect(byMobile.status).toBe(200);
    expect(byMobile.body).toEqual({ tokenStudent: expect.any(String) });

    const token = await loginStudent(t, student.email.toUpperCase(), student.password);
    const me = await t.api('GET', '/api/students/me', undefined, token);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      fullname: student.fullname,
      email: student.email,
      mobile: student.mobile,
      board: 'CBSE',
      grade: 4,
      gender: 'Son',
      dob: student.dob,
      id: result.body.id,
    });

    const out = await t.api('POST', '/api/student/logout', undefined, token);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
    expect((await t.api('GET', '/api/students/me', undefined, byMobile.body.tokenStudent)).status).toBe(200);
  });

  it('answers 401 with one message for a wrong password and an unknown account', async () => {
    const { student } = await register(t);
    const wrong = await t.api('POST', '/api/student/login', { identifier: student.email, password: 'wrong-password' });
    const unknown = await t.api('POST', '/api/student/login', {
      identifier: 'ghost@example.com',
      password: 'wrong-password',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error).toBe(unknown.body.error);
  });

  it('answers 401 without a token or with a bad one', async () => {
    expect((await t.api('GET', '/api/students/me')).status).toBe(401);
    expect((await t.api('GET', '/api/students/me', undefined, 'r:not-a-session')).status).toBe(401);
    expect((await t.api('POST', '/api/student/logout')).status).toBe(401);
  });

  it('does not let the admin in as a student', async () => {
    const res = await t.api('POST', '/api/student/login', { identifier: t.admin.email, password: t.admin.password });
    expect(res.status).toBe(401);
  });
});

describe('lockout', () => {
  it('locks the account after 5 wrong passwords, and a password reset unlocks it', async () => {
    const { student } = await register(t);
    for (let i = 0; i < 5; i++) {
      await t.api('POST', '/api/student/login', { identifier: student.email, password: `wrong-${i}-pass` });
    }
    const locked = await t.api('POST', '/api/student/login', { identifier: student.email, password: student.password });
    expect(locked.status).toBe(401);
    expect(locked.body.code).toBe(3051);

    await t.api('POST', '/api/send-email-otp', { email: student.email });
    const mail = await mailTo(t, student.email, /reset/i);
    const otp = mailCode(mail);
    const reset = await t.api('PUT', '/api/users/update-password', {
      email: student.email,
      otp,
      newPassword: 'unlocked-pass-1',
    });
    expect(reset.status).toBe(200);
    await loginStudent(t, student.email, 'unlocked-pass-1');
  });
});

describe('lockout counting', () => {
  it('counts a try before its password is checked: parallel wrong ones, or a batch, get 5 guesses in all', async () => {
    const { student } = await register(t);
    const tries = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.api('POST', '/api/student/login', { identifier: student.email, password: `wrong-${i}-pass` }),
      ),
    );
    const codes = tries.map((res) => res.body.code as number);
    expect(codes.filter((code) => code === 3050).length, codes.join(' ')).toBeLessThanOrEqual(5);
    expect(codes.filter((code) => code === 3051).length, codes.join(' ')).toBeGreaterThanOrEqual(7);

    // The same through Parse's batch, which runs its requests at once.
    const other = (await register(t)).student;
    const batch = await fetch(`${t.url}/parse/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-parse-application-id': t.site.config.appId },
      body: JSON.stringify({
        requests: Array.from({ length: 12 }, (_, i) => ({
          method: 'POST',
          path: '/parse/functions/loginStudent',
          body: { identifier: other.email, password: `wrong-${i}-pass` },
        })),
      }),
    });
    const answers = (await batch.json()) as Array<{ error?: { code: number } }>;
    const batchCodes = answers.map((answer) => answer.error?.code);
    expect(batchCodes.filter((code) => code === 3050).length, batchCodes.join(' ')).toBeLessThanOrEqual(5);
    // The owner's own logins at once (a family's devices behind one address) all get in: a try waits its turn.
    const family = (await register(t)).student;
    const devices = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.api('POST', '/api/student/login', { identifier: family.email, password: family.password }),
      ),
    );
    expect(devices.map((res) => res.status)).toEqual(Array(8).fill(200));
    // The right password, from the address of the batch, is refused too.
    const owner = await t.api('POST', '/api/student/login', { identifier: other.email, password: other.password });
    expect(owner.body.code).toBe(3051);
  });

  it('forgets earlier wrong passwords after a right one', async () => {
    const { student } = await register(t);
    const wrong = () => t.api('POST', '/api/student/login', { identifier: student.email, password: 'wrong-pass-x' });
    for (let i = 0; i < 4; i++) await wrong();
    await loginStudent(t, student.email, student.password);
    for (let i = 0; i < 4; i++) expect((await wrong()).body.code).toBe(3050);
    await loginStudent(t, student.email, student.password);
  });
});

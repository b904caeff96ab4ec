// A forgotten password through /api: the e-mailed code, revoked sessions, the same
// answer for an unknown e-mail, and the new password's rules.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailCode } from '../../../testing/codes.ts';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ErrorCode } from '@tc/domain/errors';
import { loginAdmin, loginStudent, mailTo, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

describe('password reset', () => {
  it('resets with the e-mailed code, revokes every session, and the old password stops working', async () => {
    const { student } = await register(t);
    const oldToken = await loginStudent(t, student.email, student.password);

    const sent = await t.api('POST', '/api/send-email-otp', { email: student.email, otp: '0000' });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true });
    const mail = await mailTo(t, student.email, /reset/i);
    const otp = mailCode(mail);

    const wrong = await t.api('PUT', '/api/users/update-password', {
      email: student.email,
      otp: '000000',
      newPassword: 'brand-new-1',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ success: false, error: 'Invalid OTP. Please try again.', code: 3040, field: 'otp' });

    const res = await t.api('PUT', '/api/users/update-password', {
      email: student.email,
      otp,
      newPassword: 'brand-new-1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });

    expect((await t.api('GET', '/api/students/me', undefined, oldToken)).status).toBe(401);
    expect(
      (await t.api('POST', '/api/student/login', { identifier: student.email, password: student.password })).status,
    ).toBe(401);
    await loginStudent(t, student.email, 'brand-new-1');

    const reused = await t.api('PUT', '/api/users/update-password', {
      email: student.email,
      otp,
      newPassword: 'another-one-1',
    });
    expect(reused.body.code).toBe(3040);
  });

  it('tells the parent the password is set when only clearing the wrong logins after it fails', async () => {
    const { student } = await register(t);
    expect((await t.api('POST', '/api/send-email-otp', { email: student.email })).status).toBe(200);
    const otp = mailCode(await mailTo(t, student.email, /reset/i));
    // The database refuses to clear this site's counts of wrong logins (one table per counter).
    await t.sql.query(`
      CREATE OR REPLACE FUNCTION refuse_forgiving() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'refused in a test'; END $$ LANGUAGE plpgsql`);
    await t.sql.query(
      `CREATE TRIGGER refuse_forgiving BEFORE DELETE ON "rl_login_fail_account_ip" FOR EACH ROW EXECUTE FUNCTION refuse_forgiving()`,
    );
    // A wrong login first, so that there is a count to clear.
    await t.api('POST', '/api/student/login', { identifier: student.email, password: 'not-the-password-1' });
    try {
      const res = await t.api('PUT', '/api/users/update-password', {
        email: student.email,
        otp,
        newPassword: 'brand-new-2',
      });
      expect(res).toMatchObject({ status: 200, body: { success: true } });
    } finally {
      await t.sql.query(`DROP TRIGGER refuse_forgiving ON "rl_login_fail_account_ip"`);
    }
    await loginStudent(t, student.email, 'brand-new-2');
  });

  it('gives an unknown e-mail the same answer and sends no mail', async () => {
    // (Counted for this address only: the other tests' welcome mails arrive meanwhile.)
    const unknown = `unknown-${Date.now()}@example.com`;
    const res = await t.api('POST', '/api/send-email-otp', { email: unknown });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    await new Promise((r) => setTimeout(r, 500));
    expect(t.captures.mails.filter((m) => m.to.includes(unknown))).toHaveLength(0);
  });

  it('sends a deactivated student no code, with the same answer; a code mailed before sets no password', async () => {
    const { student, result } = await register(t);
    const status = `/api/users/${result.body.objectId as string}/status`;
    const admin = await loginAdmin(t);
    const resetMails = () => t.captures.mails.filter((m) => m.to.includes(student.email) && /reset/i.test(m.raw));
    // Each request below its own code: the cooldown is the code's, not the test's.
    const fresh = () => t.sql.query(`DELETE FROM "OneTimeCode" WHERE target = $1`, [student.email.toLowerCase()]);

    // A code mailed while active, then the student deactivated.
    expect((await t.api('POST', '/api/send-email-otp', { email: student.email })).status).toBe(200);
    const otp = mailCode(await mailTo(t, student.email, /reset/i));
    expect((await t.api('PUT', status, { status: 'deactivated' }, admin)).status).toBe(200);
    const refused = await t.api('PUT', '/api/users/update-password', {
      email: student.email,
      otp,
      newPassword: 'brand-new-2',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: ErrorCode.AccountDeactivated,
      error: AdminToolsMessage.accountDeactivated,
    });

    // Deactivated: the same answer, and no mail.
    await fresh();
    const asked = await t.api('POST', '/api/send-email-otp', { email: student.email });
    expect([asked.status, asked.body]).toEqual([200, { success: true }]);
    // Reactivated: the next request's mail comes, and it is the only one since the first.
    expect((await t.api('PUT', status, { status: 'active' }, admin)).status).toBe(200);
    await fresh();
    expect((await t.api('POST', '/api/send-email-otp', { email: student.email })).status).toBe(200);
    await until(() => resetMails().length >= 2, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(resetMails()).toHaveLength(2);
    // The old password still opens the account: nothing was changed while it was deactivated.
    await loginStudent(t, student.email, student.password);
  });

  it('keeps no code past its use and the hour the cooldown looks back on', async () => {
    const old = `old-request-${Date.now()}@example.com`;
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await t.sql.query(
      `INSERT INTO "OneTimeCode" ("objectId", purpose, target, "codeHash", "expiresAt", tries, uses, active, "createdAt", "updatedAt")
       VALUES ($1, 'reset', $2, 'x', $3, 0, 0, false, $3, $3)`,
      [`old${Date.now().toString(36)}`.slice(0, 10), old, twoHoursAgo],
    );
    expect((await t.api('POST', '/api/send-email-otp', { email: `another-${Date.now()}@example.com` })).status).toBe(
      200,
    );
    const { rowCount } = await t.sql.query(`SELECT 1 FROM "OneTimeCode" WHERE target = $1`, [old]);
    expect(rowCount).toBe(0);
  });

  it('checks the new password rules', async () => {
    const res = await t.api('PUT', '/api/users/update-password', {
      email: 'a@b.co',
      otp: '123456',
      newPassword: 'short',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: 'Password must be at least 8 characters',
      code: 142,
      field: 'newPassword',
    });
  });
});

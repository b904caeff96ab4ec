// Deliveries that time out, and failures that must not spend a parent's code
// (issue 12 items 3 and 4), on the real site with the real SMTP and SMS captures.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeIn, mailCode } from '../../testing/codes.ts';
import { smsCode, startTestSite, type TestSite } from '../../testing/site.ts';
import { newStudent } from '../../testing/students.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ SMTP_TIMEOUT_MS: '1000', SMS_TIMEOUT_MS: '1000' });
});
afterAll(async () => {
  t.captures.smsDelayMs = 0;
  t.captures.stallMail = false;
  await t?.stop();
});

/** Moves a target's codes back in time, past the resend cooldown. */
async function age(target: string, seconds: number) {
  await t.sql.query(
    `UPDATE "OneTimeCode" SET "createdAt" = "createdAt" - make_interval(secs => $2),
       "expiresAt" = "expiresAt" - make_interval(secs => $2) WHERE target = $1`,
    [target, seconds],
  );
}

describe('timeouts', () => {
  it('reports a slow SMS gateway as failed, and its late code never works; a newer code stays good', async () => {
    const student = newStudent();
    t.captures.smsDelayMs = 2_500;
    const started = Date.now();
    const slow = t.api('POST', '/api/send-sms', { mobile: student.mobile });
    // While that one waits, the parent asks again (past the cooldown) and gets a code at once.
    await new Promise((r) => setTimeout(r, 300));
    await age(student.mobile, 60);
    t.captures.smsDelayMs = 0;
    const fresh = await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    expect(fresh.status).toBe(200);
    const newer = await smsCode(t, student.mobile);

    const late = await slow;
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(late.status).toBe(502);
    expect(late.body.code).toBe(3502);

    // The gateway delivers the first code after all: withdrawn, it is refused.
    await new Promise((r) => setTimeout(r, 2_500));
    const texts = t.captures.sms.filter((s) => s.to === student.mobile).map((s) => codeIn(s.message));
    expect(texts).toHaveLength(2);
    const older = texts.find((c) => c !== newer)!;
    const refused = await t.api('POST', '/api/register', { ...student, otp: older });
    expect(refused.body.code).toBe(3040);
    const registered = await t.api('POST', '/api/register', { ...student, otp: newer });
    expect(registered.status).toBe(201);
  });

  it('gives up on a mail server that stalls after DATA within the SMTP timeout, and voids that code', async () => {
    const student = newStudent();
    t.captures.stallMail = false;
    // A student to reset: registered first.
    await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    const otp = await smsCode(t, student.mobile);
    expect((await t.api('POST', '/api/register', { ...student, otp })).status).toBe(201);

    t.captures.stallMail = true;
    const started = Date.now();
    const res = await t.api('POST', '/api/send-email-otp', { email: student.email });
    // The answer tells nothing about the account or the delivery (no enumeration): the
    // mail is sent after it, and the code it carried is voided once the server gives up
    // (kept for the cooldown, as an unknown address's unsent code is).
    expect(res.status).toBe(200);
    const stillGood = async () =>
      (
        await t.sql.query(
          `SELECT 1 FROM "OneTimeCode" WHERE purpose = 'reset' AND target = $1 AND active AND "expiresAt" > now()`,
          [student.email],
        )
      ).rowCount;
    while ((await stillGood()) && Date.now() - started < 8_000) await new Promise((r) => setTimeout(r, 100));
    expect(await stillGood()).toBe(0);
    expect(Date.now() - started).toBeLessThan(8_000);
    t.captures.stallMail = false;
    // Within the cooldown, the next request is refused as an unknown address's would be.
    expect((await t.api('POST', '/api/send-email-otp', { email: student.email })).status).toBe(429);
  });

  it('answers readiness within its timeout', async () => {
    const res = await t.api('GET', '/api/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });
});

describe("a failure never spends a parent's code", () => {
  it('keeps the code good when creating the account fails after the code was checked', async () => {
    const student = newStudent();
    await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    const otp = await smsCode(t, student.mobile);
    // The enrollment sequence goes missing for a moment: the account cannot be made.
    await t.sql.query('ALTER SEQUENCE student_enrollment_seq RENAME TO student_enrollment_seq_gone');
    let failed;
    try {
      failed = await t.api('POST', '/api/register', { ...student, otp });
    } finally {
      await t.sql.query('ALTER SEQUENCE student_enrollment_seq_gone RENAME TO student_enrollment_seq');
    }
    expect(failed.status).toBe(500);
    expect(JSON.stringify(failed.body)).not.toMatch(/sequence|stack/i);

    const again = await t.api('POST', '/api/register', { ...student, otp });
    expect(again.status).toBe(201);
    // And now it is used up.
    const twice = await t.api('POST', '/api/register', { ...newStudent({ mobile: student.mobile }), otp });
    expect([3034, 3040]).toContain(twice.body.code);
  });

  it('refuses bad input before the code is touched', async () => {
    const student = newStudent();
    await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    const otp = await smsCode(t, student.mobile);
    for (const bad of [{ fullname: 'A\u0000B' }, { email: 'x\u0000@example.com' }, { grade: 42 }]) {
      const res = await t.api('POST', '/api/register', { ...student, ...bad, otp });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    }
    const { rows } = await t.sql.query(`SELECT tries, uses, active FROM "OneTimeCode" WHERE target = $1`, [
      student.mobile,
    ]);
    expect(rows).toEqual([{ tries: expect.any(Number), uses: 0, active: true }]);
    expect((await t.api('POST', '/api/register', { ...student, otp })).status).toBe(201);
  });

  it('keeps the reset code good when the new password is refused', async () => {
    const student = newStudent();
    await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    const otp = await smsCode(t, student.mobile);
    expect((await t.api('POST', '/api/register', { ...student, otp })).status).toBe(201);
    const before = t.captures.mails.length;
    expect((await t.api('POST', '/api/send-email-otp', { email: student.email })).status).toBe(200);
    let code = '';
    for (let i = 0; i < 300 && !code; i++) {
      const mail = t.captures.mails
        .slice(before)
        .find((m) => m.to.includes(student.email) && /code/i.test(m.raw) && !/Welcome/.test(m.raw));
      if (mail) code = mailCode(mail.raw);
      else await new Promise((r) => setTimeout(r, 50));
    }
    const weak = await t.api('PUT', '/api/users/update-password', {
      email: student.email,
      otp: code,
      newPassword: 'x',
    });
    expect(weak.status).toBe(400);
    const good = await t.api('PUT', '/api/users/update-password', {
      email: student.email,
      otp: code,
      newPassword: 'another-pass-2',
    });
    expect(good.status).toBe(200);
  });
});

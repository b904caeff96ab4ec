// One-time codes on the real site: hashing, expiry, tries,
// single use, replacement, cooldown, hourly cap, and the per-IP limits.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerMessage } from '@tc/domain/server-messages';
import { smsCode, startTestSite, type TestSite } from '../../../testing/site.ts';
import { newStudent } from '../../../testing/students.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

async function sendCode(mobile: string) {
  return t.api('POST', '/api/send-sms', { mobile });
}

/** Moves a target's codes back in time, as if `seconds` had passed. */
async function age(target: string, seconds: number) {
  await t.sql.query(
    `UPDATE "OneTimeCode" SET "createdAt" = "createdAt" - make_interval(secs => $2),
       "expiresAt" = "expiresAt" - make_interval(secs => $2) WHERE target = $1`,
    [target, seconds],
  );
}

function otherThan(code: string): string {
  return code === '999999' ? '100000' : String(Number(code) + 1);
}

describe('one-time codes', () => {
  it('stores only a keyed hash of the code, bound to purpose and target', async () => {
    const { mobile } = newStudent();
    await sendCode(mobile);
    const code = await smsCode(t, mobile);
    const { rows } = await t.sql.query(`SELECT * FROM "OneTimeCode" WHERE target = $1`, [mobile]);
    expect(rows).toHaveLength(1);
    expect(rows[0].purpose).toBe('register');
    expect(JSON.stringify(rows[0])).not.toContain(code);
    expect(rows[0].codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('expires after 10 minutes (3041)', async () => {
    const student = newStudent();
    await sendCode(student.mobile);
    const otp = await smsCode(t, student.mobile);
    await age(student.mobile, 10 * 60 + 1);
    const res = await t.api('POST', '/api/register', { ...student, otp });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(3041);
  });

  it('allows 5 wrong tries, then the code is dead even for the right digits (3042)', async () => {
    const student = newStudent();
    await sendCode(student.mobile);
    const otp = await smsCode(t, student.mobile);
    for (let i = 0; i < 5; i++) {
      const res = await t.api('POST', '/api/register', { ...student, otp: otherThan(otp) });
      expect(res.body.code).toBe(3040);
    }
    const res = await t.api('POST', '/api/register', { ...student, otp });
    expect(res.body.code).toBe(3042);
  });

  it('passes with the right code after four wrong ones', async () => {
    const student = newStudent();
    await sendCode(student.mobile);
    const otp = await smsCode(t, student.mobile);
    for (let i = 0; i < 4; i++) await t.api('POST', '/api/register', { ...student, otp: otherThan(otp) });
    expect((await t.api('POST', '/api/register', { ...student, otp })).status).toBe(201);
  });

  it('counts parallel wrong guesses: no more than 5 are ever checked', async () => {
    const student = newStudent();
    await sendCode(student.mobile);
    const otp = await smsCode(t, student.mobile);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => t.api('POST', '/api/register', { ...student, otp: otherThan(otp) })),
    );
    expect(answers.filter((r) => r.body.code === 3040).length).toBeLessThanOrEqual(5);
    expect((await t.api('POST', '/api/register', { ...student, otp })).body.code).toBe(3042);
  });

  it('counts only wrong tries: six registrations sent at once with the right code give one student, none told of wrong tries', async () => {
    const student = newStudent();
    await sendCode(student.mobile);
    const otp = await smsCode(t, student.mobile);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.api('POST', '/api/register', { ...student, otp })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.map((r) => r.body.code)).not.toContain(3042);
  });

  it('is consumed by its first successful use', async () => {
    const student = newStudent();
    await sendCode(student.mobile);
    const otp = await smsCode(t, student.mobile);
    expect((await t.api('POST', '/api/register', { ...student, otp })).status).toBe(201);
    const reuse = await t.api('POST', '/api/register', { ...newStudent({ mobile: student.mobile }), otp });
    expect(reuse.status).toBeGreaterThanOrEqual(400);
    expect((await t.api('POST', '/api/check-email', { email: student.email })).body.exists).toBe(true);
  });

  it('is replaced by a new code: the old one stops working', async () => {
    const student = newStudent();
    await sendCode(student.mobile);
    const first = await smsCode(t, student.mobile);
    await age(student.mobile, 31);
    expect((await sendCode(student.mobile)).status).toBe(200);
    const second = await smsCode(t, student.mobile, 1);
    // Two random 6-digit codes are equal once in 900,000 sends.
    expect(second).not.toBe(first);
    expect((await t.api('POST', '/api/register', { ...student, otp: first })).body.code).toBe(3040);
    expect((await t.api('POST', '/api/register', { ...student, otp: second })).status).toBe(201);
  });

  it('refuses a resend within 30 seconds (429) and allows it after', async () => {
    const { mobile } = newStudent();
    expect((await sendCode(mobile)).status).toBe(200);
    const again = await sendCode(mobile);
    expect(again.status).toBe(429);
    expect(again.body.error).toMatch(/wait \d+ seconds/);
    // The same seconds as HTTP's Retry-After.
    const seconds = /wait (\d+) seconds/.exec(String(again.body.error))![1];
    expect(again.headers.get('retry-after')).toBe(seconds);
    expect(Number(seconds)).toBeGreaterThan(25);
    await age(mobile, 31);
    expect((await sendCode(mobile)).status).toBe(200);
  });

  it('sends one code for requests made at once (a double tap), and one for parallel resends after the cooldown', async () => {
    const { mobile } = newStudent();
    const statuses = async () =>
      (await Promise.all(Array.from({ length: 4 }, () => sendCode(mobile)))).map((r) => r.status).sort();
    expect(await statuses()).toEqual([200, 429, 429, 429]);
    await age(mobile, 31);
    expect(await statuses()).toEqual([200, 429, 429, 429]);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.captures.sms.filter((m) => m.to === mobile)).toHaveLength(2);
    // The code of the second round works: the first was replaced, not the second.
    const code = await smsCode(t, mobile, 1);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM "OneTimeCode" WHERE target = $1 AND active`, [
      mobile,
    ]);
    expect(rows[0].n).toBe(1);
    expect(code).toMatch(/^\d{6}$/);
  });

  it('sends at most 5 codes per target per hour', async () => {
    const { mobile } = newStudent();
    for (let i = 0; i < 5; i++) {
      expect((await sendCode(mobile)).status).toBe(200);
      await age(mobile, 31);
    }
    const sixth = await sendCode(mobile);
    expect(sixth).toMatchObject({ status: 429, body: { error: ServerMessage.hourlyCap('mobile') } });
    expect(sixth.body.error).toContain('for this number');
    // A code is free again once the first of the five is an hour old: it was sent 5 x 31 s ago.
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(3600 - 155 - 5);
    expect(retryAfter).toBeLessThanOrEqual(3600 - 155 + 1);
    await age(mobile, 3600);
    expect((await sendCode(mobile)).status).toBe(200);
  });

  it("says 'e-mail address' when a reset's codes to one address reach the hourly cap", async () => {
    const { email } = newStudent();
    for (let i = 0; i < 5; i++) {
      expect((await t.api('POST', '/api/send-email-otp', { email })).status).toBe(200);
      await age(email, 31);
    }
    const sixth = await t.api('POST', '/api/send-email-otp', { email });
    expect(sixth).toMatchObject({ status: 429, body: { error: ServerMessage.hourlyCap('email') } });
    expect(sixth.body.error).toContain('for this e-mail address');
  });

  it('answers with an error and lets the parent retry at once when the SMS gateway fails', async () => {
    const { mobile } = newStudent();
    t.captures.failSms = true;
    try {
      const res = await sendCode(mobile);
      expect(res.status).toBe(502);
      expect(JSON.stringify(res.body)).not.toContain('SMS gateway');
    } finally {
      t.captures.failSms = false;
    }
    expect((await sendCode(mobile)).status).toBe(200);
  });

  it('counts the texts a failing gateway refused for the hourly cap: it may have sent them all the same', async () => {
    const { mobile } = newStudent();
    t.captures.failSms = true;
    try {
      // Each refused text may be asked for again at once...
      for (let i = 0; i < 5; i++) expect((await sendCode(mobile)).status, `try ${i + 1}`).toBe(502);
      // ...but no more than five reach one number in an hour, delivered or not.
      expect(await sendCode(mobile)).toMatchObject({ status: 429, body: { error: ServerMessage.hourlyCap('mobile') } });
    } finally {
      t.captures.failSms = false;
    }
    expect((await sendCode(mobile)).status).toBe(429);
    await age(mobile, 3600);
    expect((await sendCode(mobile)).status).toBe(200);
  });

  it('never lets a send-sms caller choose the code', async () => {
    const student = newStudent();
    await t.api('POST', '/api/send-sms', { mobile: student.mobile, otp: '123456' });
    const real = await smsCode(t, student.mobile);
    expect(real).not.toBe('123456'); // once in 900,000 runs the server's own draw is that
    expect((await t.api('POST', '/api/register', { ...student, otp: '123456' })).body.code).toBe(3040);
  });
});

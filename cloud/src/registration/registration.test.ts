// Registration on the real site through /api: existence checks, the SMS code,
// the server's enforcement of the rules, taken e-mails and mobiles, the welcome mail.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailBody } from '../../../testing/codes.ts';
import { loginStudent, mailTo, register, smsCode, startTestSite, type TestSite } from '../../../testing/site.ts';
import { newStudent, yearsAgo } from '../../../testing/students.ts';
import { PRODUCT_NAME } from '@tc/domain/constants';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

describe('registration', () => {
  it('checks e-mail and mobile existence, sends a code, registers, and sends the welcome mail once', async () => {
    const student = newStudent({ email: `Mixed.Case-${Date.now()}@Example.com` });
    expect((await t.api('POST', '/api/check-email', { email: student.email })).body).toEqual({ exists: false });
    expect((await t.api('POST', '/api/check-mobile', { mobile: student.mobile })).body).toEqual({ exists: false });

    const sent = await t.api('POST', '/api/send-sms', { mobile: `+91 ${student.mobile}`, otp: '1234' });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ success: true });
    const otp = await smsCode(t, student.mobile);
    expect(otp).toMatch(/^[1-9]\d{5}$/);
    expect(otp).not.toBe('1234');

    const res = await t.api('POST', '/api/register', { ...student, otp });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ objectId: expect.any(String), id: expect.any(Number) });

    expect((await t.api('POST', '/api/check-email', { email: student.email.toUpperCase() })).body).toEqual({
      exists: true,
    });
    expect((await t.api('POST', '/api/check-mobile', { mobile: `0${student.mobile}` })).body).toEqual({ exists: true });

    // The server sends the welcome mail itself, once, through the durable queue.
    const mail = mailBody(await mailTo(t, student.email.toLowerCase(), /Welcome/));
    expect(mail).toContain(student.fullname);
    expect(mail).toContain(`Your enrollment number is ${res.body.id}.`);
    // The seed's client call still answers, and sends nothing more.
    const first = await t.api('POST', '/api/send-email', { email: student.email, fullname: student.fullname });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ messageId: expect.any(String) });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(t.captures.mails.filter((m) => m.to.includes(student.email.toLowerCase()))).toHaveLength(1);
  });

  it('registers the child when only recording the code as used fails: the parent is not sent back to the form', async () => {
    const student = newStudent();
    expect((await t.api('POST', '/api/send-sms', { mobile: student.mobile })).status).toBe(200);
    const otp = await smsCode(t, student.mobile);
    // The database refuses, for this number's code alone, the write that marks it used.
    await t.sql.query(`
      CREATE OR REPLACE FUNCTION refuse_code_use() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'refused in a test'; END $$ LANGUAGE plpgsql`);
    await t.sql.query(
      `CREATE TRIGGER refuse_code_use BEFORE UPDATE ON "OneTimeCode" FOR EACH ROW
       WHEN (NEW.target = '${student.mobile}' AND NEW.uses IS DISTINCT FROM OLD.uses) EXECUTE FUNCTION refuse_code_use()`,
    );
    try {
      const res = await t.api('POST', '/api/register', { ...student, otp });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ objectId: expect.any(String), id: expect.any(Number) });
    } finally {
      await t.sql.query(`DROP TRIGGER refuse_code_use ON "OneTimeCode"`);
    }
    expect(mailBody(await mailTo(t, student.email, /Welcome/))).toContain(student.fullname);
    expect(await loginStudent(t, student.email, student.password)).toEqual(expect.any(String));
    // The code, still good, makes no second account.
    const again = await t.api('POST', '/api/register', { ...student, otp });
    expect(again.status).toBe(409);
  });

  it('answers the welcome-mail call alike for any input, sending nothing and telling nothing', async () => {
    // (Counted for the addresses given: other tests' welcome mails may arrive meanwhile.)
    const to = (address: string) => t.captures.mails.filter((m) => m.to.includes(address)).length;
    const before = to(t.admin.email);
    const answers = await Promise.all(
      [{ email: 'nobody-here@example.com', fullname: 'X' }, { email: t.admin.email }, { email: 42 }, {}].map((body) =>
        t.api('POST', '/api/send-email', body),
      ),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['messageId']);
    }
    await new Promise((r) => setTimeout(r, 1_500));
    expect(to('nobody-here@example.com')).toBe(0);
    expect(to(t.admin.email)).toBe(before);
  });

  // Every rule and its order are tested once, in domain/src/registration.test.ts;
  // here, that the cloud code enforces them and the answer names the field.
  it('enforces the rules on the server and names the field of the first broken one (code 142)', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ fullname: '   ' }, 'Full name is required', 'fullname'],
      [{ email: 'not-an-email' }, 'Please enter a valid email address', 'email'],
      [{ mobile: '12345' }, 'Please enter a valid 10-digit mobile number', 'mobile'],
      [{ password: 'é'.repeat(40), cnfpassword: 'é'.repeat(40) }, 'Password must be at most 64 characters', 'password'],
      [{ cnfpassword: 'different-1' }, 'Passwords do not match', 'cnfpassword'],
      [{ dob: yearsAgo(4) }, 'Student must be at least 5 years old', 'dob'],
      [{ grade: 10 }, 'Grade must be between 1 to 9', 'grade'],
      [{ board: 'IB' }, 'Please select a valid board (CBSE, ICSE, or STATE)', 'board'],
      [{ tmc: false }, 'Please accept terms and conditions', 'tmc'],
      [{ gender: 'Other' }, 'Please select Son or Daughter', 'gender'],
      [{ fullname: '', email: '', tmc: false }, 'Full name is required', 'fullname'],
    ];
    for (const [change, message, field] of cases) {
      const res = await t.api('POST', '/api/register', { ...newStudent(change), otp: '123456' });
      expect({ change, status: res.status, body: res.body }).toEqual({
        change,
        status: 400,
        body: { error: message, code: 142, field },
      });
    }
  });

  it('accepts the age bounds exactly: 5 years old passes', async () => {
    const { result } = await register(t, newStudent({ dob: yearsAgo(5, 2), grade: '1st', board: 'state' }));
    expect(result.status).toBe(201);
  });

  it('answers 3033 and 3034 for a taken e-mail or mobile, and a code request for a taken mobile alike', async () => {
    const { student } = await register(t);
    const sameEmail = await t.api('POST', '/api/register', { ...newStudent({ email: student.email }), otp: '123456' });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ error: 'Email address already registered', code: 3033, field: 'email' });
    const sameMobile = await t.api('POST', '/api/register', {
      ...newStudent({ mobile: student.mobile }),
      otp: '123456',
    });
    expect(sameMobile.body).toEqual({ error: 'Mobile number already registered', code: 3034, field: 'mobile' });
    // Asking for a code for a registered number is answered as for any other
    // (product.md §10); its owner is texted how to log in, with no code.
    // (Its registration code is made an hour old: past the resend cooldown, which holds alike.)
    await t.sql.query(`UPDATE "OneTimeCode" SET "createdAt" = now() - interval '1 hour' WHERE target = $1`, [
      student.mobile,
    ]);
    const sms = await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    expect([sms.status, sms.body]).toEqual([200, { success: true }]);
    const note = t.captures.sms.findLast((m) => m.to === student.mobile);
    expect(note?.message).toBe(
      `This number is already registered with ${PRODUCT_NAME}. Log in with it, or reset your password, at ${t.url}/studentlogin`,
    );
    expect(note?.message).not.toMatch(/\d{6}/);
  });

  it('takes the code as a number too, as a client that keeps codes as numbers sends it', async () => {
    const student = newStudent();
    await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    const code = Number(await smsCode(t, student.mobile));
    const wrong = await t.api('POST', '/api/register', { ...student, otp: code === 999999 ? 100000 : code + 1 });
    expect(wrong.body).toMatchObject({ code: 3040, field: 'otp' });
    for (const otp of [{ $gt: '' }, [code], true, 1.5]) {
      const refused = await t.api('POST', '/api/register', { ...student, otp });
      expect(refused.status, JSON.stringify(otp)).toBe(400);
    }
    const res = await t.api('POST', '/api/register', { ...student, otp: code });
    expect(res.status).toBe(201);
  });

  it('answers 3040 for a wrong code and keeps no student', async () => {
    const student = newStudent();
    await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    const code = await smsCode(t, student.mobile);
    const wrong = String(((Number(code) - 100000 + 1) % 900000) + 100000);
    const res = await t.api('POST', '/api/register', { ...student, otp: wrong });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid OTP. Please try again.', code: 3040, field: 'otp' });
    expect((await t.api('POST', '/api/check-email', { email: student.email })).body.exists).toBe(false);
  });

  it('stores a full name with markup as plain text', async () => {
    const { student, result } = await register(t, newStudent({ fullname: '<img src=x onerror=alert(1)>' }));
    expect(result.status).toBe(201);
    const token = await loginStudent(t, student.email, student.password);
    expect((await t.api('GET', '/api/students/me', undefined, token)).body.fullname).toBe(
      '<img src=x onerror=alert(1)>',
    );
  });

  it('stores a name written with the joiners of an Indian script as it was typed', async () => {
    // Malayalam: a, va, na, virama, ZWJ (the chillu n); then Rao.
    const fullname = '\u0d05\u0d35\u0d28\u0d4d\u200d Rao';
    const { student, result } = await register(t, newStudent({ fullname }));
    expect(result.status).toBe(201);
    const token = await loginStudent(t, student.email, student.password);
    expect((await t.api('GET', '/api/students/me', undefined, token)).body.fullname).toBe(fullname);
  });
});

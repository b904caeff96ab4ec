// Every /api call against the real site: statuses, bodies and error codes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailCode } from '../test-support/captures.ts';
import {
  loginAdmin,
  loginStudent,
  mailTo,
  newStudent,
  register,
  smsCode,
  startTestSite,
  type TestSite,
} from '../test-support/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

function yearsAgo(years: number, days = 0): string {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  d.setDate(d.getDate() + days);
  return d.toISOString().slice(0, 10);
}

describe('health', () => {
  it('answers ok once the database answers', async () => {
    const res = await t.api('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
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
    const mail = await mailTo(t, student.email.toLowerCase(), /Welcome/);
    expect(mail).toContain(student.fullname);
    expect(mail).toContain(`Your enrollment number is ${res.body.id}.`);
    // The seed's client call still answers, and sends nothing more.
    const first = await t.api('POST', '/api/send-email', { email: student.email, fullname: student.fullname });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ messageId: expect.any(String) });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(t.captures.mails.filter((m) => m.to.includes(student.email.toLowerCase()))).toHaveLength(1);
  });

  it('answers the welcome-mail call alike for any input, sending nothing and telling nothing', async () => {
    const before = t.captures.mails.length;
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
    expect(t.captures.mails.length).toBe(before);
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
    const { result } = await register(t, newStudent({ dob: yearsAgo(5, -2), grade: '1st', board: 'state' }));
    expect(result.status).toBe(201);
  });

  it('answers 3033 and 3034 for a taken e-mail or mobile, with the seed messages', async () => {
    const { student } = await register(t);
    const sameEmail = await t.api('POST', '/api/register', { ...newStudent({ email: student.email }), otp: '123456' });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({ error: 'Email address already registered', code: 3033, field: 'email' });
    const sameMobile = await t.api('POST', '/api/register', {
      ...newStudent({ mobile: student.mobile }),
      otp: '123456',
    });
    expect(sameMobile.body).toEqual({ error: 'Mobile number already registered', code: 3034, field: 'mobile' });
    const sms = await t.api('POST', '/api/send-sms', { mobile: student.mobile });
    expect(sms.body.code).toBe(3034);
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

  it('gives an unknown e-mail the same answer and sends no mail', async () => {
    const before = t.captures.mails.length;
    const res = await t.api('POST', '/api/send-email-otp', { email: 'unknown-person@example.com' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(t.captures.mails.length).toBe(before);
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
  it('forgets earlier wrong passwords after a right one', async () => {
    const { student } = await register(t);
    const wrong = () => t.api('POST', '/api/student/login', { identifier: student.email, password: 'wrong-pass-x' });
    for (let i = 0; i < 4; i++) await wrong();
    await loginStudent(t, student.email, student.password);
    for (let i = 0; i < 4; i++) expect((await wrong()).body.code).toBe(3050);
    await loginStudent(t, student.email, student.password);
  });
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
    const tail = await t.api('GET', `/api/users?q=${tag}&skip=1&limit=2`, undefined, token);
    expect(tail.body.map((s: { fullname: string }) => s.fullname)).toEqual([`${tag} Kid 1`, `${tag} Kid 2`]);
    expect((await t.api('GET', `/api/users?q=${tag}&skip=3`, undefined, token)).body).toEqual([]);

    const byMobile = await t.api('GET', `/api/users?q=${made[1]!.mobile.slice(2, 8)}`, undefined, token);
    expect(byMobile.body.map((s: { email: string }) => s.email)).toContain(made[1]!.email);
    const byEmail = await t.api('GET', `/api/users?q=${made[2]!.email.slice(0, 14)}`, undefined, token);
    expect(byEmail.body.map((s: { email: string }) => s.email)).toContain(made[2]!.email);

    const filtered = await t.api('GET', `/api/users?q=${tag}&grade=7&board=icse`, undefined, token);
    expect(filtered.body).toHaveLength(1);

    const regexLike = await t.api('GET', `/api/users?q=${encodeURIComponent('.*')}`, undefined, token);
    expect(regexLike.status).toBe(200);
    expect(regexLike.body).toHaveLength(0);

    for (const bad of ['limit=0', 'limit=501', 'skip=-1', 'sort=password', 'limit=abc']) {
      expect((await t.api('GET', `/api/users?${bad}`, undefined, token)).status).toBe(400);
    }
    const all = await t.api('GET', '/api/users', undefined, token);
    expect(all.body.length).toBeLessThanOrEqual(50);
    expect(all.body.some((s: { email: string }) => s.email === t.admin.email)).toBe(false);
  });

  it('edits a student with the registration rules, keeps fullname and id read-only', async () => {
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
    expect((await t.api('PUT', url, { fullname: 'New Name' }, token)).status).toBe(400);
    expect((await t.api('PUT', url, { id: 99 }, token)).status).toBe(400);
    const takenEmail = await t.api('PUT', url, { email: other.email }, token);
    expect(takenEmail.status).toBe(409);
    expect(takenEmail.body.code).toBe(3033);
    const takenMobile = await t.api('PUT', url, { mobile: other.mobile }, token);
    expect(takenMobile.body.code).toBe(3034);
    expect((await t.api('PUT', '/api/users/doesNotExist', { grade: 3 }, token)).status).toBe(404);

    const list = await t.api('GET', `/api/users?q=${ok.body.email}`, undefined, token);
    expect(list.body[0]).toMatchObject({ grade: 8, board: 'State' });
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

describe('bad input', () => {
  it('answers 400 for malformed JSON, 413 for an oversized body, 400 for wrong types, never 500', async () => {
    const malformed = await t.api('POST', '/api/check-email', '{"email":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: expect.any(String), code: expect.any(Number) });

    const big = await t.api('POST', '/api/check-email', { email: 'a'.repeat(150_000) });
    expect(big.status).toBe(413);

    for (const [route, body] of [
      ['/api/check-email', { email: 42 }],
      ['/api/check-mobile', { mobile: ['9876543210'] }],
      ['/api/send-sms', { mobile: { $gt: '' } }],
      ['/api/register', { ...newStudent(), email: { $ne: null }, otp: '123456' }],
      ['/api/register', { ...newStudent(), otp: 123456 }],
      ['/api/student/login', { identifier: { $ne: 1 }, password: 'x' }],
      ['/api/send-email-otp', { email: true }],
      ['/api/register', [1, 2, 3]],
      ['/api/register', '"just a string"'],
    ] as const) {
      const res = await t.api('POST', route, body);
      expect(res.status, `${route} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${route} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|node_modules/);
    }
    expect((await t.api('GET', '/api/nothing-here')).status).toBe(404);
  });
});

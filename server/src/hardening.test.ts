// The holes of the hardening round, each reproduced as an
// attacker would: the client address comes from X-Forwarded-For, which this
// site trusts from the loopback only (TRUST_PROXY=127.0.0.1), as it would from
// the reverse proxy in front.

import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { solveChallenge } from 'altcha-lib';
import { loginAdmin, loginStudent, mailTo, register, startTestSite, type TestSite } from '../../testing/site.ts';
import { newStudent } from '../../testing/students.ts';
import { purgeEndedSessions } from '@tc/cloud/users/sessions';
import { destroySession } from '@tc/cloud/users/accounts';
import { MASTER, parse } from '@tc/cloud/parse';

let t: TestSite;
let appId: string;
let lastAddress = 10;
const newAddress = () => `198.51.100.${++lastAddress}`;

beforeAll(async () => {
  t = await startTestSite({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_MAX: '5000' });
  appId = t.site.config.appId;
});
afterAll(async () => {
  await t?.stop();
});

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

async function send(
  method: string,
  route: string,
  options: { body?: unknown; from?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.from) headers['x-forwarded-for'] = options.from;
  if (route.startsWith('/parse')) headers['x-parse-application-id'] ??= appId;
  const res = await fetch(`${t.url}${route}`, {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  // Every error body carries its request's id (the X-Request-Id header): compared apart.
  if (body && typeof body === 'object' && 'requestId' in body) {
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
    delete (body as { requestId?: unknown }).requestId;
  }
  return { status: res.status, body, text };
}

const studentLogin = (identifier: string, password: string, from: string, altcha?: string) =>
  send('POST', '/api/student/login', { body: { identifier, password, altcha }, from });
const adminLogin = (email: string, password: string, from: string) =>
  send('POST', '/api/admin/login', { body: { email, password }, from });

describe('failed logins count per account and address (ASVS V6.3)', () => {
  it('locks one address out of one account, and the owner elsewhere still gets in', async () => {
    const { student } = await register(t);
    const attacker = newAddress();
    for (let i = 0; i < 5; i++) {
      expect((await studentLogin(student.email, `wrong-pass-${i}`, attacker)).body.code).toBe(3050);
    }
    const locked = await studentLogin(student.email, student.password, attacker);
    expect(locked.status).toBe(401);
    expect(locked.body).toEqual({ error: expect.any(String), code: 3051 });
    // Spelled as a mobile number, it is the same account.
    expect((await studentLogin(student.mobile, student.password, attacker)).body.code).toBe(3051);

    const owner = await studentLogin(student.email, student.password, newAddress());
    expect(owner.status).toBe(200);
    expect(owner.body.tokenStudent).toEqual(expect.any(String));
  });

  it('counts an IPv6 client by its /64 network: a new address in it is no new budget', async () => {
    const { student } = await register(t);
    const network = `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}`;
    for (let i = 1; i <= 5; i++) {
      expect((await studentLogin(student.email, `wrong-pass-${i}`, `${network}::${i}`)).body.code).toBe(3050);
    }
    expect((await studentLogin(student.email, student.password, `${network}:0:ffff:1234:${99}`)).body.code).toBe(3051);
    // Another network gets in.
    expect((await studentLogin(student.email, student.password, `2001:db8:ffff:${randomInt(0xfff)}::1`)).status).toBe(
      200,
    );
  });

  it("clears an address's wrong tries when it then gets in, and only then", async () => {
    const { student } = await register(t);
    const address = newAddress();
    // Four wrong, one right: the four are forgotten, so four more wrong do not lock.
    for (let i = 0; i < 4; i++) expect((await studentLogin(student.email, `wrong-${i}`, address)).body.code).toBe(3050);
    expect((await studentLogin(student.email, student.password, address)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await studentLogin(student.email, `again-${i}`, address)).body.code).toBe(3050);
    expect((await studentLogin(student.email, student.password, address)).status).toBe(200);
    // A clean login has nothing to clear; the fifth wrong try in a row still locks.
    expect((await studentLogin(student.email, student.password, address)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await studentLogin(student.email, `last-${i}`, address)).body.code).toBe(3050);
    expect((await studentLogin(student.email, student.password, address)).body.code).toBe(3051);
  });

  it('keeps the admin out of the student call, and tries there never count against the admin', async () => {
    const attacker = newAddress();
    for (let i = 0; i < 8; i++) {
      const res = await studentLogin(t.admin.email, i % 2 ? t.admin.password : `wrong-${i}-pass`, attacker);
      expect(res.status).toBe(401);
      expect(res.body.tokenStudent).toBeUndefined();
    }
    const admin = await adminLogin(t.admin.email, t.admin.password, attacker);
    expect(admin.status).toBe(200);
    expect(admin.body.success).toBe(true);
  });

  it('keeps students out of the admin call, and tries there never count against the student', async () => {
    const { student } = await register(t);
    const attacker = newAddress();
    for (let i = 0; i < 7; i++) {
      const res = await adminLogin(student.email, student.password, attacker);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false });
    }
    expect((await studentLogin(student.email, student.password, attacker)).status).toBe(200);
  });

  it('asks for a proof of work once an account is sprayed from many addresses, and takes a solved one once', async () => {
    const { student } = await register(t);
    for (let i = 0; i < 20; i++) await studentLogin(student.email, `spray-pass-${i}`, newAddress());

    const owner = newAddress();
    const asked = await studentLogin(student.email, student.password, owner);
    expect(asked.status).toBe(401);
    expect(asked.body).toEqual({ error: expect.any(String), code: 3052 });

    const challenge = (await send('GET', '/api/login-challenge')).body;
    const solvedProof = async () => {
      const fresh = (await send('GET', '/api/login-challenge')).body;
      const found = await solveChallenge(fresh.challenge, fresh.salt, fresh.algorithm, fresh.maxnumber).promise;
      return Buffer.from(JSON.stringify({ ...fresh, number: found!.number, maxnumber: undefined })).toString('base64');
    };
    expect(challenge).toMatchObject({
      algorithm: 'SHA-256',
      challenge: expect.any(String),
      signature: expect.any(String),
    });
    const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
      .promise;
    const payload = Buffer.from(
      JSON.stringify({ ...challenge, number: solution!.number, maxnumber: undefined }),
    ).toString('base64');
    expect((await studentLogin(student.email, student.password, owner, 'bm90LWEtcHJvb2Y=')).body.code).toBe(3052);
    const solved = await studentLogin(student.email, student.password, owner, payload);
    expect(solved.status).toBe(200);
    // One solution, one login.
    expect((await studentLogin(student.email, student.password, owner, payload)).body.code).toBe(3052);
    // However it is written again: another order or spacing of its JSON, or base64 with a space.
    const { signature, ...rest } = JSON.parse(Buffer.from(payload, 'base64').toString()) as Record<string, unknown>;
    const rewritten = [
      Buffer.from(JSON.stringify({ signature, ...rest }, null, 1)).toString('base64'),
      Buffer.from(`${JSON.stringify({ signature, ...rest })} `).toString('base64'),
      `${payload.slice(0, 8)} ${payload.slice(8)}`,
    ];
    for (const again of rewritten) {
      expect((await studentLogin(student.email, student.password, owner, again)).body.code, again).toBe(3052);
    }

    // A password change checks the current password like a login, with a proof of its own,
    // and ends with a fresh session without asking for another one.
    const nextPassword = `${student.password}-2`;
    const change = (altcha: string) =>
      send('PUT', '/api/students/me/password', {
        body: { currentPassword: student.password, newPassword: nextPassword, altcha },
        from: owner,
        headers: { authorization: `Bearer ${solved.body.tokenStudent}` },
      });
    expect((await change(payload)).body.code).toBe(3052);
    const changed = await change(await solvedProof());
    expect(changed.status).toBe(200);
    expect((await t.api('GET', '/api/students/me', undefined, changed.body.tokenStudent)).status).toBe(200);
  });

  it("closes Parse's own login, however it is spelled", async () => {
    const { student } = await register(t);
    const body = { username: student.email, password: student.password };
    for (const route of ['/parse/login', '/parse/./login', '/parse/x/../LOGIN', '/parse//login', '/parse/%6cogin']) {
      const res = await send('POST', route, { body });
      expect(res.status, route).toBeGreaterThanOrEqual(400);
      expect(res.status, route).toBeLessThan(500);
      expect(res.text).not.toContain('sessionToken');
    }
    for (const path of ['/parse/login', '/parse/./login', '/login', '/parse/batch']) {
      const res = await send('POST', '/parse/batch', { body: { requests: [{ method: 'POST', path, body }] } });
      expect(res.status, path).toBe(403);
      expect(res.text).not.toContain('sessionToken');
    }
    const get = await send(
      'GET',
      `/parse/login?username=${encodeURIComponent(student.email)}&password=${student.password}`,
    );
    expect(get.text).not.toContain('sessionToken');
  });
});

describe('no enumeration', () => {
  it('answers a known and an unknown login alike, lock included', async () => {
    const { student } = await register(t);
    const unknown = `nobody-${Date.now()}@example.com`;
    const attacker = newAddress();
    const known: Answer[] = [];
    const nobody: Answer[] = [];
    for (let i = 0; i < 6; i++) {
      known.push(await studentLogin(student.email, `wrong-pass-${i}`, attacker));
      nobody.push(await studentLogin(unknown, `wrong-pass-${i}`, attacker));
    }
    expect(nobody.map((a) => [a.status, a.body])).toEqual(known.map((a) => [a.status, a.body]));
    expect(known[5]!.body.code).toBe(3051);
  });

  it('answers a reset request for a known and an unknown e-mail alike, cooldown included, with no lookup before the answer', async () => {
    const { student } = await register(t);
    const unknown = `nobody-${Date.now()}@example.com`;
    type Timed = { who: string; status: number; body: { error?: string; code?: number } };
    const answers: Timed[] = [];
    for (let i = 0; i < 4; i++) {
      for (const email of [student.email, unknown]) {
        const res = await send('POST', '/api/send-email-otp', { body: { email } });
        answers.push({ who: email === student.email ? 'known' : 'unknown', ...res });
      }
    }
    const of = (who: string) => answers.filter((a) => a.who === who);
    // The first is sent; the next ones, within the cooldown, are refused with a 429 (product.md §4),
    // for the unknown address as for the known one.
    const shape = (a: Timed) => [a.status, a.body.code, a.body.error?.replace(/\d+/g, 'N')];
    expect(of('known').map(shape)).toEqual(of('unknown').map(shape));
    expect(of('known').map((a) => a.status)).toEqual([200, 429, 429, 429]);
    expect(of('known')[0]!.body).toEqual({ success: true });
    expect(of('known')[1]!.body.error).toMatch(/wait/i);

    // The same work on the request path for both, shown without a clock: with the accounts'
    // table locked, a known address and an unknown one are answered alike, a new code and a
    // refusal within the cooldown, and no request waits on the lock. The account is looked up
    // (and the mail sent) only after the answer. (What this shows: no work on the accounts
    // before the answer; the codes' own table is the same work for both by construction.)
    const other = (await register(t)).student.email;
    const nobody = `nobody-locked-${Date.now()}@example.com`;
    const holder = await t.sql.connect();
    try {
      await holder.query('BEGIN');
      // Not waiting for ever on a lock something else holds: the test fails instead.
      await holder.query(`SET LOCAL lock_timeout = '5s'`);
      await holder.query('LOCK TABLE "_User" IN ACCESS EXCLUSIVE MODE');
      for (const expected of [200, 429]) {
        for (const email of [other, nobody]) {
          const answer = send('POST', '/api/send-email-otp', { body: { email } });
          // A request that looked the account up would wait for the lock as long as it is held:
          // 15 s is only a deadline for that, far beyond any answer's time.
          const stuck = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 15_000).unref());
          const first = await Promise.race([answer, stuck]);
          expect(first, `${email}: the answer waits on the accounts table`).not.toBe('stuck');
          expect((first as Answer).status, email).toBe(expected);
        }
      }
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      holder.release();
    }
    await mailTo(t, other, /reset/i);
    expect(t.captures.mails.filter((m) => m.to.includes(nobody))).toEqual([]);
    // One mail to the first student; none to the unknown address.
    await mailTo(t, student.email, /reset/i);
    await new Promise((r) => setTimeout(r, 300));
    // (The welcome mail of the registration goes to the same address: it is not counted.)
    const resetMails = t.captures.mails.filter((m) => m.to.includes(student.email) && !/Welcome/.test(m.raw));
    expect(resetMails.length).toBe(1);
    expect(t.captures.mails.filter((m) => m.to.includes(unknown))).toEqual([]);
  });
});

describe('bad input at the edge', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  it('answers deep JSON, control characters and odd Parse calls with a 4xx and at most one log line', async () => {
    const { student } = await register(t);
    const token = await loginStudent(t, student.email, student.password);
    const admin = { authorization: `Bearer ${await loginAdmin(t)}` };
    const assessment = { grade: 5, board: 'CBSE', subject: 'English', date: '2026-01-10', maxMarks: 20 };
    const lines: string[] = [];
    const spies = (['log', 'info', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.join(' '))),
    );
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const cases: Array<[string, string, { body?: unknown; headers?: Record<string, string> }]> = [
        ['POST', '/parse/functions/checkEmail', { body: deep(5000) }],
        ['POST', '/api/check-email', { body: deep(5000) }],
        ['POST', '/parse/functions/checkEmail', { body: { email: 'a\u0000b@example.com' } }],
        ['POST', '/api/register', { body: { ...newStudent(), fullname: 'Nul\u0000Name', otp: '123456' } }],
        ['POST', '/api/check-email', { body: { ['e\u0000']: 1, email: 'x@example.com' } }],
        ['GET', '/parse/classes/_User?where=%7B%22a%22%3A%22%00%22%7D', {}],
        ['GET', `/parse/classes/_User?where=${encodeURIComponent(deep(200))}`, {}],
        ['GET', '/api/users?q=%00', {}],
        ['POST', '/parse/batch?x=1', { body: { requests: [] } }],
        ['POST', '/parse/batch', { body: { requests: 'x' } }],
        ['POST', '/parse/upgradeToRevocableSession', { headers: { 'x-parse-session-token': token } }],
        ['POST', '/parse/requestPasswordReset', { body: { email: student.email } }],
        ['POST', '/parse/verifyPassword', { body: { username: student.email, password: 'x' } }],
        // Half a UTF-16 pair: PostgreSQL's jsonb refuses it (the activity log's changes, a queued mail).
        ['POST', '/api/assessments', { body: { ...assessment, title: 'Unit \ud800' }, headers: admin }],
        ['POST', '/api/register', { body: { ...newStudent(), fullname: 'Asha \udc00', otp: '123456' } }],
        // A Parse-typed parameter without its class, in the body or the query; a batch spelled
        // `/batch/`, or as a transaction: each threw inside Parse.
        ['POST', '/parse/functions/checkEmail', { body: { email: { __type: 'Pointer' } } }],
        ['POST', '/parse/functions/checkEmail?email[__type]=Pointer', { body: {} }],
        [
          'POST',
          '/parse/batch',
          {
            body: {
              requests: [
                { method: 'POST', path: '/parse/functions/checkEmail', body: { email: { __type: 'Pointer' } } },
              ],
            },
          },
        ],
        ['POST', '/parse/batch/', { body: { requests: [] } }],
        [
          'POST',
          '/parse/batch',
          {
            body: {
              transaction: true,
              requests: [{ method: 'POST', path: '/parse/functions/getMyProfile', body: {} }],
            },
          },
        ],
      ];
      for (const [method, route, options] of cases) {
        const before = lines.length;
        const res = await send(method, route, options);
        expect(res.status, `${method} ${route}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${route}`).toBeLessThan(500);
        expect(res.body, `${method} ${route}`).toEqual(
          expect.objectContaining({ error: expect.any(String), code: expect.any(Number) }),
        );
        const logged = lines.slice(before).join('').split('\n').filter(Boolean);
        expect(logged.length, `${method} ${route}: ${logged.join(' | ')}`).toBeLessThanOrEqual(1);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
      stdout.mockRestore();
    }
    expect((await t.api('POST', '/api/check-email', { email: 'x@example.com' })).status).toBe(200);
  });
});

describe('smaller holes', () => {
  it('caps the admin search at 100 characters', async () => {
    const token = await loginAdmin(t);
    expect((await t.api('GET', `/api/users?q=${'a'.repeat(100)}`, undefined, token)).status).toBe(200);
    const long = await t.api('GET', `/api/users?q=${'a'.repeat(1000)}`, undefined, token);
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ error: expect.stringContaining('100'), code: 107 });
    const huge = await send('POST', '/parse/functions/listStudents', {
      body: { q: 'a'.repeat(30_000) },
      headers: { 'x-parse-session-token': token },
    });
    expect(huge.status).toBe(400);
  });

  it('refuses look-alike e-mails with invisible characters, and stores names NFKC-normalised', async () => {
    const victim = newStudent();
    const lookAlike = await t.api('POST', '/api/check-email', { email: victim.email.replace('@', '\u200b@') });
    expect(lookAlike.status).toBe(400);
    const { result } = await register(t, { ...victim, email: victim.email.replace('student', 'ｓｔｕｄｅｎｔ') });
    expect(result.status).toBe(201);
    expect((await t.api('POST', '/api/check-email', { email: victim.email })).body.exists).toBe(true);
  });

  it('closes POST /parse/sessions to clients, in a batch too', async () => {
    const { student } = await register(t);
    const token = await loginStudent(t, student.email, student.password);
    const headers = { 'x-parse-session-token': token };
    const minted = await send('POST', '/parse/sessions', { body: {}, headers });
    expect(minted.status).toBe(403);
    expect(minted.text).not.toContain('sessionToken');
    const batch = await send('POST', '/parse/batch', {
      body: { requests: [{ method: 'POST', path: '/parse/./sessions', body: {} }] },
      headers,
    });
    expect(batch.status).toBe(403);
  });

  it("refuses a batch of more than 20 requests whole, a student's own reads too", async () => {
    const { student } = await register(t);
    const token = await loginStudent(t, student.email, student.password);
    const batchOf = (count: number) =>
      send('POST', '/parse/batch', {
        body: {
          requests: Array.from({ length: count }, () => ({ method: 'POST', path: '/parse/functions/getMyProgress' })),
        },
        headers: { 'x-parse-session-token': token },
      });
    const twenty = await batchOf(20);
    expect(twenty.status).toBe(200);
    expect(
      (JSON.parse(twenty.text) as unknown[]).filter((item) => JSON.stringify(item).includes('success')),
    ).toHaveLength(20);
    const more = await batchOf(21);
    expect(more.status).toBe(400);
    expect(more.text).toContain('exceeds the limit of 20');
    expect(more.text).not.toContain('success');
  });

  it("keeps answers with a child's data out of the browser's cache, errors and Parse's answers too", async () => {
    const { student } = await register(t);
    const token = await loginStudent(t, student.email, student.password);
    const cacheControl = async (route: string, init: RequestInit = {}) =>
      (await fetch(`${t.url}${route}`, init)).headers.get('cache-control');
    const bearer = { authorization: `Bearer ${token}` };
    expect(await cacheControl('/api/students/me', { headers: bearer })).toBe('no-store');
    expect(await cacheControl('/api/students/me/progress', { headers: bearer })).toBe('no-store');
    expect(await cacheControl('/api/students/me')).toBe('no-store');
    expect(
      await cacheControl('/parse/functions/getMyProfile', {
        method: 'POST',
        headers: { 'x-parse-application-id': appId, 'x-parse-session-token': token },
      }),
    ).toBe('no-store');
    const feed = (await t.api('GET', '/api/students/me/calendar', undefined, token)).body as { url: string };
    expect(await cacheControl(new URL(feed.url).pathname)).toBe('no-store');
    // The browser's Parse set-up holds no personal data: revalidated, not forbidden.
    expect(await cacheControl('/api/parse-config')).toBe('no-cache');
  });

  it('logs a student out of all devices', async () => {
    const { student } = await register(t);
    const phone = await loginStudent(t, student.email, student.password);
    const laptop = await loginStudent(t, student.email, student.password);
    expect((await t.api('POST', '/api/student/logout-all', undefined, phone)).body).toEqual({ success: true });
    for (const token of [phone, laptop])
      expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
    expect((await t.api('POST', '/api/student/logout-all', undefined, await loginAdmin(t))).status).toBe(403);
  });

  it('logs a student out of all devices however many sessions there are (more than one page of Parse)', async () => {
    const { student } = await register(t);
    const phone = await loginStudent(t, student.email, student.password);
    // 600 more sessions, as 600 logins would leave (Parse answers at most 500 rows a query).
    await t.sql.query(
      `INSERT INTO "_Session" ("objectId", "sessionToken", "user", "createdAt", "updatedAt", "expiresAt", "createdWith")
       SELECT 'x' || md5(random()::text || n), 'r:' || md5(random()::text || n), s."user", now(), now(), s."expiresAt", s."createdWith"
       FROM "_Session" s, generate_series(1, 600) n WHERE s."sessionToken" = $1`,
      [phone],
    );
    const user = (await t.sql.query(`SELECT "user" FROM "_Session" WHERE "sessionToken" = $1`, [phone])).rows[0].user;
    const sessionsLeft = async () =>
      (await t.sql.query(`SELECT count(*)::int AS n FROM "_Session" WHERE "user" = $1`, [user])).rows[0].n as number;
    expect(await sessionsLeft()).toBe(601);
    expect((await t.api('POST', '/api/student/logout-all', undefined, phone)).body).toEqual({ success: true });
    expect(await sessionsLeft()).toBe(0);
  });

  it('ends idle and old sessions, sooner for admins', async () => {
    const { student } = await register(t);
    const studentToken = await loginStudent(t, student.email, student.password);
    const adminToken = await loginAdmin(t);
    const age = (token: string, interval: string) =>
      t.sql.query(`UPDATE "_Session" SET "createdAt" = now() - $2::interval WHERE "sessionToken" = $1`, [
        token,
        interval,
      ]);
    // 31 minutes without use: the admin is out (30 minutes idle), the student is not.
    await age(studentToken, '31 minutes');
    await age(adminToken, '31 minutes');
    expect((await t.api('GET', '/api/students/me', undefined, studentToken)).status).toBe(200);
    expect((await t.api('GET', '/api/admin/me', undefined, adminToken)).status).toBe(401);
    expect((await t.api('GET', '/api/admin/me', undefined, adminToken)).status).toBe(401);

    // Used a moment ago but 31 days old: out all the same.
    await age(studentToken, '31 days');
    expect((await t.api('GET', '/api/students/me', undefined, studentToken)).status).toBe(401);

    // A student's session unused for four hours has ended (a tab a child left on a shared
    // computer, reopened from the browser's history by the next person).
    const left = await loginStudent(t, student.email, student.password);
    await t.sql.query(
      `UPDATE "_Session" SET "createdAt" = now() - interval '5 hours', "lastUsedAt" = now() - interval '241 minutes'
       WHERE "sessionToken" = $1`,
      [left],
    );
    expect((await t.api('GET', '/api/students/me', undefined, left)).status).toBe(401);
  });

  it('takes a session that another call deleted first as gone, not as a failure (Parse says 404)', async () => {
    const { student } = await register(t);
    const token = await loginStudent(t, student.email, student.password);
    // Read by one call, then deleted by another before the first deletes it.
    const Parse = parse();
    const session = (await new Parse.Query(Parse.Session).equalTo('sessionToken', token).first(MASTER))!;
    await t.sql.query(`DELETE FROM "_Session" WHERE "sessionToken" = $1`, [token]);
    await expect(destroySession(session)).resolves.toBeUndefined();
    expect((await t.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
  });

  it('deletes sessions past every limit that nobody presents again (a tab closed without logging out)', async () => {
    const { student } = await register(t);
    const token = (who: string) => loginStudent(t, who, student.password);
    const [kept, idle, old] = [await token(student.email), await token(student.email), await token(student.mobile)];
    await t.sql.query(`UPDATE "_Session" SET "lastUsedAt" = now() - interval '5 hours' WHERE "sessionToken" = $1`, [
      idle,
    ]);
    await t.sql.query(
      `UPDATE "_Session" SET "createdAt" = now() - interval '31 days', "lastUsedAt" = now() WHERE "sessionToken" = $1`,
      [old],
    );
    const deps = {
      sql: async (text: string, params?: unknown[]) => (await t.sql.query(text, params)).rows,
      sessions: t.site.config.sessions,
    } as Parameters<typeof purgeEndedSessions>[0];
    expect(await purgeEndedSessions(deps)).toBeGreaterThanOrEqual(2);
    const left = await t.sql.query(`SELECT "sessionToken" AS token FROM "_Session" WHERE "sessionToken" = ANY($1)`, [
      [kept, idle, old],
    ]);
    expect(left.rows.map((row: { token: string }) => row.token)).toEqual([kept]);
  });

  it('keeps a session in use alive: each call (at most once a minute) counts as its last use', async () => {
    const adminToken = await loginAdmin(t);
    const lastUsed = async () =>
      (await t.sql.query(`SELECT "lastUsedAt" AS at FROM "_Session" WHERE "sessionToken" = $1`, [adminToken])).rows[0]
        ?.at as Date | undefined;
    // Made two hours ago and used 20 minutes ago: within the admin's 30 idle minutes.
    await t.sql.query(
      `UPDATE "_Session" SET "createdAt" = now() - interval '2 hours', "lastUsedAt" = now() - interval '20 minutes'
       WHERE "sessionToken" = $1`,
      [adminToken],
    );
    expect((await t.api('GET', '/api/admin/me', undefined, adminToken)).status).toBe(200);
    expect(Date.now() - (await lastUsed())!.getTime()).toBeLessThan(60_000);
    // Used a moment ago: another call writes nothing.
    const before = (await lastUsed())!.getTime();
    expect((await t.api('GET', '/api/admin/me', undefined, adminToken)).status).toBe(200);
    expect((await lastUsed())!.getTime()).toBe(before);
    // 31 minutes since that use: out, and the session is gone.
    await t.sql.query(`UPDATE "_Session" SET "lastUsedAt" = now() - interval '31 minutes' WHERE "sessionToken" = $1`, [
      adminToken,
    ]);
    expect((await t.api('GET', '/api/admin/me', undefined, adminToken)).status).toBe(401);
    expect(await lastUsed()).toBeUndefined();
  });

  it("answers /parse CORS for the site's own origin only", async () => {
    const preflight = (origin: string) =>
      fetch(`${t.url}/parse/functions/checkEmail`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    const own = new URL(t.url).origin;
    expect((await preflight(own)).headers.get('access-control-allow-origin')).toBe(own);
    const evil = (await preflight('https://evil.example')).headers.get('access-control-allow-origin');
    expect(evil).not.toBe('*');
    expect(evil).not.toBe('https://evil.example');
  });

  it('accepts the full master key from the loopback only', async () => {
    const masterKey = t.site.config.masterKey;
    const local = await send('GET', '/parse/classes/_User?limit=1', { headers: { 'x-parse-master-key': masterKey } });
    expect(local.status).toBe(200);
    const remote = await send('GET', '/parse/classes/_User?limit=1', {
      headers: { 'x-parse-master-key': masterKey },
      from: newAddress(),
    });
    expect(remote.status).toBe(403);
    expect(remote.text).not.toContain('@example.com');
  });
});

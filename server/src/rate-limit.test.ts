// Per-address limits are counted where each operation runs, so no spelling of a
// path (/api, /parse, dot segments, encodings, case, batches) reaches an
// operation past its counter; requests from 127.0.0.1 count too.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, LIMIT_OF_FUNCTION } from '@tc/domain/api/contract';
import { ErrorCode } from '@tc/domain/errors';
import { logIn } from '../../testing/dashboard.ts';
import { startTestSite, type TestSite } from '../../testing/site.ts';
import { newStudent } from '../../testing/students.ts';

const MAX = 3;
let t: TestSite;
beforeAll(async () => {
  // A proxy on the loopback: a test that names an address of its own has counts of its own.
  t = await startTestSite({ RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_S: '600', TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await t?.stop();
});

async function parse(route: string, body: unknown) {
  const res = await fetch(`${t.url}${route}`, {
    method: 'POST',
    headers: { 'X-Parse-Application-Id': t.site.config.appId, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** What the function answers when it runs: a result, or an error of its own rules (not a limit, not a refusal). */
function ran(answer: { status: number; body: unknown }): boolean {
  const texts = JSON.stringify(answer.body);
  return answer.status === 200 && !texts.includes(`"code":${ErrorCode.TooManyRequests}`) && !texts.includes('"error"');
}

describe('per-address limits', () => {
  it('give every call of the contract a limit group, and every sensitive one a counted group', () => {
    for (const spec of Object.values(CALLS)) {
      if (spec.fn) expect(LIMIT_OF_FUNCTION[spec.fn], spec.fn).toBeDefined();
    }
    expect(CALLS.sendRegistrationCode.limit).toBe('send-code');
    expect(CALLS.registerStudent.limit).toBe('check-code');
    expect(CALLS.loginStudent.limit).toBe('login');
    expect(CALLS.loginAdmin.limit).toBe('login');
    expect(CALLS.checkEmail.limit).toBe('lookup');
    expect(CALLS.sendWelcomeEmail.limit).toBe('lookup');
  });

  it('count every spelling of a path, batches included, once the window is spent', async () => {
    const email = 'someone@example.com';
    for (let i = 0; i < MAX; i++) expect((await t.api('POST', '/api/check-email', { email })).status).toBe(200);

    const spellings = [
      '/parse/functions/checkEmail',
      '/parse/./functions/checkEmail',
      '/parse/x/../functions/checkEmail',
      '/parse/functions/./checkEmail',
      '/parse//functions/checkEmail',
      '/parse/functions//checkEmail',
      '/parse/FUNCTIONS/checkEmail',
      '/parse/functions/checkEmail/',
      '/parse/%2e/functions/checkEmail',
      '/parse/functions%2FcheckEmail',
      '/parse/functions/checkMobile',
    ];
    for (const route of spellings) {
      const answer = await parse(route, { email, mobile: '9876543210' });
      expect(ran(answer), `${route}: ${JSON.stringify(answer)}`).toBe(false);
    }
    // Refused on /parse as on /api: 429 with the error text.
    const onParse = await parse('/parse/functions/checkEmail', { email });
    expect(onParse.status).toBe(429);
    expect(onParse.body).toEqual({ code: ErrorCode.TooManyRequests, error: expect.stringMatching(/\w/) });
    // With the seconds until the 600-second window lets a call through again.
    expect(Number(onParse.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(Number(onParse.headers.get('retry-after'))).toBeLessThanOrEqual(600);

    for (const path of ['/parse/functions/checkEmail', '/parse/./functions/checkEmail', '/functions/checkEmail']) {
      const batch = await parse('/parse/batch', { requests: [{ method: 'POST', path, body: { email } }] });
      expect(JSON.stringify(batch.body), path).not.toContain('"success"');
    }
    const nested = await parse('/parse/batch', {
      requests: [
        {
          method: 'POST',
          path: '/parse/batch',
          body: { requests: [{ method: 'POST', path: '/parse/functions/checkEmail', body: { email } }] },
        },
      ],
    });
    expect(JSON.stringify(nested.body)).not.toContain('"exists"');

    const refused = await t.api('POST', '/api/check-mobile', { mobile: '9876543210' });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.any(String), code: ErrorCode.TooManyRequests });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(600);
  });

  it('count the calls of one group across /api and Parse, and a batch counts each of its calls', async () => {
    const statuses = [];
    statuses.push((await t.api('POST', '/api/send-sms', { mobile: newStudent().mobile })).status);
    const batch = await parse('/parse/batch', {
      requests: [
        { method: 'POST', path: '/parse/functions/sendRegistrationCode', body: { mobile: newStudent().mobile } },
        { method: 'POST', path: '/parse/./functions/sendResetCode', body: { email: 'a@example.com' } },
      ],
    });
    statuses.push(batch.status);
    expect(statuses).toEqual([200, 200]);
    expect((batch.body as unknown as unknown[]).every((item) => JSON.stringify(item).includes('success'))).toBe(true);

    const batchOverLimit = await parse('/parse/batch', {
      requests: Array.from({ length: 5 }, () => ({
        method: 'POST',
        path: '/parse/functions/sendRegistrationCode',
        body: { mobile: newStudent().mobile },
      })),
    });
    const sent = (batchOverLimit.body as unknown as unknown[]).filter((item) =>
      JSON.stringify(item).includes('"success"'),
    );
    expect(sent).toHaveLength(0);
    expect((await t.api('POST', '/api/send-email-otp', { email: 'someone@example.com' })).status).toBe(429);
  });

  it('limit logins; Parse login and other Parse REST paths are closed to clients', async () => {
    for (let i = 0; i < MAX; i++) {
      const answer = await t.api('POST', '/api/student/login', { identifier: 'a@b.co', password: 'wrong-pass' });
      expect(answer.status).toBe(401);
    }
    expect((await t.api('POST', '/api/admin/login', { email: 'a@b.co', password: 'x' })).status).toBe(429);
    for (const route of [
      '/parse/login',
      '/parse/./login',
      '/parse/verifyPassword',
      '/parse/users',
      '/parse/sessions',
    ]) {
      const answer = await parse(route, { username: 'a@b.co', password: 'x' });
      expect(answer.status, route).toBeGreaterThanOrEqual(400);
      expect(answer.status, route).toBeLessThan(500);
      expect(answer.body.sessionToken, route).toBeUndefined();
    }
  });

  it("count the Parse Dashboard's login in the login group, with the site's logins", async () => {
    const from = '203.0.113.41';
    const adminLogin = () =>
      fetch(`${t.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ email: 'a@b.co', password: 'wrong-pass' }),
      });
    for (let i = 0; i < MAX - 1; i++) expect((await adminLogin()).status).toBe(401);
    // The last try of the window, at the dashboard: answered by the dashboard (its login page again).
    const wrong = await logIn(t, 'a@b.co', 'wrong-pass', from);
    expect(wrong.status).toBe(302);
    expect(wrong.location).toMatch(/login/);
    // The next, at either login, is refused, whoever's password it brings.
    const refused = await logIn(t, t.site.config.dashboard.user, t.admin.password, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await adminLogin()).status).toBe(429);
    // Another address has its own window.
    expect((await logIn(t, 'a@b.co', 'wrong-pass', '203.0.113.42')).status).toBe(302);
  });

  it('leave other calls alone', async () => {
    expect((await t.api('GET', '/api/health')).status).toBe(200);
  });
});

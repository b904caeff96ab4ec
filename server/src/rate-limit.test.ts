// Per-IP limits answer 429, from 127.0.0.1 too, on /api and on the Parse paths
// that reach the same functions (product.md §4).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStudent, startTestSite, type TestSite } from './test-support/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_S: '600' });
});
afterAll(async () => {
  await t?.stop();
});

function parse(route: string, body: unknown) {
  return fetch(`${t.url}/parse${route}`, {
    method: 'POST',
    headers: { 'X-Parse-Application-Id': t.site.config.appId, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('per-IP rate limits', () => {
  it('limits sending codes across /api and /parse', async () => {
    const statuses = [];
    for (let i = 0; i < 2; i++)
      statuses.push((await t.api('POST', '/api/send-sms', { mobile: newStudent().mobile })).status);
    statuses.push((await parse('/functions/sendRegistrationCode', { mobile: newStudent().mobile })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await t.api('POST', '/api/send-email-otp', { email: 'someone@example.com' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual(expect.any(String));
    expect((await parse('/FUNCTIONS/sendResetCode/', { email: 'someone@example.com' })).status).toBe(429);
  });

  it('limits logging in, Parse login included', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await t.api('POST', '/api/student/login', { identifier: 'a@b.co', password: 'wrong-pass' })).status).toBe(
        401,
      );
    }
    expect((await t.api('POST', '/api/admin/login', { email: 'a@b.co', password: 'x' })).status).toBe(429);
    expect((await parse('/login', { username: 'a@b.co', password: 'x' })).status).toBe(429);
  });

  it('limits checking codes, through a Parse batch too', async () => {
    const body = { ...newStudent(), otp: '123456' };
    for (let i = 0; i < 3; i++) expect((await t.api('POST', '/api/register', body)).status).toBe(400);
    expect(
      (await t.api('PUT', '/api/users/update-password', { email: 'a@b.co', otp: '1', newPassword: 'x' })).status,
    ).toBe(429);
    const batch = await parse('/batch', {
      requests: [{ method: 'POST', path: '/parse/functions/registerStudent', body }],
    });
    expect(batch.status).toBe(429);
  });

  it('leaves other calls alone', async () => {
    expect((await t.api('GET', '/api/health')).status).toBe(200);
  });
});

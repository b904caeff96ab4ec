// No path, Parse REST included, lets a caller without the master key create a
// student without a code, read or list students, touch the codes or the schema,
// or change a password without a code.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAdmin, loginStudent, register, startTestSite, type TestSite } from '../../testing/site.ts';
import { newStudent, type NewStudent } from '../../testing/students.ts';

let t: TestSite;
let appId: string;
let student: NewStudent;
let studentId: string;
let token: string;

beforeAll(async () => {
  t = await startTestSite();
  appId = t.site.config.appId;
  const made = await register(t);
  student = made.student;
  studentId = made.result.body.objectId;
  token = await loginStudent(t, student.email, student.password);
});
afterAll(async () => {
  await t?.stop();
});

async function parseRest(method: string, route: string, body?: unknown, sessionToken?: string) {
  const headers: Record<string, string> = { 'X-Parse-Application-Id': appId, 'content-type': 'application/json' };
  if (sessionToken) headers['X-Parse-Session-Token'] = sessionToken;
  const res = await fetch(`${t.url}/parse${route}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text || '{}') };
}

/** Refused by Parse itself: outside the routes clients may use (docs/decisions/0010), or by permissions. */
function expectRefused(res: { status: number; body: { code?: number } }) {
  expect(res.status).toBe(400);
  expect(res.body.code).toBe(119); // Parse.Error.OPERATION_FORBIDDEN
}

describe('Parse REST is locked down', () => {
  it('refuses to create a user by sign-up', async () => {
    const res = await parseRest('POST', '/users', {
      username: 'x@example.com',
      password: 'secret-123',
      mobile: '9000000001',
    });
    expectRefused(res);
    expect((await t.api('POST', '/api/check-email', { email: 'x@example.com' })).body.exists).toBe(false);
  });

  it('refuses to list or read students, anonymously or as a student', async () => {
    for (const sessionToken of [undefined, token]) {
      const list = await parseRest('GET', '/users', undefined, sessionToken);
      expectRefused(list);
      expect(list.text).not.toContain(student.email);
      const classes = await parseRest('GET', '/classes/_User', undefined, sessionToken);
      expect(classes.text).not.toContain(student.email);
    }
    const other = await register(t);
    const read = await parseRest('GET', `/users/${other.result.body.objectId}`, undefined, token);
    expectRefused(read);
    expect(read.text).not.toContain(other.student.email);
    const query = await parseRest(
      'GET',
      `/classes/_User?where=${encodeURIComponent('{"mobile":{"$exists":true}}')}`,
      undefined,
      token,
    );
    expect(query.text).not.toContain(other.student.mobile);
  });

  it('refuses a password change, or any change, without a code', async () => {
    const res = await parseRest('PUT', `/users/${studentId}`, { password: 'hijacked-123', grade: 9 }, token);
    expectRefused(res);
    await loginStudent(t, student.email, student.password);
    expect((await t.api('GET', '/api/students/me', undefined, token)).body.grade).toBe(4);
  });

  it('refuses to make anyone an admin', async () => {
    const roles = await parseRest('GET', '/roles', undefined, token);
    expect(roles.text).not.toContain('"admin"');
    const create = await parseRest('POST', '/roles', { name: 'admin2', ACL: { '*': { read: true } } }, token);
    expectRefused(create);
    expect((await t.api('GET', '/api/users', undefined, token)).status).toBe(403);
  });

  it('refuses to read or write the code store', async () => {
    await t.api('POST', '/api/send-sms', { mobile: newStudent().mobile });
    const read = await parseRest('GET', '/classes/OneTimeCode', undefined, token);
    expectRefused(read);
    const write = await parseRest('POST', '/classes/OneTimeCode', {
      purpose: 'register',
      target: '9000000000',
      codeHash: 'x',
    });
    expectRefused(write);
  });

  it('refuses installations and the legacy purchase API', async () => {
    const installation = await parseRest('POST', '/installations', { deviceType: 'web', installationId: 'x-1' });
    expectRefused(installation);
    expectRefused(await parseRest('POST', '/validate_purchase', { productIdentifier: 'x' }));
  });

  it('refuses /parse/schemas and new classes', async () => {
    expectRefused(await parseRest('GET', '/schemas'));
    expectRefused(await parseRest('POST', '/schemas/Hack', { className: 'Hack' }));
    expectRefused(await parseRest('POST', '/classes/Hack', { a: 1 }));
  });

  it('refuses to register through the cloud function without a valid code', async () => {
    const someone = newStudent();
    const res = await parseRest('POST', '/functions/registerStudent', { ...someone, otp: '123456' });
    expect(res.body.code).toBe(3040);
    const batch = await parseRest('POST', '/batch', {
      requests: [{ method: 'POST', path: '/parse/functions/registerStudent', body: { ...someone, otp: '654321' } }],
    });
    expect(batch.text).not.toContain('objectId');
    expect((await t.api('POST', '/api/check-email', { email: someone.email })).body.exists).toBe(false);
  });

  it('answers the cloud functions with the same codes as /api', async () => {
    const res = await parseRest('POST', '/functions/checkEmail', { email: student.email });
    expect(res.body).toEqual({ result: { exists: true } });
    const admin = await parseRest('POST', '/functions/listStudents', {}, token);
    expect(admin.body.code).toBe(119);
  });

  it('keeps the admin table and profile behind the admin role', async () => {
    const adminToken = await loginAdmin(t);
    expect((await t.api('GET', '/api/users', undefined, adminToken)).status).toBe(200);
    expect((await t.api('GET', '/api/students/me', undefined, adminToken)).status).toBe(403);
  });

  it('serves Parse Dashboard only behind its login', async () => {
    const res = await fetch(`${t.url}/parse-dashboard/apps`, { redirect: 'manual' });
    expect([301, 302, 303]).toContain(res.status);
    expect(res.headers.get('location')).toMatch(/login/);
    const config = await fetch(`${t.url}/parse-dashboard/parse-dashboard-config.json`);
    expect(await config.text()).not.toContain(t.site.config.masterKey);
  });

  it('sends security headers and a strict content security policy', async () => {
    const res = await fetch(`${t.url}/api/health`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
    // Parse's own answers too (an Express app of its own).
    const parseAnswer = await fetch(`${t.url}/parse/functions/checkEmail`, { method: 'POST' });
    expect(parseAnswer.status).toBeGreaterThanOrEqual(400);
    expect(parseAnswer.headers.get('x-powered-by')).toBeNull();
    // Reached over http:// (development): no HSTS, which would pin nothing but mislead.
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

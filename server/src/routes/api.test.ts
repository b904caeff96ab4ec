// The /api facade on the real site: routing, status codes and the error body's
// shape. Each call's behaviour is tested beside its cloud function
// (cloud/src/<feature>/*.test.ts); the OpenAPI document in openapi.unit.test.ts.

import { randomBytes } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PATH } from '@tc/domain/admin-tools';
import { CALLS, type CallSpec } from '@tc/domain/api/contract';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import {
  loginAdmin,
  loginStudent,
  register,
  startTestSite,
  type ApiResponse,
  type TestSite,
} from '../../../testing/site.ts';
import { newStudent } from '../../../testing/students.ts';
import { openApiDocument } from './openapi.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

describe('health', () => {
  it('answers ok once the database answers', async () => {
    const res = await t.api('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

type Documented = { content?: Record<string, { schema: object }> };
const documentedPaths = (
  openApiDocument() as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, Documented> }>>;
  }
).paths;
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/** Fails unless the answer's status is among the call's documented ones and its body fits that status's schema. */
function expectDocumented(method: string, path: string, res: ApiResponse, what: string) {
  const answer = documentedPaths[path]?.[method.toLowerCase()]?.responses[String(res.status)];
  expect(answer, `${what}: this status is not in the OpenAPI document`).toBeDefined();
  // t.api takes the requestId out of an error body (after checking it is the X-Request-Id).
  const body = res.requestId === undefined ? res.body : { ...res.body, requestId: res.requestId };
  const schema = answer!.content?.['application/json']?.schema;
  expect(schema, `${what}: no JSON body documented`).toBeDefined();
  expect(ajv.validate(schema!, body), `${what}: ${ajv.errorsText()}`).toBe(true);
}

/** Calls a contract call with a value no record has in its path parameters and an empty body; `what` names it for a failure. */
async function callWithNoRecord(name: string, spec: CallSpec, token?: string) {
  const route = spec.path.replace(/\{[^}]+\}/g, 'none-such');
  const res = await t.api(spec.method, route, spec.input === 'body' ? {} : undefined, token);
  return { res, what: `${name}: ${spec.method} ${route} -> ${res.status} ${JSON.stringify(res.body)}` };
}

describe('routing', () => {
  it('routes every call of the contract table: no 404, no 500, and every refusal is {error, code}', async () => {
    for (const [name, spec] of Object.entries(CALLS)) {
      // No token, an empty body.
      const { res, what } = await callWithNoRecord(name, spec);
      if (spec.auth !== 'none') expect(res.status, what).toBe(401);
      expect(res.status, what).not.toBe(404);
      expect(res.status, what).toBeLessThan(500);
      if (res.status >= 400) {
        expect(res.body, what).toMatchObject({ error: expect.any(String), code: expect.any(Number) });
      }
      expectDocumented(spec.method, spec.path, res, what);
    }
  });

  it('answers 401 with code 209 to a session token that no session has, on every call that needs one', async () => {
    const madeUp = `r:${randomBytes(16).toString('hex')}`;
    for (const [name, spec] of Object.entries(CALLS)) {
      if (spec.auth === 'none') continue;
      const { res, what } = await callWithNoRecord(name, spec, madeUp);
      expect(res.status, what).toBe(401);
      expect(res.body, what).toMatchObject({ error: ServerMessage.sessionInvalid, code: ErrorCode.InvalidSession });
      expectDocumented(spec.method, spec.path, res, what);
    }
  });
});

describe('bad input', () => {
  it('answers 400 for malformed JSON, 413 for an oversized body, 400 for wrong types, never 500', async () => {
    const malformed = await t.api('POST', '/api/check-email', '{"email":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: ServerMessage.malformedJson, code: expect.any(Number) });
    // JSON, but not an object: said as such.
    for (const bare of ['null', '5', '"x"', '[1]']) {
      const answer = await t.api('POST', '/api/check-email', bare);
      expect(answer.status, bare).toBe(400);
      expect(answer.body, bare).toEqual({ error: ServerMessage.bodyNotObject, code: expect.any(Number) });
    }

    const big = await t.api('POST', '/api/check-email', { email: 'a'.repeat(150_000) });
    expect(big.status).toBe(413);
    // Whatever the body's type.
    const bigText = await fetch(`${t.url}/api/check-email`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'a'.repeat(150_000),
    });
    expect(bigText.status).toBe(413);
    expect(await bigText.json()).toMatchObject({
      error: ServerMessage.payloadTooLarge,
      code: ErrorCode.PayloadTooLarge,
    });
    // Also when it comes in chunks, without a Content-Length.
    const chunks = (size: number) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let sent = 0; sent < size; sent += 10_000) controller.enqueue(new Uint8Array(10_000).fill(97));
          controller.close();
        },
      });
    const chunkedText = await fetch(`${t.url}/api/check-email`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: chunks(150_000),
      duplex: 'half',
    });
    expect(chunkedText.status).toBe(413);
    expect(await chunkedText.json()).toMatchObject({ code: ErrorCode.PayloadTooLarge });
    // Under the limit, a body of another type is refused: it is not the call's input.
    const smallText = await fetch(`${t.url}/api/check-email`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: chunks(20_000),
      duplex: 'half',
    });
    expect(smallText.status).toBe(415);
    // Written as every error is: with the request's id, and never cached.
    expect(await smallText.json()).toEqual({
      error: ServerMessage.jsonOnly,
      code: ErrorCode.BadRequest,
      requestId: smallText.headers.get('x-request-id'),
    });
    expect(smallText.headers.get('cache-control')).toBe('no-store');
    // JSON in another charset, or compressed in a way the site does not read: the same words.
    for (const headers of [
      { 'content-type': 'application/json; charset=iso-8859-1' } as Record<string, string>,
      { 'content-type': 'application/json', 'content-encoding': 'compress' },
    ]) {
      const other = await fetch(`${t.url}/api/check-email`, { method: 'POST', headers, body: '{"email":"a@b.c"}' });
      expect(other.status, JSON.stringify(headers)).toBe(415);
      expect(await other.json()).toMatchObject({ error: ServerMessage.jsonOnly, code: ErrorCode.BadRequest });
    }
    // The two calls whose every failure carries success:false (product.md §5 rows 10, 11) keep
    // it when the body is refused before they run; the others have no such field.
    for (const [method, route] of [
      ['POST', '/api/admin/login'],
      ['PUT', '/api/users/update-password'],
      ['POST', '/api/check-email'],
    ] as const) {
      for (const [type, body] of [
        ['application/json', '{"email":'],
        ['text/plain', 'hello'],
      ] as const) {
        const refused = await fetch(`${t.url}${route}`, { method, headers: { 'content-type': type }, body });
        expect([400, 415], `${route} ${type}`).toContain(refused.status);
        const answer = (await refused.json()) as Record<string, unknown>;
        if (route === '/api/check-email') expect(answer, `${route} ${type}`).not.toHaveProperty('success');
        else expect(answer, `${route} ${type}`).toMatchObject({ success: false, code: ErrorCode.BadRequest });
      }
    }
    // JSON sent as a form or as text is refused too, not read as no body (which answered
    // an edit with 200 and nothing changed); a call with no body at all is as before.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const edit = await fetch(`${t.url}/api/check-email`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify({ email: 'someone@example.com' }),
      });
      expect(edit.status, type).toBe(415);
    }
    expect((await fetch(`${t.url}/api/check-email`, { method: 'POST' })).status).toBe(400);

    for (const [route, body] of [
      ['/api/check-email', { email: 42 }],
      ['/api/check-mobile', { mobile: ['9876543210'] }],
      ['/api/send-sms', { mobile: { $gt: '' } }],
      ['/api/register', { ...newStudent(), email: { $ne: null }, otp: '123456' }],
      ['/api/register', { ...newStudent(), otp: { $gt: '' } }],
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

describe('the OpenAPI document against the answers', () => {
  it("documents a student's refusal on every admin call and an admin's on every student call, the export's, and an unknown feed", async () => {
    const { student } = await register(t);
    const studentToken = await loginStudent(t, student.email, student.password);
    const adminToken = await loginAdmin(t);
    for (const [name, spec] of Object.entries(CALLS)) {
      if (spec.auth !== 'admin' && spec.auth !== 'student') continue;
      const { res, what } = await callWithNoRecord(name, spec, spec.auth === 'admin' ? studentToken : adminToken);
      expect(res.status, what).toBe(403);
      expectDocumented(spec.method, spec.path, res, what);
    }
    for (const token of [undefined, studentToken]) {
      const refused = await t.api('GET', EXPORT_PATH, undefined, token);
      expect(refused.status).toBe(token ? 403 : 401);
      expectDocumented('GET', EXPORT_PATH, refused, `the export ${token ? 'as a student' : 'without a session'}`);
    }
    const feed = await t.api('GET', `/api/calendar/${randomBytes(24).toString('base64url')}.ics`);
    expect(feed.status).toBe(404);
    expect(feed.requestId).toBe(feed.headers.get('x-request-id'));
    expectDocumented('GET', '/api/calendar/{token}.ics', feed, 'an unknown feed');
  });
});

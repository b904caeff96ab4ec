// Request logs and metrics (issue 17): 1,000 requests of every kind, carrying
// passwords, codes, tokens and e-mails, leave one JSON line each and no secret
// in the log; the request id travels in a header and in error bodies; /metrics
// is refused beyond the loopback without the token and parses as Prometheus text.

import { randomBytes, randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { mailCode } from '../../../testing/codes.ts';
import { loginAdmin, loginStudent, mailTo, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import type { NewStudent } from '../../../testing/students.ts';
import { until } from '../../../testing/until.ts';

const METRICS_TOKEN = randomBytes(24).toString('base64url');
const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    callback();
  },
});
let t: TestSite;

beforeAll(async () => {
  t = await startTestSite(
    { RATE_LIMIT_MAX: '100000', TRUST_PROXY: '1', METRICS_TOKEN },
    { logger: createLogger('info', capture) },
  );
});

afterAll(async () => {
  await t.stop();
});

describe('request logs', () => {
  it('log 1,000 requests of every kind, one JSON line each, and no password, code, token or e-mail', async () => {
    const secrets: string[] = [];
    const codes: string[] = [];
    const keep = (value: string) => (secrets.push(value), value);

    const students: Array<NewStudent> = [];
    for (let i = 0; i < 4; i++) {
      const { student, result } = await register(t);
      expect(result.status).toBe(201);
      keep(student.email);
      keep(student.password);
      keep(student.mobile);
      students.push(student);
    }
    codes.push(...t.captures.sms.map((s) => s.message.match(/\d{6}/)![0]));
    const tokens = await Promise.all(students.map((s) => loginStudent(t, s.email, s.password)));
    tokens.forEach(keep);
    const admin = keep(await loginAdmin(t));
    keep(t.admin.password);
    keep(t.admin.email);
    // A calendar feed's address is its secret: the path of its requests must not carry it.
    const feedUrl = (await t.api('GET', '/api/students/me/calendar', undefined, tokens[0])).body.url as string;
    keep(/\/api\/calendar\/([\w-]+)\.ics$/.exec(feedUrl)![1]!);

    // A password reset with a real code.
    const resetStudent = students[0]!;
    expect((await t.api('POST', '/api/send-email-otp', { email: resetStudent.email })).status).toBe(200);
    const resetCode = mailCode(await mailTo(t, resetStudent.email, /code|OTP/i));
    codes.push(resetCode);
    const newPassword = keep(`new-pass-${randomBytes(6).toString('hex')}`);
    const reset = await t.api('PUT', '/api/users/update-password', {
      email: resetStudent.email,
      otp: resetCode,
      newPassword,
    });
    expect(reset.status).toBe(200);

    const appId = t.site.config.appId;
    const kinds: Array<(i: number) => Promise<unknown>> = [
      (i) =>
        t.api('POST', '/api/student/login', {
          identifier: students[1 + (i % 3)]!.email,
          password: students[1 + (i % 3)]!.password,
        }),
      () =>
        t.api('POST', '/api/student/login', {
          identifier: students[1]!.mobile,
          password: keep(`wrong-${randomBytes(6).toString('hex')}`),
        }),
      () => t.api('POST', '/api/check-email', { email: keep(`someone-${randomBytes(5).toString('hex')}@example.com`) }),
      (i) => t.api('GET', '/api/students/me', undefined, tokens[i % tokens.length]),
      (i) => t.api('GET', `/api/users?search=${encodeURIComponent(students[i % 4]!.email)}`, undefined, admin),
      () => t.api('POST', '/api/send-email-otp', { email: students[2]!.email }),
      () => {
        const code = String(randomInt(100_000, 1_000_000));
        codes.push(code);
        return t.api('PUT', '/api/users/update-password', {
          email: students[3]!.email,
          otp: code,
          newPassword: keep(`np-${randomBytes(6).toString('hex')}`),
        });
      },
      () =>
        fetch(`${t.url}/parse/functions/loginStudent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-parse-application-id': appId },
          body: JSON.stringify({ identifier: students[1]!.email, password: students[1]!.password }),
        }).then((r) => r.text()),
      () =>
        t.api(
          'POST',
          '/api/student/login',
          `{"identifier":"${students[2]!.email}","password":"${keep(`broken-${randomBytes(6).toString('hex')}`)}"`,
        ),
      () => t.api('GET', '/api/admin/me', undefined, keep(`r:${randomBytes(16).toString('hex')}`)),
      (i) =>
        fetch(`${t.url}/parse/users/me`, {
          headers: { 'x-parse-application-id': appId, 'x-parse-session-token': tokens[i % tokens.length]! },
        }).then((r) => r.text()),
      () => t.api('POST', '/api/check-mobile', { mobile: students[3]!.mobile }),
      () =>
        t.api('POST', '/api/admin/login', {
          email: t.admin.email,
          password: keep(`admin-wrong-${randomBytes(4).toString('hex')}`),
        }),
      (i) => fetch(`${t.url}/studentlogin?email=${encodeURIComponent(students[i % 4]!.email)}`).then((r) => r.text()),
      // Cheaper calls, so that bcrypt (the logins) does not make the run slow.
      () => t.api('GET', '/api/health'),
      () => fetch(feedUrl).then((r) => r.text()),
      // Express takes the path with a slash after it too.
      () => fetch(`${feedUrl}/`).then((r) => r.text()),
      (i) => t.api('GET', '/api/students/me', undefined, tokens[(i + 1) % tokens.length]),
      (i) => t.api('POST', '/api/check-email', { email: students[i % 4]!.email }),
      () => t.api('GET', '/api/users?limit=5', undefined, admin),
      () => t.api('GET', '/api/admin/me', undefined, admin),
      (i) => t.api('POST', '/api/check-mobile', { mobile: students[i % 4]!.mobile }),
      (i) => t.api('GET', `/api/users?search=${students[i % 4]!.mobile}`, undefined, admin),
      () => t.api('POST', '/api/check-email', { email: keep(`other-${randomBytes(5).toString('hex')}@example.com`) }),
    ];
    const before = lines.length;
    const total = 1_000;
    for (let i = 0; i < total; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => kinds[(i + j) % kinds.length]!(i + j)));
    }
    await new Promise((r) => setTimeout(r, 200));

    const requestLines = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    const logged = requestLines.filter((line) => line.msg === 'request' || line.msg === 'request failed');
    expect(logged.length).toBeGreaterThanOrEqual(total);
    for (const line of logged) {
      expect(line).toMatchObject({ method: expect.any(String), path: expect.any(String), status: expect.any(Number) });
      expect(line.requestId).toMatch(/^[\w.:-]{8,64}$/);
      expect(line.ip).toMatch(/127\.0\.0\.1|::1/);
      expect(typeof line.ms).toBe('number');
    }
    expect(logged.some((line) => line.call === 'loginStudent' && line.status === 401)).toBe(true);

    const log = lines.join('\n');
    for (const secret of new Set(secrets)) expect(log, `a secret in the log`).not.toContain(secret);
    for (const secret of new Set(secrets)) expect(log.toLowerCase()).not.toContain(secret.toLowerCase());
    // The request ids are random hex: one may hold six digits in a row that happen to be a code.
    const withoutIds = log.replace(/"requestId":"[^"]*"/g, '');
    for (const code of new Set(codes)) expect(withoutIds).not.toMatch(new RegExp(`(?<![0-9])${code}(?![0-9])`));
  }, 300_000);

  it('returns the request id in a header and in every error body, and logs it', async () => {
    const failures = [
      await t.api('POST', '/api/student/login', { identifier: 'nobody@example.com', password: 'whatever-1' }),
      await t.api('POST', '/api/student/login', '{"broken'),
      await t.api('GET', '/api/no-such-call'),
      await t.api('GET', '/api/students/me', undefined, 'r:not-a-session'),
    ];
    for (const res of failures) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      const id = res.headers.get('x-request-id');
      expect(id).toBeTruthy();
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(Number) });
      expect(res.requestId).toBe(id);
      expect(lines.some((line) => line.includes(`"requestId":"${id}"`))).toBe(true);
    }
    // Parse's own answers keep Parse's body, with the header.
    expect((await fetch(`${t.url}/parse/no-such-thing`)).headers.get('x-request-id')).toBeTruthy();
    // A proxy's id is kept.
    const proxied = await fetch(`${t.url}/api/health`, { headers: { 'x-request-id': 'proxy-id-12345678' } });
    expect(proxied.headers.get('x-request-id')).toBe('proxy-id-12345678');
  });
});

describe('/metrics', () => {
  const scrape = (headers: Record<string, string> = {}) => fetch(`${t.url}/metrics`, { headers });

  it('is refused beyond the loopback without the token, and served with it', async () => {
    const outside = { 'x-forwarded-for': '203.0.113.7' };
    const refused = await scrape(outside);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('tc_');
    expect((await scrape({ ...outside, authorization: 'Bearer not-the-token-at-all' })).status).toBe(403);
    expect((await scrape({ ...outside, authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
    expect((await scrape()).status).toBe(200);
  });

  it('parses as Prometheus text with the calls, logins, codes, deliveries, pools, event loop and memory', async () => {
    const res = await scrape();
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    const families = new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]));
    const sample = (name: string, labels: Record<string, string>) =>
      families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

    expect(Number(sample('tc_api_requests_total', { call: 'loginStudent', status: '200' })?.value)).toBeGreaterThan(0);
    expect(families.get('tc_api_request_duration_seconds')?.type).toBe('HISTOGRAM');
    // The parser keeps a histogram's buckets but not its labels: read the count line itself.
    expect(text).toMatch(/^tc_api_request_duration_seconds_count\{call="listStudents"\} [1-9]/m);
    expect(Number(sample('tc_logins_total', { kind: 'student', outcome: 'success' })?.value)).toBeGreaterThan(0);
    expect(Number(sample('tc_logins_total', { kind: 'student', outcome: 'wrong_credentials' })?.value)).toBeGreaterThan(
      0,
    );
    expect(Number(sample('tc_logins_total', { kind: 'admin', outcome: 'success' })?.value)).toBeGreaterThan(0);
    expect(Number(sample('tc_codes_total', { channel: 'sms', outcome: 'sent' })?.value)).toBeGreaterThan(0);
    expect(Number(sample('tc_codes_total', { channel: 'email', outcome: 'sent' })?.value)).toBeGreaterThan(0);
    expect(Number(sample('tc_deliveries_total', { channel: 'email', outcome: 'sent' })?.value)).toBeGreaterThan(0);
    expect(sample('tc_mail_queue_depth', {})?.value).toBe('0');
    expect(Number(sample('tc_db_pool_connections', { pool: 'app', state: 'total' })?.value)).toBeGreaterThan(0);
    expect(sample('tc_db_pool_connections', { pool: 'parse', state: 'total' })).toBeDefined();
    expect(families.has('tc_nodejs_eventloop_lag_seconds')).toBe(true);
    expect(Number(sample('tc_process_resident_memory_bytes', {})?.value)).toBeGreaterThan(0);
    // No raw paths as labels: every call label is a name of the contract table.
    for (const m of families.get('tc_api_requests_total')!.metrics) expect(m.labels!.call).toMatch(/^[a-zA-Z]+$/);
  });

  it("counts the mail queue's deliveries, and reads its depth: a refused welcome mail waits, counted failed", async () => {
    const value = async (name: string, labels: Record<string, string>) => {
      const family = parsePrometheusTextFormat(await (await scrape()).text()).find((f) => f.name === name);
      const metric = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
      return Number(metric?.value ?? 0);
    };
    const failed = await value('tc_deliveries_total', { channel: 'email', outcome: 'failed' });
    t.captures.failMail = true;
    try {
      // The welcome mail goes through the queue, which the mail server now refuses.
      await register(t);
      await until(
        async () => (await value('tc_deliveries_total', { channel: 'email', outcome: 'failed' })) > failed,
        20_000,
      );
      expect(await value('tc_mail_queue_depth', {})).toBeGreaterThan(0);
    } finally {
      t.captures.failMail = false;
    }
    const sent = await value('tc_deliveries_total', { channel: 'email', outcome: 'sent' });
    await t.site.drainMail();
    expect(await value('tc_deliveries_total', { channel: 'email', outcome: 'sent' })).toBeGreaterThan(sent);
    expect(await value('tc_mail_queue_depth', {})).toBe(0);
  });

  it('counts failed SMS deliveries by channel', async () => {
    t.captures.failSms = true;
    try {
      const res = await t.api('POST', '/api/send-sms', { mobile: `9${String(randomInt(0, 1e9)).padStart(9, '0')}` });
      expect(res.status).toBeGreaterThanOrEqual(500);
    } finally {
      t.captures.failSms = false;
    }
    const families = parsePrometheusTextFormat(await (await scrape()).text());
    const find = (name: string, labels: Record<string, string>) =>
      families
        .find((f) => f.name === name)
        ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    expect(Number(find('tc_deliveries_total', { channel: 'sms', outcome: 'failed' })?.value)).toBeGreaterThan(0);
    expect(Number(find('tc_codes_total', { channel: 'sms', outcome: 'failed' })?.value)).toBeGreaterThan(0);
  });
});

// Starts the real site in this test process: its own database in the shared
// embedded PostgreSQL, a random port, the SMTP and SMS captures.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../server/src/config.ts';
import type { Logger } from '../server/src/logger.ts';
import { startSite, type RunningSite } from '../server/src/start.ts';
import { startCaptures, type Captures } from './captures.ts';
import { codeIn } from './codes.ts';
import { newStudent, type NewStudent } from './students.ts';

export interface TestSite {
  site: RunningSite;
  url: string;
  captures: Captures;
  sql: pg.Pool;
  admin: { email: string; password: string };
  api(method: string, route: string, body?: unknown, token?: string): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The error body's `requestId` (equal to the X-Request-Id header), taken out of `body`. */
  requestId?: string;
}

export async function createDatabase(): Promise<string> {
  const base = inject('postgresUri');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const uri = new URL(base);
  uri.pathname = `/${name}`;
  return uri.toString();
}

export async function startTestSite(
  env: Record<string, string> = {},
  options: { logger?: Logger } = {},
): Promise<TestSite> {
  const captures = await startCaptures();
  const databaseUri = await createDatabase();
  const admin = { email: `admin-${randomBytes(4).toString('hex')}@example.com`, password: 'Admin-pass-123' };
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tc-site-')),
    DATABASE_URI: databaseUri,
    SMTP_URL: captures.smtpUrl,
    MAIL_FROM: 'Guided Learning <no-reply@tuition.example.com>',
    SMS_WEBHOOK_URL: captures.smsUrl,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ADMIN_NAME: 'Test Admin',
    // Request lines would drown the test output; tests that read the log capture it.
    LOG_LEVEL: 'warn',
    BACKUP_SCHEDULE: 'off',
    ...env,
  });
  const site = await startSite(config, { clientDir: path.join(tmpdir(), 'tc-no-client'), logger: options.logger });
  // The site's own database (a restart passes DATABASE_URI in `env`).
  const sql = new pg.Pool({ connectionString: config.databaseUri ?? databaseUri, max: 2 });
  return {
    site,
    url: site.url,
    captures,
    sql,
    admin,
    api: async (method, route, body, token) => {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      const response = await fetch(`${site.url}${route}`, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON
      }
      // Error bodies carry the request id (operations/request-log.ts): checked against the
      // header here and set apart, so that tests compare bodies without it.
      let requestId: string | undefined;
      if (parsed && typeof parsed === 'object' && 'requestId' in parsed) {
        const { requestId: id, ...rest } = parsed;
        if (id !== response.headers.get('x-request-id')) throw new Error(`requestId ${String(id)} is not the header's`);
        requestId = String(id);
        parsed = rest;
      }
      return { status: response.status, headers: response.headers, body: parsed, requestId };
    },
    stop: async () => {
      await sql.end();
      await site.stop();
      await captures.close();
    },
  };
}

/** Waits for the SMS sent to a mobile and returns its code. */
export async function smsCode(t: TestSite, mobile: string, after = 0): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const found = t.captures.sms.filter((s) => s.to === mobile).slice(after);
    if (found.length) return codeIn(found[found.length - 1]!.message);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no SMS to ${mobile}`);
}

/** Waits for the mail sent to an address that matches, and returns it. */
export async function mailTo(t: TestSite, email: string, match: RegExp): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const found = t.captures.mails.filter((m) => m.to.includes(email) && match.test(m.raw));
    if (found.length) return found[found.length - 1]!.raw;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${email} matching ${match}`);
}

/** Sends a registration code and registers; returns the API answer. */
export async function register(t: TestSite): Promise<{ student: NewStudent; result: ApiResponse }>;
export async function register<S extends { mobile: string }>(
  t: TestSite,
  student: S,
): Promise<{ student: S; result: ApiResponse }>;
export async function register(t: TestSite, student: { mobile: string } = newStudent()) {
  const sent = await t.api('POST', '/api/send-sms', { mobile: student.mobile });
  if (sent.status !== 200) throw new Error(`send-sms: ${sent.status} ${JSON.stringify(sent.body)}`);
  const otp = await smsCode(t, student.mobile);
  const result = await t.api('POST', '/api/register', { ...student, otp });
  return { student, result };
}

export async function loginStudent(t: TestSite, identifier: string, password: string): Promise<string> {
  const res = await t.api('POST', '/api/student/login', { identifier, password });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { tokenStudent: string }).tokenStudent;
}

export async function loginAdmin(t: TestSite): Promise<string> {
  const res = await t.api('POST', '/api/admin/login', t.admin);
  if (res.status !== 200) throw new Error(`admin login: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { token: string }).token;
}

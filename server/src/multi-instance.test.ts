// Two app processes on one PostgreSQL and one Redis (issue: benchmarks and
// scale): codes, rate limits and enrollment numbers are shared, and LiveQuery
// sockets hear of the other instance's changes.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './net.ts';
import { type Captures, startCaptures } from '../../testing/captures.ts';
import { codeIn } from '../../testing/codes.ts';
import { type RedisProcess, runSite, type SiteProcess, startRedis } from '../../testing/processes.ts';
import { createDatabase } from '../../testing/site.ts';
import { newStudent } from '../../testing/students.ts';
import { LiveSocket } from '../../testing/live-socket.ts';
import { LIVE_SIGNAL_CLASS, STUDENTS_SIGNAL } from '@tc/domain/live';

const LIMIT = 6;
let captures: Captures;
let redis: RedisProcess;
const sites: SiteProcess[] = [];
const urls: string[] = [];
const dirs: string[] = [];
let appId = '';
const ADMIN = { email: 'admin@example.com', password: 'multi-admin-1' };

beforeAll(async () => {
  captures = await startCaptures();
  redis = await startRedis();
  appId = `multi-${randomBytes(4).toString('hex')}`;
  const shared = {
    NODE_ENV: 'test',
    DATABASE_URI: await createDatabase(),
    REDIS_URL: redis.url,
    APP_ID: appId,
    MASTER_KEY: randomBytes(24).toString('hex'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: captures.smtpUrl,
    SMS_WEBHOOK_URL: captures.smsUrl,
    RATE_LIMIT_MAX: String(LIMIT),
    // Clients at other addresses are played through X-Forwarded-For.
    TRUST_PROXY: '127.0.0.1',
  };
  // One after the other (start-together.test.ts starts instances at once).
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-multi-'));
    dirs.push(dir);
    const site = runSite({ ...shared, PORT: String(port), DATA_DIR: dir });
    sites.push(site);
    await site.waitFor('running at');
    urls.push(`http://127.0.0.1:${port}`);
  }
});

afterAll(async () => {
  for (const site of sites) {
    site.child.kill('SIGTERM');
    await site.exited;
  }
  redis?.stop();
  await captures?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function post(url: string, route: string, body: unknown, ip?: string, token?: string, method = 'POST') {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (ip) headers['x-forwarded-for'] = ip;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}${route}`, { method, headers, body: JSON.stringify(body) });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any };
}

/** The admin's session token, logged in on the instance at this URL. */
async function adminToken(url: string, ip: string): Promise<string> {
  const login = await post(url, '/api/admin/login', ADMIN, ip);
  expect(login.status).toBe(200);
  return login.body.token as string;
}

async function codeFor(mobile: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const sms = captures.sms.find((s) => s.to === mobile);
    if (sms) return codeIn(sms.message);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no SMS to ${mobile}`);
}

describe('two instances on one database', () => {
  it('verifies through one instance a code sent through the other', async () => {
    const student = newStudent();
    expect((await post(urls[0]!, '/api/send-sms', { mobile: student.mobile })).status).toBe(200);
    const otp = await codeFor(student.mobile);
    const res = await post(urls[1]!, '/api/register', { ...student, otp });
    expect(res.status).toBe(201);
    expect((await post(urls[0]!, '/api/check-email', { email: student.email })).body.exists).toBe(true);
  });

  it('gives unique enrollment numbers to concurrent registrations spread over both', async () => {
    const students = Array.from({ length: 5 }, () => newStudent());
    await Promise.all(students.map((s, i) => post(urls[i % 2]!, '/api/send-sms', { mobile: s.mobile })));
    const codes = await Promise.all(students.map((s) => codeFor(s.mobile)));
    const answers = await Promise.all(
      students.map((s, i) => post(urls[(i + 1) % 2]!, '/api/register', { ...s, otp: codes[i] })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(5);
  });

  it('shares the failed-login counters: an address locked on one instance is locked on the other', async () => {
    const ip = '198.51.100.7';
    const student = newStudent();
    expect((await post(urls[0]!, '/api/send-sms', { mobile: student.mobile }, ip)).status).toBe(200);
    const otp = await codeFor(student.mobile);
    expect((await post(urls[1]!, '/api/register', { ...student, otp }, ip)).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const wrong = await post(
        urls[i % 2]!,
        '/api/student/login',
        { identifier: student.email, password: 'nope-nope' },
        ip,
      );
      expect(wrong.body.code).toBe(3050);
    }
    const locked = await post(
      urls[1]!,
      '/api/student/login',
      { identifier: student.email, password: student.password },
      ip,
    );
    expect(locked.body.code).toBe(3051);
    const owner = await post(
      urls[0]!,
      '/api/student/login',
      { identifier: student.email, password: student.password },
      '198.51.100.8',
    );
    expect(owner.status).toBe(200);
  });

  it('counts the per-IP limit across both instances through Redis', async () => {
    // A fresh group (logging in) so that the calls above do not count.
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      statuses.push(
        (await post(urls[i % 2]!, '/api/student/login', { identifier: 'x@example.com', password: 'nope-nope' })).status,
      );
    }
    expect(statuses).toEqual(Array(LIMIT).fill(401));
    expect((await post(urls[0]!, '/api/student/login', { identifier: 'x@example.com', password: 'nope' })).status).toBe(
      429,
    );
    expect((await post(urls[1]!, '/api/admin/login', { email: 'x@example.com', password: 'nope' })).status).toBe(429);
  });

  it('brings a change on one instance to a LiveQuery socket on the other, through Redis', async () => {
    const ip = '198.51.100.50';
    const token = await adminToken(urls[0]!, ip);
    const socket = await LiveSocket.open(urls[1]!, appId, token);
    try {
      const sub = await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, token);
      expect(sub.op).toBe('subscribed');
      const student = newStudent();
      expect((await post(urls[0]!, '/api/send-sms', { mobile: student.mobile }, ip)).status).toBe(200);
      const otp = await codeFor(student.mobile);
      expect((await post(urls[0]!, '/api/register', { ...student, otp }, ip)).status).toBe(201);
      await socket.next((m) => m.requestId === sub.id && (m.op === 'create' || m.op === 'update'), 5_000);
    } finally {
      socket.close();
    }
  });

  it('lets one of simultaneous overlapping timetable slots in, whichever instance each reaches', async () => {
    const ip = '198.51.100.60';
    const token = await adminToken(urls[1]!, ip);
    const slot = (grade: number, weekday: number, start: string) => ({
      grade,
      board: 'CBSE',
      subject: 'Science',
      weekday,
      start,
      duration: 60,
      teacher: 'Ms Lock',
    });
    // Several rounds: one race won by chance would not show the lock missing.
    for (const weekday of [1, 2, 3, 4]) {
      const answers = await Promise.all(
        ['12:00', '12:10', '12:20', '12:30'].map((start, i) =>
          post(urls[i % 2]!, '/api/timetable/slots', slot(7, weekday, start), ip, token),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400]);
    }
    // Two slots trading grades at once, on the two instances: each waits for the
    // other's grade; both get through (the locks are taken in one order).
    const eight = await post(urls[0]!, '/api/timetable/slots', slot(8, 5, '09:00'), ip, token);
    const nine = await post(urls[1]!, '/api/timetable/slots', slot(9, 6, '09:00'), ip, token);
    for (let round = 0; round < 3; round++) {
      const grades = round % 2 ? [8, 9] : [9, 8];
      const moves = await Promise.all([
        post(urls[0]!, `/api/timetable/slots/${eight.body.objectId}`, { grade: grades[0] }, ip, token, 'PUT'),
        post(urls[1]!, `/api/timetable/slots/${nine.body.objectId}`, { grade: grades[1] }, ip, token, 'PUT'),
      ]);
      expect(moves.map((m) => m.status)).toEqual([200, 200]);
    }
  });

  it('closes its LiveQuery sockets when stopped, and exits cleanly', async () => {
    const socket = await LiveSocket.open(urls[1]!, appId);
    const closed = socket.closed;
    sites[1]!.child.kill('SIGTERM');
    expect(await closed).toBeGreaterThan(0);
    expect(await sites[1]!.exited).toBe(0);
  });
});

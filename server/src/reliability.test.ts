// Faults against `npm start`'s server as a real process on its embedded PostgreSQL
// (issue 12 items 1-4, issue 17 item 4): SIGTERM with requests in flight, kill -9
// of the app mid-burst, an orphaned postmaster, a postmaster killed under the
// app, a frozen database. After each: the next start works, no acknowledged
// registration is lost, and every parent can finish with the code they hold.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostmasterOf, stopOrphanedPostmaster } from './database/embedded.ts';
import { freePort } from './net.ts';
import { type Captures, startCaptures } from '../../testing/captures.ts';
import { codeIn } from '../../testing/codes.ts';
import { runSite, type SiteProcess } from '../../testing/processes.ts';
import { newStudent, type NewStudent } from '../../testing/students.ts';
import { until } from '../../testing/until.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tc-reliability-'));
const running: SiteProcess[] = [];
let captures: Captures;
let port: number;

beforeAll(async () => {
  captures = await startCaptures();
  port = await freePort();
  // The first start (initdb) is the slow one: here, outside the tests' time.
  await start();
});

afterAll(async () => {
  for (const site of running) if (site.child.exitCode === null) site.child.kill('SIGKILL');
  await Promise.all(running.map((site) => site.exited));
  // Whatever postmaster is left of this folder: its watchdog stops it as its app dies; one
  // still watched a moment after is refused as in use, so try again until it is gone.
  await until(async () => {
    try {
      await stopOrphanedPostmaster(path.join(dataDir, 'postgres'));
      return true;
    } catch {
      return false;
    }
  }, 10_000).catch(() => undefined);
  await captures?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}): Promise<SiteProcess> {
  const site = runSite(siteEnv(extra));
  running.push(site);
  await site.waitFor('running at', 60_000);
  return site;
}

function siteEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'reliability-admin-1',
    SMTP_URL: captures.smtpUrl,
    SMS_WEBHOOK_URL: captures.smsUrl,
    RATE_LIMIT_MAX: '10000',
    SHUTDOWN_GRACE_S: '10',
    ...extra,
  };
}

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function call(method: string, route: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

/** A parent holding a registration code. */
async function parentWithCode() {
  const student = newStudent();
  const sent = await call('POST', '/api/send-sms', { mobile: student.mobile });
  expect(sent.status).toBe(200);
  for (let i = 0; i < 100; i++) {
    const sms = captures.sms.find((s) => s.to === student.mobile);
    if (sms) return { student, otp: codeIn(sms.message) };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no SMS');
}

/** After a restart: the account is there, or the parent's code still registers it. */
async function everyParentFinishes(parents: Array<{ student: NewStudent; otp: string }>) {
  for (const { student, otp } of parents) {
    const exists = (await call('POST', '/api/check-email', { email: student.email })).body.exists;
    if (exists) {
      const login = await call('POST', '/api/student/login', { identifier: student.email, password: student.password });
      expect(login.status).toBe(200);
    } else {
      const again = await call('POST', '/api/register', { ...student, otp });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
    }
  }
}

function postmasterPid(): number {
  return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes whose parent is `pid` (PostgreSQL's backends and helpers). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A request whose body arrives only when `finish` is called: in flight until then. */
function slowRequest(route: string, body: unknown) {
  const text = JSON.stringify(body);
  let finish!: () => void;
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: route,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let data = '';
        res.on('data', (chunk) => (data += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
      },
    );
    req.on('error', reject);
    req.write(text.slice(0, 5));
    finish = () => req.end(text.slice(5));
  });
  return { answer, finish: () => finish() };
}

describe('reliability of the server process', () => {
  it('drains on SIGTERM: requests in flight finish, new ones get 503, no code is spent, exit 0', async () => {
    const site = running.at(-1)!;
    const parents = await Promise.all(Array.from({ length: 9 }, () => parentWithCode()));
    const known = parents.pop()!;
    expect((await call('POST', '/api/register', { ...known.student, otp: known.otp })).status).toBe(201);

    const slow = slowRequest('/api/check-email', { email: known.student.email });
    await new Promise((r) => setTimeout(r, 200));
    const burst = [
      ...parents.map(({ student, otp }) => call('POST', '/api/register', { ...student, otp })),
      ...Array.from({ length: 6 }, () =>
        call('POST', '/api/student/login', { identifier: known.student.email, password: known.student.password }),
      ),
    ].map((p) => p.catch((error: Error) => ({ status: 0, body: error.message })));
    await new Promise((r) => setTimeout(r, 100));
    site.child.kill('SIGTERM');
    await site.waitFor('SIGTERM received');

    // From the first moment of shutdown: health and readiness say 503, and close the connection.
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(503);
    expect(health.headers.get('connection')).toBe('close');
    expect(await health.json()).toEqual({
      status: 'stopping',
      error: 'The site is restarting. Please try again in a moment.',
      code: 3503,
      requestId: health.headers.get('x-request-id'),
    });
    expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call('GET', '/api/ready')).status).toBe(503);
    expect((await call('POST', '/api/check-email', { email: known.student.email })).status).toBe(503);

    // The request that was in flight finishes normally.
    slow.finish();
    expect(await slow.answer).toEqual({ status: 200, body: { exists: true } });

    const answers = await Promise.all(burst);
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.filter((s) => s === 500 || s === 0),
      JSON.stringify(answers),
    ).toEqual([]);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 503)).toBe(true);
    expect(await site.exited, site.output()).toBe(0);
    expect(site.output()).toContain('Stopped.');

    await start();
    await everyParentFinishes(parents);
  });

  it('after kill -9 of the app mid-burst: the database stops with it, the next start works, no code is lost', async () => {
    const site = running.at(-1)!;
    const parents = await Promise.all(Array.from({ length: 10 }, () => parentWithCode()));
    const pid = postmasterPid();
    const burst = parents.map(({ student, otp }) =>
      call('POST', '/api/register', { ...student, otp }).catch(() => ({ status: 0, body: null })),
    );
    await new Promise((r) => setTimeout(r, 150));
    site.child.kill('SIGKILL');
    const answers = await Promise.all(burst);
    expect(answers.filter((a) => a.status === 500)).toEqual([]);
    // The watchdog stops the orphaned database.
    await until(() => !alive(pid), 15_000);

    await start();
    await everyParentFinishes(parents);
    // Every acknowledged registration is there.
    for (const [i, answer] of answers.entries()) {
      if (answer.status === 201) {
        expect((await call('POST', '/api/check-email', { email: parents[i]!.student.email })).body.exists).toBe(true);
      }
    }
  });

  it('stops an orphaned postmaster of its own folder at the next start, and never one of another folder', async () => {
    const site = running.at(-1)!;
    const { student, otp } = await parentWithCode();
    expect((await call('POST', '/api/register', { ...student, otp })).status).toBe(201);
    const pid = postmasterPid();
    // Kill the watchdog first, then the app: the database is left running, orphaned.
    const watchdog = childrenOf(site.child.pid!).find((child) =>
      readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('tc-postgres-watchdog'),
    );
    expect(watchdog).toBeDefined();
    process.kill(watchdog!, 'SIGKILL');
    site.child.kill('SIGKILL');
    await site.exited;
    await new Promise((r) => setTimeout(r, 500));
    expect(alive(pid)).toBe(true);

    // Another folder whose pid file names this postmaster is not its folder: untouched.
    const other = mkdtempSync(path.join(tmpdir(), 'tc-other-'));
    mkdirSync(path.join(other, 'postgres'));
    writeFileSync(path.join(other, 'postgres', 'postmaster.pid'), `${pid}\n${path.join(other, 'postgres')}\n`);
    expect(isPostmasterOf(pid, path.join(other, 'postgres'))).toBe(false);
    expect(await stopOrphanedPostmaster(path.join(other, 'postgres'))).toBe(false);
    expect(alive(pid)).toBe(true);
    rmSync(other, { recursive: true, force: true });
    expect(isPostmasterOf(pid, path.join(dataDir, 'postgres'))).toBe(true);

    const next = await start();
    expect(next.output()).toContain('left running');
    expect(alive(pid)).toBe(false);
    const login = await call('POST', '/api/student/login', { identifier: student.email, password: student.password });
    expect(login.status).toBe(200);
  });

  it('refuses a second start on its folder while the first runs, and leaves the running database alone', async () => {
    const pid = postmasterPid();
    const second = runSite(siteEnv({ PORT: String(await freePort()) }));
    const code = await Promise.race([second.exited, new Promise((r) => setTimeout(r, 60_000, 'still running'))]);
    if (code === 'still running') second.child.kill('SIGKILL');
    expect(code).toBe(1);
    expect(second.output()).toMatch(/^Start-up failed: DATA_DIR .* is in use by another start, seed or restore/m);
    expect(second.output()).not.toContain('left running');
    expect(alive(pid)).toBe(true);
    expect((await call('GET', '/api/ready')).status).toBe(200);
  });

  it('starts the database again when it dies under the running app, answering 503 only meanwhile', async () => {
    const site = running.at(-1)!;
    const { student, otp } = await parentWithCode();
    expect((await call('POST', '/api/register', { ...student, otp })).status).toBe(201);
    // The student's calendar feed, which a calendar app fetches with no session (its own route).
    const { tokenStudent } = (
      await call('POST', '/api/student/login', { identifier: student.email, password: student.password })
    ).body as { tokenStudent: string };
    const link = await fetch(`http://127.0.0.1:${port}/api/students/me/calendar`, {
      headers: { authorization: `Bearer ${tokenStudent}` },
    });
    const feed = new URL(((await link.json()) as { url: string }).url).pathname;
    expect((await call('GET', feed)).status).toBe(200);
    // The admin's CSV export, which checks its session itself.
    const { token: adminToken } = (
      await call('POST', '/api/admin/login', { email: 'admin@example.com', password: 'reliability-admin-1' })
    ).body as { token: string };
    const exportCsv = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/users/export.csv`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      return { status: res.status, body: await res.text() };
    };
    expect((await exportCsv()).status).toBe(200);
    const pid = postmasterPid();
    const others = await Promise.all(Array.from({ length: 4 }, () => parentWithCode()));
    process.kill(pid, 'SIGKILL');
    // Meanwhile: 503 (try again), never 500; afterwards every parent can finish.
    const meanwhile = await Promise.all([
      ...others.map(({ student, otp }) => call('POST', '/api/register', { ...student, otp })),
      call('POST', '/api/check-email', { email: student.email }),
      call('POST', '/api/student/login', { identifier: student.email, password: student.password }),
      call('GET', feed),
      call('GET', feed),
      // Not 401: the session is not what failed (the page would have logged the admin out).
      exportCsv(),
    ]);
    for (const answer of meanwhile) expect([200, 201, 503], JSON.stringify(answer)).toContain(answer.status);
    await site.waitFor('stopped unexpectedly', 10_000);
    await site.waitFor('running again', 30_000);
    await until(async () => (await call('GET', '/api/ready')).status === 200, 10_000);
    expect(postmasterPid()).not.toBe(pid);
    await everyParentFinishes(others);
    const login = await call('POST', '/api/student/login', { identifier: student.email, password: student.password });
    expect(login.status).toBe(200);
    const other = await parentWithCode();
    expect((await call('POST', '/api/register', { ...other.student, otp: other.otp })).status).toBe(201);
    expect(site.child.exitCode).toBe(null);
  });

  it('answers health and readiness 503 within 2 s while the database is frozen, 200 again after', async () => {
    const site = running.at(-1)!;
    const pid = postmasterPid();
    const frozen = [pid, ...childrenOf(pid)];
    for (const p of frozen) process.kill(p, 'SIGSTOP');
    try {
      for (const route of ['/api/health', '/api/ready']) {
        const started = Date.now();
        const res = await call('GET', route);
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ status: 'unavailable', error: 'Database unavailable', code: 3503 });
        expect(Date.now() - started).toBeLessThan(2_000);
      }
    } finally {
      for (const p of frozen) process.kill(p, 'SIGCONT');
    }
    await until(async () => (await call('GET', '/api/ready')).status === 200, 10_000);
    expect((await call('GET', '/api/health')).status).toBe(200);

    site.child.kill('SIGINT');
    expect(await site.exited).toBe(0);
    // Stopped cleanly, the database is gone with it.
    await until(() => !alive(pid), 10_000);
  });
});

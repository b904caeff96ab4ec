// `npm start`'s server as a real process on the embedded PostgreSQL: start-up,
// configuration errors, clean shutdown on SIGTERM, data kept across restarts,
// no code in the logs when real delivery is configured, and no stack traces for
// refused requests.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './net.ts';
import { startCaptures } from '../../testing/captures.ts';
import { codeIn } from '../../testing/codes.ts';
import { runSite, type SiteProcess } from '../../testing/processes.ts';
import { createDatabase, register, startTestSite } from '../../testing/site.ts';
import { newStudent } from '../../testing/students.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tc-process-'));
const running: SiteProcess[] = [];

afterAll(() => {
  for (const site of running) site.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function run(env: Record<string, string>): SiteProcess {
  const site = runSite(env);
  running.push(site);
  return site;
}

async function post(port: number, route: string, body: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any };
}

/** What a process wrote, line by line (npm's own warnings left out). */
function outputLines(started: ReturnType<typeof run>): string[] {
  return started
    .output()
    .trim()
    .split('\n')
    .filter((l) => !l.includes('npm warn'));
}

describe('the server process', () => {
  it('stops at start-up with one line naming a bad variable', async () => {
    const started = run({ PORT: 'not-a-port', DATA_DIR: dataDir });
    expect(await started.exited).toBe(1);
    const lines = outputLines(started);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
  });

  it('stops with a line naming DATABASE_URI or REDIS_URL when the database or Redis cannot be reached', async () => {
    const nobody = await freePort();
    const noDatabase = run({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DATABASE_URI: `postgres://site@127.0.0.1:${nobody}/site`,
    });
    expect(await noDatabase.exited).toBe(1);
    expect(outputLines(noDatabase)).toEqual([
      expect.stringMatching(/^Start-up failed: DATABASE_URI: cannot reach the database/),
    ]);

    // (A database of its own: one Parse Server per test process, started by the test below.)
    const noRedis = run({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DATABASE_URI: await createDatabase(),
      REDIS_URL: `redis://127.0.0.1:${nobody}`,
    });
    expect(await noRedis.exited).toBe(1);
    // One line, not one per failed attempt of each Redis client first.
    expect(outputLines(noRedis)).toEqual([expect.stringMatching(/^Start-up failed: REDIS_URL: cannot reach Redis/)]);
  });

  it('stops with a line naming PORT when another program holds it', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const started = run({ PORT: String(port), DATA_DIR: dataDir, DATABASE_URI: await createDatabase() });
      expect(await started.exited).toBe(1);
      expect(started.output()).toMatch(
        new RegExp(
          `^Start-up failed: PORT ${port} is in use by another program: stop it, or set PORT to a free one$`,
          'm',
        ),
      );
    } finally {
      holder.close();
    }
  });

  it('refuses to start in production without explicit keys', async () => {
    const started = run({ NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(/APP_ID is required when NODE_ENV=production/);
  });

  it("refuses to start when ADMIN_EMAIL is a student's address: a student never becomes an admin", async () => {
    const t = await startTestSite();
    try {
      const { student, result } = await register(t);
      expect(result.status).toBe(201);
      const started = run({
        NODE_ENV: 'test',
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        DATABASE_URI: t.site.config.databaseUri!,
        APP_ID: t.site.config.appId,
        MASTER_KEY: t.site.config.masterKey,
        ADMIN_EMAIL: student.email,
        ADMIN_PASSWORD: 'taken-over-1',
        BACKUP_SCHEDULE: 'off',
      });
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(`Start-up failed: ADMIN_EMAIL ${student.email.toLowerCase()} is a student's`);
      const { rows } = await t.sql.query(
        `SELECT count(*)::int AS n FROM "_Join:users:_Role" j JOIN "_User" u ON u."objectId" = j."relatedId"
         WHERE u.username = $1`,
        [student.email.toLowerCase()],
      );
      expect(rows[0].n).toBe(0);
      expect(
        (await t.api('POST', '/api/student/login', { identifier: student.email, password: student.password })).status,
      ).toBe(200);
    } finally {
      await t.stop();
    }
  });

  it('keeps every record across a clean stop and a restart, and logs no code', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: dataDir, ADMIN_PASSWORD: 'process-admin-1' };

    const first = run(env);
    // It listens at once and answers 503 while it starts (the database takes seconds).
    let early: Response | undefined;
    for (let i = 0; i < 400 && !early; i++) {
      early = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
      if (!early) await new Promise((r) => setTimeout(r, 25));
    }
    expect(early?.status).toBe(503);
    expect(await early?.json()).toEqual({
      status: 'starting',
      error: 'The site is starting. Please try again in a moment.',
      code: 3503,
      requestId: early?.headers.get('x-request-id'),
    });
    expect(early?.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await first.waitFor('running at');
    expect(first.output()).toContain(`http://localhost:${port}`);
    // A password from the environment is never printed; a generated one only once (config.unit.test.ts).
    expect(first.output()).toContain('Admin login: admin@example.com');
    expect(first.output()).not.toContain('process-admin-1');
    const student = newStudent();
    expect((await post(port, '/api/send-sms', { mobile: student.mobile })).status).toBe(200);
    const outbox = readFileSync(path.join(dataDir, 'outbox.log'), 'utf8');
    const otp = codeIn(
      outbox
        .split('--- ')
        .filter((e) => e.includes(student.mobile))
        .pop()!,
    );
    const registered = await post(port, '/api/register', { ...student, otp });
    expect(registered.status).toBe(201);

    first.child.kill('SIGTERM');
    const firstExit = await first.exited;
    expect(firstExit, first.output()).toBe(0);
    expect(first.output()).toContain('Stopped.');

    const captures = await startCaptures();
    try {
      const second = run({ ...env, SMTP_URL: captures.smtpUrl, SMS_WEBHOOK_URL: captures.smsUrl });
      await second.waitFor('running at');
      expect((await post(port, '/api/check-email', { email: student.email })).body).toEqual({ exists: true });
      const login = await post(port, '/api/student/login', { identifier: student.mobile, password: student.password });
      expect(login.status).toBe(200);

      const other = newStudent();
      expect((await post(port, '/api/send-sms', { mobile: other.mobile })).status).toBe(200);
      const code = codeIn(captures.sms.find((s) => s.to === other.mobile)!.message);
      const again = await post(port, '/api/register', { ...other, otp: code });
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(registered.body.id + 1);
      expect(second.output()).not.toContain(code);

      // Refused requests are the client's business: no stack traces in the log for them.
      const { appId } = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as { appId: string };
      const parseHeaders = { 'x-parse-application-id': appId, 'content-type': 'application/json' };
      const refusals = [
        fetch(`http://127.0.0.1:${port}/parse/classes/_User`, { headers: parseHeaders }),
        fetch(`http://127.0.0.1:${port}/parse/users/me`, {
          headers: { ...parseHeaders, 'x-parse-session-token': 'r:0' },
        }),
        fetch(`http://127.0.0.1:${port}/parse/login`, {
          method: 'POST',
          headers: parseHeaders,
          body: JSON.stringify({ username: other.email, password: 'not-the-password-1' }),
        }),
      ];
      expect((await Promise.all(refusals)).map((r) => r.status)).toEqual([400, 400, 403]);
      expect(second.output()).not.toMatch(/stack|\n\s+at /);

      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    } finally {
      await captures.close();
    }
    // Two starts of the site, the first with initdb: beyond the default 60 s on a busy machine.
  }, 180_000);
});

// Backup and restore (issue 17): a real site on its embedded PostgreSQL is backed
// up with `npm run backup` while it runs, destroyed, restored with `npm run
// restore` and started again with every record, code and session as it was.
// Then the restore's refusals, and the schedule (every second here).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../database/embedded.ts';
import { freePort } from '../net.ts';
import { createLogger } from '../logger.ts';
import { type Captures, startCaptures } from '../../../testing/captures.ts';
import { codeIn, mailCode } from '../../../testing/codes.ts';
import { runSite, type SiteProcess } from '../../../testing/processes.ts';
import { createDatabase, mailTo, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';
import { lockWaitsOn } from '../../../testing/locks.ts';
import { newStudent } from '../../../testing/students.ts';
import { backupDatabase, backupName, listBackups, pruneBackups, restoreDatabase } from './backup.ts';
import { runBackup, startBackupSchedule } from './backup-schedule.ts';
import { seedStudents } from '../database/seed.ts';
import { runningEmbedded } from './database-access.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'tc-backup-'));
const running: SiteProcess[] = [];
let captures: Captures | undefined;

afterAll(async () => {
  for (const site of running) site.child.kill('SIGKILL');
  await captures?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run backup` / `npm run restore -- ...` as the operator runs them. */
function npmScript(script: 'backup' | 'restore', args: string[] = [], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `server/src/scripts/${script}.ts`, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every row of every table of the site, in a stable order. */
async function everyRecord(uri: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'operations_backups' ORDER BY 1`,
    );
    const all: Record<string, unknown[]> = {};
    for (const { name } of tables) {
      const { rows } = await client.query(`SELECT * FROM "${name}" ORDER BY 1`);
      all[name] = rows;
    }
    const { rows: seq } = await client.query('SELECT last_value, is_called FROM student_enrollment_seq');
    all.student_enrollment_seq = seq;
    return all;
  } finally {
    await client.end();
  }
}

function embeddedUri(): string {
  const { port } = runningEmbedded(dataDir)!;
  const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/tuition`;
}

async function post(port: number, route: string, body: unknown, token?: string, method = 'POST') {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method: body === undefined ? 'GET' : method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any };
}

describe('npm run backup and npm run restore', () => {
  it(
    'back up a running site, destroy it, restore, and start it with every record, code and session',
    { timeout: 300_000 },
    async () => {
      captures = await startCaptures();
      const port = await freePort();
      const env = {
        PORT: String(port),
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: 'backup-admin-1',
        SMTP_URL: captures.smtpUrl,
        SMS_WEBHOOK_URL: captures.smsUrl,
        BACKUP_SCHEDULE: 'off',
      };
      const first = runSite(env);
      running.push(first);
      await first.waitFor('running at');

      // A registered student, logged in (a session), who has asked for a reset code.
      const student = newStudent();
      expect((await post(port, '/api/send-sms', { mobile: student.mobile })).status).toBe(200);
      const otp = codeIn(captures.sms.find((s) => s.to === student.mobile)!.message);
      expect((await post(port, '/api/register', { ...student, otp })).status).toBe(201);
      const login = await post(port, '/api/student/login', { identifier: student.email, password: student.password });
      expect(login.status).toBe(200);
      const token = login.body.tokenStudent as string;
      expect((await post(port, '/api/send-email-otp', { email: student.email })).status).toBe(200);
      // The reset code is mailed just after the answer (the answer tells nothing), beside the welcome mail.
      let resetMail = undefined as { raw: string } | undefined;
      for (let i = 0; i < 200 && !resetMail; i++) {
        resetMail = captures.mails.find((m) => m.to.includes(student.email) && !/Welcome/.test(m.raw));
        if (!resetMail) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const resetCode = mailCode(resetMail!.raw);
      // The welcome mail goes through the queue: sent before the snapshot, not during the backup.
      await until(
        async () =>
          (await everyRecord(embeddedUri())).mail_delivery!.every(
            (row) => (row as { state: string }).state !== 'queued',
          ),
        30_000,
      );

      const before = await everyRecord(embeddedUri());
      expect(before._User!.length).toBeGreaterThanOrEqual(2);
      expect(before._Session!.length).toBeGreaterThanOrEqual(1);
      expect(before.OneTimeCode!.length).toBeGreaterThanOrEqual(2);

      // While the site runs.
      const backup = npmScript('backup');
      expect(backup.status, backup.output).toBe(0);
      const [file] = listBackups(path.join(dataDir, 'backups'));
      expect(file).toMatch(/tuition-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.sql\.gz$/);
      expect(readFileSync(`${file}.sha256`, 'utf8')).toMatch(new RegExp(`^[0-9a-f]{64}  ${path.basename(file!)}\\n$`));

      // Refused while the site runs.
      const whileRunning = npmScript('restore', [file!]);
      expect(whileRunning.status).toBe(1);
      expect(whileRunning.output).toMatch(/site is running/);

      first.child.kill('SIGTERM');
      expect(await first.exited, first.output()).toBe(0);
      rmSync(path.join(dataDir, 'postgres'), { recursive: true, force: true });
      rmSync(path.join(dataDir, 'postgres-password'), { force: true });

      const restored = npmScript('restore', [file!]);
      expect(restored.status, restored.output).toBe(0);

      // Now the database holds data: refused without --force, replaced with it.
      const again = npmScript('restore', [file!]);
      expect(again.status).toBe(1);
      expect(again.output).toMatch(/already holds data; add --force/);
      const forced = npmScript('restore', [file!, '--force']);
      expect(forced.status, forced.output).toBe(0);

      // Every record as it was, before the site touches anything.
      const database = await startEmbeddedPostgres(dataDir);
      try {
        expect(await everyRecord(database.uri)).toEqual(before);
      } finally {
        await database.stop();
      }

      const second = runSite(env);
      running.push(second);
      await second.waitFor('running at');
      // The old session, the old password, the code sent before the backup.
      const profile = await post(port, '/api/students/me', undefined, token);
      expect(profile.status, JSON.stringify(profile.body)).toBe(200);
      expect(profile.body.email).toBe(student.email);
      expect(
        (await post(port, '/api/student/login', { identifier: student.mobile, password: student.password })).status,
      ).toBe(200);
      const reset = await post(
        port,
        '/api/users/update-password',
        { email: student.email, otp: resetCode, newPassword: 'a-new-password-2' },
        undefined,
        'PUT',
      );
      expect(reset.status, JSON.stringify(reset.body)).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    },
  );
});

describe('backup and restore of an external database', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startTestSite({ BACKUP_SCHEDULE: 'off' });
  });
  afterAll(async () => {
    await site.stop();
  });

  it('restores into an empty database, refuses a non-empty one without force, and a damaged file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-backups-'));
    try {
      const { student } = await register(site);
      // The welcome mail is sent by the queue after the answer: let it settle, or its
      // delivery record would change between the backup and the snapshot.
      await mailTo(site, student.email, /enrollment number/i);
      await until(async () => {
        const { rows } = await site.sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM mail_delivery WHERE state = 'queued'`,
        );
        return rows[0]?.n === 0;
      }, 20_000);
      const result = await backupDatabase(site.site.databaseUri, dir);
      const before = await everyRecord(site.site.databaseUri);

      // The site is connected to its own database: refused.
      await expect(restoreDatabase(site.site.databaseUri, result.file, { force: true })).rejects.toThrow(
        /other connection\(s\) use this database/,
      );

      const target = await createDatabase();
      await restoreDatabase(target, result.file);
      expect(await everyRecord(target)).toEqual(before);
      await expect(restoreDatabase(target, result.file)).rejects.toThrow(/already holds data; add --force/);
      await restoreDatabase(target, result.file, { force: true });
      expect(await everyRecord(target)).toEqual(before);

      const damaged = path.join(dir, 'damaged.sql.gz');
      copyFileSync(result.file, damaged);
      appendFileSync(damaged, 'x');
      writeFileSync(`${damaged}.sha256`, readFileSync(`${result.file}.sha256`, 'utf8'));
      await expect(restoreDatabase(await createDatabase(), damaged)).rejects.toThrow(/Checksum mismatch/);

      // Cut short, with a checksum made for the cut file (a copy interrupted, then summed):
      // refused in one message, and the database left empty. The gzip cut mid-stream hung the
      // restore; the text cut mid-row ended the process on an unhandled error.
      const whole = gunzipSync(readFileSync(result.file)).toString('utf8');
      // The first table with rows: its copy is under way where the file ends.
      const rows = /COPY [^\n]* FROM stdin;\n(?!\\\.\n)/.exec(whole)!;
      const rowStart = rows.index + rows[0].length;
      const rowEnd = whole.indexOf('\n', rowStart);
      const cuts = {
        'gzip.sql.gz': readFileSync(result.file).subarray(0, Math.floor(statSync(result.file).size / 2)),
        'mid-row.sql.gz': gzipSync(whole.slice(0, rowStart + 5)),
        'mid-copy.sql.gz': gzipSync(whole.slice(0, rowEnd + 1)),
        // A row PostgreSQL refuses, then thousands more (they back up behind it): its own
        // message, and nothing flushed later onto the connection the copy has let go.
        'bad-row.sql.gz': gzipSync(
          whole.slice(0, rowStart) +
            'not\ta\trow\n' +
            whole.slice(rowStart, rowEnd + 1).repeat(20_000) +
            whole.slice(rowEnd + 1),
        ),
      };
      for (const [name, bytes] of Object.entries(cuts)) {
        const cut = path.join(dir, name);
        writeFileSync(cut, bytes);
        writeFileSync(`${cut}.sha256`, `${createHash('sha256').update(bytes).digest('hex')}  ${name}\n`);
        const empty = await createDatabase();
        await expect(restoreDatabase(empty, cut), name).rejects.toThrow(
          name === 'bad-row.sql.gz'
            ? /is damaged or cut short \((missing data|extra data|invalid input)[^)]*\)$/
            : /is cut short|is damaged/,
        );
        const client = new pg.Client({ connectionString: empty });
        await client.connect();
        const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`);
        await client.end();
        expect(rows[0].n, name).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails a backup whose connection is cut mid-dump, leaving no file, and the site runs on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-cut-'));
    const holder = await site.sql.connect();
    try {
      // The dump waits for a table a schema change holds, and its connection is ended meanwhile
      // (a database restarting, a failover): its client's 'error' event used to end the process.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "_User" IN ACCESS EXCLUSIVE MODE');
      const backup = backupDatabase(site.site.databaseUri, dir);
      // Its failure may come while the test still waits for the termination's answer: heard from
      // the start, not only by the expectation below (an unhandled rejection fails the run).
      backup.catch(() => undefined);
      await lockWaitsOn(site.sql, 'LOCK TABLE public."_User"');
      await site.sql.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tuition-backup'`,
      );
      await expect(backup).rejects.toThrow();
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    try {
      expect(readdirSync(dir)).toEqual([]);
      expect((await fetch(`${site.url}/api/health`)).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cuts a scheduled backup short when the site stops: no file left, recorded as cut short, its lock free', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-stop-'));
    // Every second, in a pool of its own (the test's holds two: the holder, and the lock-wait check).
    const settings = { databaseUri: site.site.databaseUri, dir, schedule: '* * * * * *', timezone: 'UTC', keep: 14 };
    const pool = new pg.Pool({ connectionString: site.site.databaseUri, max: 2 });
    const holder = await site.sql.connect();
    let stopped = false;
    try {
      // The dump waits for a table a schema change holds, and the site stops meanwhile.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "_User" IN ACCESS EXCLUSIVE MODE');
      const schedule = startBackupSchedule(pool, settings, createLogger('silent'));
      await lockWaitsOn(site.sql, 'LOCK TABLE public."_User"');
      // The stop comes back while the table is still held: the dump did not wait for it.
      await schedule.stop();
      stopped = true;
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    try {
      expect(stopped).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
      const { rows } = await site.sql.query(
        `SELECT ok, error FROM operations_backups WHERE started_at > now() - interval '1 minute' ORDER BY started_at`,
      );
      expect(rows).toEqual([{ ok: false, error: 'cut short: the site was stopping' }]);
      // The next occurrence runs: the lock was let go.
      const next = await runBackup(pool, settings, createLogger('silent'), new Date(Date.now() + 5_000));
      expect(next?.file).toBeDefined();
    } finally {
      await pool.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails a backup whose disk fills up mid-dump, without hanging or ending the site, and leaves no file', async () => {
    await seedStudents(site.sql, 3_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-full-'));
    try {
      // The file being written is a disk with no room left: every write fails (ENOSPC).
      const at = new Date();
      symlinkSync('/dev/full', path.join(dir, `${backupName(at)}.partial`));
      await expect(backupDatabase(site.site.databaseUri, dir, at)).rejects.toThrow(/ENOSPC|no space/i);
      expect(readdirSync(dir)).toEqual([]);
      expect((await fetch(`${site.url}/api/health`)).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('removes what a dump cut off by a crash left once it is an hour old, never a dump under way', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-prune-'));
    try {
      const now = Date.now();
      const cutOff = path.join(dir, `${backupName(new Date(now - 3 * 3600_000))}.partial`);
      const underWay = path.join(dir, `${backupName(new Date(now - 2 * 3600_000))}.partial`);
      for (const file of [cutOff, underWay]) writeFileSync(file, 'partial');
      // The one under way wrote a minute ago; the cut one last wrote two hours ago.
      utimesSync(cutOff, new Date(now - 2 * 3600_000), new Date(now - 2 * 3600_000));
      utimesSync(underWay, new Date(now - 60_000), new Date(now - 60_000));
      expect(pruneBackups(dir, 14, now)).toEqual([cutOff]);
      expect(readdirSync(dir)).toEqual([path.basename(underWay)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs one occurrence once across instances', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-once-'));
    try {
      const settings = { databaseUri: site.site.databaseUri, dir, schedule: 'off', timezone: 'UTC', keep: 5 };
      // An occurrence of its own: the schedule in the test above claims the current second's.
      const slot = new Date(Math.floor(Date.now() / 1000) * 1000 + 24 * 3600_000);
      const quiet = createLogger('silent');
      const results = await Promise.all([
        runBackup(site.sql, settings, quiet, slot),
        runBackup(site.sql, settings, quiet, slot),
        runBackup(site.sql, settings, quiet, slot),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await runBackup(site.sql, settings, quiet, slot)).toBeUndefined();
      expect(listBackups(dir)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

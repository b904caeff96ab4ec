// The backup schedule while the site runs (every second here): backups are
// written and pruned to BACKUP_KEEP, administrators read the runs in the status
// call, and a failed backup is reported there and in the log.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../net.ts';
import { runSite, type SiteProcess } from '../../../testing/processes.ts';
import {
  createDatabase,
  loginAdmin,
  loginStudent,
  register,
  startTestSite,
  type TestSite,
} from '../../../testing/site.ts';
import { listBackups } from './backup.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'tc-scheduled-'));
let site: TestSite;
const processes: SiteProcess[] = [];

beforeAll(async () => {
  site = await startTestSite({ BACKUP_SCHEDULE: '* * * * * *', BACKUP_KEEP: '2', BACKUP_DIR: dir });
});

afterAll(async () => {
  for (const child of processes) child.child.kill('SIGKILL');
  await site.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the backup schedule', () => {
  it('runs on schedule, keeps BACKUP_KEEP backups, and reports to administrators only', async () => {
    const deadline = Date.now() + 30_000;
    let runs = 0;
    while (Date.now() < deadline) {
      const { rows } = await site.sql
        .query<{ n: number }>('SELECT count(*)::int AS n FROM operations_backups WHERE ok')
        .catch(() => ({ rows: [{ n: 0 }] }));
      runs = rows[0]!.n;
      if (runs >= 3) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(runs).toBeGreaterThanOrEqual(3);
    // Between two runs, the folder holds the newest BACKUP_KEEP.
    await new Promise((r) => setTimeout(r, 500));
    expect(listBackups(dir).length).toBeGreaterThanOrEqual(2);
    expect(listBackups(dir).length).toBeLessThanOrEqual(3);

    const admin = await loginAdmin(site);
    const status = await site.api('GET', '/api/admin/operations', undefined, admin);
    expect(status.status).toBe(200);
    expect(status.body.backups).toMatchObject({
      schedule: '* * * * * *',
      timezone: 'Asia/Kolkata',
      keep: 2,
      directory: dir,
    });
    expect(status.body.backups.lastSuccess).toMatchObject({ ok: true });
    expect(status.body.backups.lastSuccess.file).toMatch(/tuition-.*\.sql\.gz$/);
    expect(status.body.backups.nextRun).toMatch(/^\d{4}-/);

    const anonymous = await site.api('GET', '/api/admin/operations');
    expect(anonymous.status).toBe(401);
    expect(anonymous.requestId).toBe(anonymous.headers.get('x-request-id'));
    const { student } = await register(site);
    const studentToken = await loginStudent(site, student.email, student.password);
    expect((await site.api('GET', '/api/admin/operations', undefined, studentToken)).status).toBe(403);
  });

  it('reports a failed backup in the status call, the log and the metrics', { timeout: 120_000 }, async () => {
    const notAFolder = path.join(mkdtempSync(path.join(tmpdir(), 'tc-bad-')), 'file');
    writeFileSync(notAFolder, 'not a folder');
    const port = await freePort();
    const child = runSite({
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tc-bad-data-')),
      DATABASE_URI: await createDatabase(),
      ADMIN_EMAIL: 'ops-admin@example.com',
      ADMIN_PASSWORD: 'ops-admin-pass-1',
      BACKUP_SCHEDULE: '* * * * * *',
      BACKUP_DIR: notAFolder,
    });
    processes.push(child);
    await child.waitFor('running at');
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops-admin@example.com', password: 'ops-admin-pass-1' }),
    });
    const { token } = (await login.json()) as { token: string };
    let last: { ok: boolean; error?: string } | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${base}/api/admin/operations`, { headers: { authorization: `Bearer ${token}` } });
      last = ((await res.json()) as { backups: { last?: { ok: boolean; error?: string } } }).backups.last;
      if (last?.error) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(last?.ok).toBe(false);
    expect(last?.error).toMatch(/ENOTDIR|EEXIST|not a directory/i);
    await child.waitFor('"msg":"backup failed"');
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/tc_backups_total\{outcome="failure"\} [1-9]/);
    child.child.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  });
});

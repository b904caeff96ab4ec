// Three instances started at once on a new database (`docker compose up --scale
// app=3` on the first deployment) all come up: they set the database up one at a
// time (database/start-up-lock.ts). Before, two of three such starts failed on
// duplicate keys in PostgreSQL's catalogue or a deadlock, in Parse's set-up.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { freePort } from './net.ts';
import { type Captures, startCaptures } from '../../testing/captures.ts';
import { runSite, type SiteProcess } from '../../testing/processes.ts';
import { createDatabase } from '../../testing/site.ts';

let captures: Captures | undefined;
const sites: SiteProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const site of sites) {
    site.child.kill('SIGTERM');
    await site.exited;
  }
  await captures?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('three instances started together on a new database all come up, with one admin account', async () => {
  captures = await startCaptures();
  const databaseUri = await createDatabase();
  const shared = {
    NODE_ENV: 'test',
    DATABASE_URI: databaseUri,
    APP_ID: `together-${randomBytes(4).toString('hex')}`,
    MASTER_KEY: randomBytes(24).toString('hex'),
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'together-admin-1',
    SMTP_URL: captures.smtpUrl,
    SMS_WEBHOOK_URL: captures.smsUrl,
    BACKUP_SCHEDULE: 'off',
  };
  const ports = await Promise.all([0, 1, 2].map(() => freePort()));
  for (const port of ports) {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-together-'));
    dirs.push(dir);
    sites.push(runSite({ ...shared, PORT: String(port), DATA_DIR: dir }));
  }
  const started = await Promise.allSettled(sites.map((site) => site.waitFor('running at', 120_000)));
  expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'up'))).toEqual([
    'up',
    'up',
    'up',
  ]);
  for (const port of ports) expect((await fetch(`http://127.0.0.1:${port}/api/ready`)).status).toBe(200);

  const sql = new pg.Client({ connectionString: databaseUri });
  await sql.connect();
  try {
    const { rows } = await sql.query(`SELECT count(*)::int AS n FROM "_User" WHERE email = 'admin@example.com'`);
    expect(rows[0].n).toBe(1);
  } finally {
    await sql.end();
  }
}, 180_000);

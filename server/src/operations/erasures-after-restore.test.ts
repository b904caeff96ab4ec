// A backup holds the children erased since it was made; restored over the site's
// database, they stay erased: shut by the restore, erased again when the site starts,
// their waiting mails never sent, the erasure's log entry kept.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ERASED_NAME } from '@tc/domain/admin-tools';
import { restartingSites } from '../../../testing/restarting-sites.ts';
import { createDatabase, loginAdmin, loginStudent, register } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';
import { carryErasures } from './erasures-after-restore.ts';

const { start } = restartingSites();

describe('a restore over the database', () => {
  it('keeps erased the children erased since the backup', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-erasures-'));
    try {
      const first = await start({ BACKUP_SCHEDULE: 'off' });
      // Their welcome mails wait in the queue: the mail server refuses them for now.
      first.captures.failMail = true;
      const { student: erased, result: registered } = await register(first);
      const { student: kept } = await register(first);
      const token = await loginStudent(first, erased.email, erased.password);
      const uri = first.site.databaseUri;
      // A mail from before mails named their account: found by its address.
      await first.sql.query(`INSERT INTO mail_delivery (key, message, state) VALUES ($1, $2, 'failed')`, [
        `legacy:${registered.body.objectId as string}`,
        { to: erased.email, subject: 'Old', text: 'An old mail' },
      ]);
      const { file } = await backupDatabase(uri, dir);

      const admin = await loginAdmin(first);
      const id = registered.body.objectId as string;
      const erasure = await first.api('POST', `/api/users/${id}/erase`, { confirm: 'ERASE' }, admin);
      expect(erasure.status, JSON.stringify(erasure.body)).toBe(200);
      await first.stop();

      expect(await restoreDatabase(uri, file, { force: true })).toMatchObject({ erasuresCarried: 1 });

      const second = await start({ BACKUP_SCHEDULE: 'off', DATABASE_URI: uri });
      const [account] = (
        await second.sql.query(
          `SELECT fullname, email, mobile, dob, status, "erasedAt", "erasurePending" FROM "_User" WHERE "objectId" = $1`,
          [id],
        )
      ).rows;
      expect(account).toMatchObject({ fullname: ERASED_NAME, mobile: null, dob: null, status: 'deactivated' });
      expect(account.email).not.toBe(erased.email.toLowerCase());
      expect(account.erasedAt).toBeInstanceOf(Date);
      expect(account.erasurePending).toBeNull();
      // No way in: the session from before the backup, the password, the e-mail.
      expect((await second.api('GET', '/api/students/me', undefined, token)).status).toBe(401);
      const login = await second.api('POST', '/api/student/login', {
        identifier: erased.email,
        password: erased.password,
      });
      expect(login.status).toBeGreaterThanOrEqual(400);
      // The other child's welcome mail goes out now; none to the erased child.
      await until(() => second.captures.mails.some((m) => m.to.includes(kept.email.toLowerCase())), 30_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(second.captures.mails.filter((m) => m.to.includes(erased.email.toLowerCase()))).toEqual([]);
      const legacy = await second.sql.query(`SELECT message, last_error FROM mail_delivery WHERE key = $1`, [
        `legacy:${id}`,
      ]);
      expect(legacy.rows).toEqual([{ message: null, last_error: 'recipient erased' }]);
      // The log still says who erased the child, once.
      const entries = await second.sql.query(
        `SELECT state, "adminEmail" FROM "ActivityEntry" WHERE kind = 'student.erase' AND "targetId" = $1`,
        [id],
      );
      expect(entries.rows).toEqual([{ state: 'applied', adminEmail: first.admin.email.toLowerCase() }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('carries erasures into a backup of an older version, whose tables lack the columns it marks', async () => {
    const client = new pg.Client({ connectionString: await createDatabase() });
    await client.connect();
    try {
      await client.query(`CREATE TABLE "_User" ("objectId" text PRIMARY KEY, email text)`);
      await client.query(`CREATE TABLE "_Session" ("objectId" text PRIMARY KEY, "user" text)`);
      await client.query(
        `CREATE TABLE mail_delivery (key text PRIMARY KEY, state text, message jsonb, last_error text, updated_at timestamptz)`,
      );
      await client.query(`INSERT INTO "_User" VALUES ('u1', 'Old@Example.com'), ('u2', 'other@example.com')`);
      await client.query(`INSERT INTO "_Session" VALUES ('s1', 'u1'), ('s2', 'u2')`);
      await client.query(
        `INSERT INTO mail_delivery VALUES ('m1', 'queued', '{"to":"old@example.com"}', NULL, now()),
                                         ('m2', 'queued', '{"to":"other@example.com"}', NULL, now())`,
      );
      expect(await carryErasures(client, { ids: ['u1'], entries: [] })).toBe(1);
      const users = await client.query(`SELECT "objectId", status, "erasurePending" FROM "_User" ORDER BY 1`);
      expect(users.rows).toEqual([
        { objectId: 'u1', status: 'deactivated', erasurePending: true },
        { objectId: 'u2', status: null, erasurePending: null },
      ]);
      expect((await client.query(`SELECT "objectId" FROM "_Session"`)).rows).toEqual([{ objectId: 's2' }]);
      const mails = await client.query(`SELECT key, state, message FROM mail_delivery ORDER BY 1`);
      expect(mails.rows).toEqual([
        { key: 'm1', state: 'failed', message: null },
        { key: 'm2', state: 'queued', message: { to: 'other@example.com' } },
      ]);
    } finally {
      await client.end();
    }
  });
});

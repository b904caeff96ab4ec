// A backup holds the children erased since it was made; restored over the site's
// database, they stay erased: shut by the restore, erased again when the site starts,
// their waiting mails never sent, the erasure's log entry kept.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERASED_NAME } from '@tc/domain/admin-tools';
import { restartingSites } from '../../../testing/restarting-sites.ts';
import { loginAdmin, loginStudent, register } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';

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
      const { file } = await backupDatabase(uri, dir);

      const admin = await loginAdmin(first);
      const id = registered.body.objectId as string;
      const erasure = await first.api('POST', `/api/users/${id}/erase`, { confirm: 'ERASE' }, admin);
      expect(erasure.status, JSON.stringify(erasure.body)).toBe(200);
      await first.stop();

      expect(await restoreDatabase(uri, file, { force: true })).toEqual({ erasuresCarried: 1 });

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
});

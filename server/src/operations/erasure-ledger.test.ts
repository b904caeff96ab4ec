// The ledger of erasures beside the backups: a backup restored onto an empty database
// (the site's own lost entirely) keeps erased the children erased since it was made.
// In a file of its own: one Parse Server per test process, and this one starts on a
// database of its own after a restore.

import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ERASED_NAME } from '@tc/domain/admin-tools';
import { restartingSites } from '../../../testing/restarting-sites.ts';
import { createDatabase, loginAdmin, register } from '../../../testing/site.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';
import { bringLedgerUpToDate, LEDGER_FILE, readLedger, readLedgers } from './erasure-ledger.ts';

const { start } = restartingSites();

describe('the ledger of erasures', () => {
  it(
    'keeps erased, onto an empty database, the children the ledger beside the backups names',
    {
      timeout: 180_000,
    },
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'tc-ledger-'));
      try {
        const first = await start({ BACKUP_SCHEDULE: 'off', BACKUP_DIR: dir });
        const { student: erased, result: registered } = await register(first);
        const id = registered.body.objectId as string;
        const { file } = await backupDatabase(first.site.databaseUri, dir);
        const admin = await loginAdmin(first);
        const erasure = await first.api('POST', `/api/users/${id}/erase`, { confirm: 'ERASE' }, admin);
        expect(erasure.status, JSON.stringify(erasure.body)).toBe(200);
        await first.stop();

        // The ledger names the account, and nothing that identifies the child.
        const ledger = readFileSync(path.join(dir, LEDGER_FILE), 'utf8');
        expect(ledger.trim().split('\n')).toHaveLength(1);
        expect(JSON.parse(ledger)).toMatchObject({ id, entries: [{ kind: 'student.erase', targetId: id }] });
        for (const personal of [erased.email, erased.email.toLowerCase(), erased.fullname, erased.mobile, erased.dob]) {
          expect(ledger).not.toContain(personal);
        }

        // The database is lost: the backup goes onto an empty one.
        const empty = await createDatabase();
        // The ledger is read from each folder named (BACKUP_DIR, and the backup's own), once.
        const elsewhere = mkdtempSync(path.join(tmpdir(), 'tc-ledger-'));
        expect(await restoreDatabase(empty, file, { ledgerDirs: [elsewhere, dir, `${dir}/`] })).toEqual({
          erasuresCarried: 1,
          ledgerFound: true,
          unreadableLedgerLines: 0,
        });
        rmSync(elsewhere, { recursive: true, force: true });
        const second = await start({ BACKUP_SCHEDULE: 'off', BACKUP_DIR: dir, DATABASE_URI: empty });
        const [account] = (
          await second.sql.query(
            `SELECT fullname, mobile, dob, status, "erasedAt" FROM "_User" WHERE "objectId" = $1`,
            [id],
          )
        ).rows;
        expect(account).toMatchObject({ fullname: ERASED_NAME, mobile: null, dob: null, status: 'deactivated' });
        expect(account.erasedAt).toBeInstanceOf(Date);
        const login = await second.api('POST', '/api/student/login', {
          identifier: erased.email,
          password: erased.password,
        });
        expect(login.status).toBeGreaterThanOrEqual(400);
        const entries = await second.sql.query(
          `SELECT state, "adminEmail" FROM "ActivityEntry" WHERE kind = 'student.erase' AND "targetId" = $1`,
          [id],
        );
        expect(entries.rows).toEqual([{ state: 'applied', adminEmail: first.admin.email.toLowerCase() }]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('writes at start the erasures the ledger lacks, and skips a line cut short', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tc-ledger-'));
    const client = new pg.Client({ connectionString: await createDatabase() });
    await client.connect();
    try {
      await client.query(`CREATE TABLE "_User" ("objectId" text PRIMARY KEY, "erasedAt" timestamptz)`);
      await client.query(
        `CREATE TABLE "ActivityEntry" ("objectId" text PRIMARY KEY, "createdAt" timestamptz, kind text, "targetId" text)`,
      );
      await client.query(`INSERT INTO "_User" VALUES ('u1', now()), ('u2', now()), ('u3', NULL)`);
      await client.query(`INSERT INTO "ActivityEntry" VALUES ('a1', now(), 'student.erase', 'u2')`);
      writeFileSync(
        path.join(dir, LEDGER_FILE),
        `${JSON.stringify({ id: 'u1', erasedAt: '2026-11-01', entries: [] })}\n`,
      );
      // Two writes cut short by crashes: one of an account the database does not know, and the
      // last one, of an account the next start writes again in full.
      appendFileSync(path.join(dir, LEDGER_FILE), '{"id":"u9","erasedAt":"2026-\n{"id":"u2","erased');

      expect(await bringLedgerUpToDate(client, dir)).toBe(1);
      expect(await bringLedgerUpToDate(client, dir)).toBe(0);
      const ledger = await readLedger(dir);
      expect(ledger.ids.sort()).toEqual(['u1', 'u2']);
      expect(ledger.entries).toMatchObject([{ objectId: 'a1', targetId: 'u2' }]);
      // Only the line whose account no whole line names is still unreadable.
      expect(ledger.unreadable).toBe(1);
      expect(ledger.found).toBe(true);
      expect((await readLedger(path.join(dir, 'none'))).found).toBe(false);
      // Read with another ledger in which that line is whole (a copy kept elsewhere): read.
      const other = path.join(dir, 'copy');
      mkdirSync(other);
      writeFileSync(
        path.join(other, LEDGER_FILE),
        `${JSON.stringify({ id: 'u9', erasedAt: '2026-11-02', entries: [] })}\n`,
      );
      expect(await readLedgers([dir, other])).toMatchObject({ unreadable: 0, found: true });
    } finally {
      await client.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A restore can leave many accounts to erase again at start (erasures-after-restore.ts):
// every one is erased, however many one read of Parse would answer. A file of its own: a
// second test site on a new database, in a file that ran one before, finds Parse's tables
// missing (Parse keeps the schema it has seen in the process).

import { describe, expect, it } from 'vitest';
import { ERASED_NAME } from '@tc/domain/admin-tools';
import { LIST_MAX_LIMIT } from '@tc/domain/constants';
import { restartingSites } from '../../../testing/restarting-sites.ts';
import { seedStudents } from '../database/seed.ts';

const { start, restart } = restartingSites();

describe('a start after a restore', () => {
  it('erases at start every account a restore left pending, past one read of Parse', { timeout: 180_000 }, async () => {
    const first = await start({ BACKUP_SCHEDULE: 'off' });
    const { rows: before } = await first.sql.query(`SELECT "objectId" FROM "_User"`);
    // More than Parse answers to one read (LIST_MAX_LIMIT), shut by a restore as carryErasures does.
    const count = LIST_MAX_LIMIT + 1;
    await seedStudents(first.sql, count);
    const { rows } = await first.sql.query(
      `UPDATE "_User" SET status = 'deactivated', "erasurePending" = true
       WHERE "enrollmentId" IS NOT NULL AND NOT ("objectId" = ANY($1)) RETURNING "objectId"`,
      [before.map((row: { objectId: string }) => row.objectId)],
    );
    expect(rows).toHaveLength(count);
    const second = await restart(first, { BACKUP_SCHEDULE: 'off' });
    const { rows: after } = await second.sql.query(
      `SELECT count(*)::int AS erased, count(*) FILTER (WHERE "erasurePending")::int AS pending
       FROM "_User" WHERE "objectId" = ANY($1) AND "erasedAt" IS NOT NULL AND fullname = $2`,
      [rows.map((row: { objectId: string }) => row.objectId), ERASED_NAME],
    );
    expect(after).toEqual([{ erased: count, pending: 0 }]);
  });
});

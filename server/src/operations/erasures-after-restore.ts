// A backup holds every child erased since it was made, whole. Restored over the site's
// database, it would bring them back: name, e-mail, mobile, sessions, mails waiting to be
// sent. So `npm run restore --force` reads the erasures from the database it replaces and
// carries them over: the restored rows are shut at once (deactivated, sessions and waiting
// mails dropped, the erasure's own log entry back in the log), and marked for the site to
// erase again when it starts (cloud/src/students/status.ts redoErasures), with the cloud
// code that made the first erasure. A database lost entirely knows no erasure: the
// restore reads them from the ledger kept beside the backups too (erasure-ledger.ts).

import type pg from 'pg';
import { RECIPIENT_ERASED } from '../mail-queue/mail-queue.ts';

export interface CarriedErasures {
  /** The accounts erased in the database being replaced. */
  ids: string[];
  /** Their erasures' entries of the activity log, as rows. */
  entries: unknown[];
}

const exists = async (client: pg.Client, table: string) =>
  (await client.query<{ found: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS found`, [`public."${table}"`]))
    .rows[0]!.found;

/** Both lists' erasures, each account and log entry once. */
export function joinErasures(...lists: CarriedErasures[]): CarriedErasures {
  const ids = new Set(lists.flatMap((list) => list.ids));
  const entries = new Map<unknown, unknown>();
  for (const entry of lists.flatMap((list) => list.entries)) {
    entries.set((entry as { objectId?: unknown } | null)?.objectId ?? entry, entry);
  }
  return { ids: [...ids], entries: [...entries.values()] };
}

/** The erasures of the database about to be replaced (none when it has no students). */
export async function readErasures(client: pg.Client): Promise<CarriedErasures> {
  if (!(await exists(client, '_User'))) return { ids: [], entries: [] };
  const { rows } = await client.query<{ id: string }>(
    `SELECT "objectId" AS id FROM "_User" WHERE "erasedAt" IS NOT NULL`,
  );
  const ids = rows.map((row) => row.id);
  if (!ids.length || !(await exists(client, 'ActivityEntry'))) return { ids, entries: [] };
  const { rows: entries } = await client.query<{ entry: unknown }>(
    `SELECT row_to_json(a) AS entry FROM "ActivityEntry" a WHERE a.kind = 'student.erase' AND a."targetId" = ANY($1)`,
    [ids],
  );
  return { ids, entries: entries.map((row) => row.entry) };
}

/**
 * In the restored database, in the restore's transaction: the accounts erased before but
 * whole in the backup are shut and marked to be erased again. Returns how many.
 */
export async function carryErasures(client: pg.Client, carried: CarriedErasures): Promise<number> {
  if (!carried.ids.length || !(await exists(client, '_User'))) return 0;
  // A backup made by an older version may lack the columns the marks need (the site's
  // schema adds them at start, as it would have anyway).
  await client.query(`ALTER TABLE "_User" ADD COLUMN IF NOT EXISTS status text,
    ADD COLUMN IF NOT EXISTS "erasedAt" timestamp with time zone, ADD COLUMN IF NOT EXISTS "erasurePending" boolean`);
  const { rows } = await client.query<{ id: string; email: string | null }>(
    `UPDATE "_User" SET status = 'deactivated', "erasurePending" = true
     WHERE "objectId" = ANY($1) AND "erasedAt" IS NULL RETURNING "objectId" AS id, lower(email) AS email`,
    [carried.ids],
  );
  const ids = rows.map((row) => row.id);
  if (!ids.length) return 0;
  await client.query(`DELETE FROM "_Session" WHERE "user" = ANY($1)`, [ids]);
  if (await exists(client, 'mail_delivery')) {
    await client.query(`ALTER TABLE mail_delivery ADD COLUMN IF NOT EXISTS account_id text`);
    // Queued, or failed and still to be tried again: about the account, or (a row from
    // before mails named their account) to its address.
    const emails = rows.map((row) => row.email).filter((email): email is string => Boolean(email));
    await client.query(
      `UPDATE mail_delivery SET state = 'failed', message = NULL, last_error = '${RECIPIENT_ERASED}', updated_at = now()
       WHERE state IN ('queued', 'failed') AND message IS NOT NULL
         AND (account_id = ANY($1) OR lower(message->>'to') = ANY($2))`,
      [ids, emails],
    );
  }
  if (carried.entries.length && (await exists(client, 'ActivityEntry'))) {
    await client.query(
      `INSERT INTO "ActivityEntry" SELECT e.* FROM json_array_elements($1::json) j,
         json_populate_record(NULL::"ActivityEntry", j) e
       WHERE e."targetId" = ANY($2) ON CONFLICT DO NOTHING`,
      [JSON.stringify(carried.entries), ids],
    );
  }
  return ids.length;
}

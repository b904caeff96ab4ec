// The activity log's last line of defence, in the database itself: no row of
// "ActivityEntry" is ever deleted (TRUNCATE included), and an update may change
// neither who, what nor when, nor move an entry's state once it has settled
// (a creation's entry names its new object as it settles applied).
// This holds for every Parse path, the master key's /purge and schema deletion
// included; only the database's owner, dropping these triggers, gets past it.
// (The finer rules, which values may become "[erased]", are the cloud code's
// beforeSave: cloud/src/activity/log.ts. See docs/decisions/0011-activity-log.md.)

import { NEW_TARGET } from '@tc/cloud/activity/log';
import { inTransaction, type Sql } from './sql.ts';

export async function protectActivityLog(pool: Sql): Promise<void> {
  // Several instances may start at once: one at a time, in one transaction.
  await inTransaction(pool, async (sql) => {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext('activity_entry_append_only'))`);
    await createTriggers(sql);
  });
}

async function createTriggers(sql: { query(text: string): Promise<unknown> }): Promise<void> {
  await sql.query(`
    CREATE OR REPLACE FUNCTION activity_entry_append_only() RETURNS trigger AS $$
    BEGIN
      IF TG_OP = 'DELETE' OR TG_OP = 'TRUNCATE' THEN
        RAISE EXCEPTION 'activity entries cannot be deleted';
      END IF;
      IF NEW."objectId" IS DISTINCT FROM OLD."objectId"
        OR NEW."createdAt" IS DISTINCT FROM OLD."createdAt"
        OR NEW."adminId" IS DISTINCT FROM OLD."adminId"
        OR NEW."adminEmail" IS DISTINCT FROM OLD."adminEmail"
        OR NEW."kind" IS DISTINCT FROM OLD."kind"
        OR NEW."targetClass" IS DISTINCT FROM OLD."targetClass"
        OR (NEW."targetId" IS DISTINCT FROM OLD."targetId" AND NOT (
          OLD."targetId" = '${NEW_TARGET}' AND OLD."state" = 'pending' AND NEW."state" = 'applied'))
        OR NEW."enrollmentId" IS DISTINCT FROM OLD."enrollmentId"
        OR (OLD."state" <> 'pending' AND NEW."state" IS DISTINCT FROM OLD."state")
        OR jsonb_array_length(NEW."changes") <> jsonb_array_length(OLD."changes") THEN
        RAISE EXCEPTION 'activity entries cannot be changed';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await sql.query(`DROP TRIGGER IF EXISTS activity_entry_no_change ON "ActivityEntry"`);
  await sql.query(`
    CREATE TRIGGER activity_entry_no_change BEFORE UPDATE OR DELETE ON "ActivityEntry"
    FOR EACH ROW EXECUTE FUNCTION activity_entry_append_only()`);
  await sql.query(`DROP TRIGGER IF EXISTS activity_entry_no_truncate ON "ActivityEntry"`);
  await sql.query(`
    CREATE TRIGGER activity_entry_no_truncate BEFORE TRUNCATE ON "ActivityEntry"
    FOR EACH STATEMENT EXECUTE FUNCTION activity_entry_append_only()`);
}

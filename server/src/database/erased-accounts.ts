// An erased account stays erased, in the database itself. The cloud code refuses
// every change of an erased account (cloud/src/users/triggers.ts), but it checks
// before Parse writes, and Parse's UPDATE has no condition: an admin's edit or a
// reactivation checked a moment before an erasure commits would write the child's
// details, or the active status, back over it. So once "erasedAt" is set, an update
// keeps the personal fields, the status and "erasedAt" as they are; anything else
// (erasurePending, Parse's own columns) may still change. Silently, not by refusing:
// that race must not end in a 500, and the next read shows the account erased.

import { inTransaction, type Sql } from './sql.ts';

/** The columns an erasure replaced or cleared (cloud/src/students/status.ts erase). */
const KEPT = ['fullname', 'email', 'username', 'mobile', 'dob', 'gender', 'status', 'erasedAt'] as const;

export async function keepErasedAccountsErased(pool: Sql): Promise<void> {
  // Several instances may start at once: one at a time, in one transaction.
  await inTransaction(pool, async (sql) => {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext('erased_account_stays_erased'))`);
    await sql.query(`
      CREATE OR REPLACE FUNCTION erased_account_stays_erased() RETURNS trigger AS $$
      BEGIN
        ${KEPT.map((column) => `NEW."${column}" := OLD."${column}";`).join('\n        ')}
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    // Made once (its function, replaced above, is what may change): dropping it again at
    // each start would lock "_User" against every read while an export holds it.
    const { rows } = await sql.query(
      `SELECT 1 FROM pg_trigger WHERE tgname = 'erased_account_stays_erased' AND tgrelid = '"_User"'::regclass`,
    );
    if (!rows.length) {
      await sql.query(`
        CREATE TRIGGER erased_account_stays_erased BEFORE UPDATE ON "_User"
        FOR EACH ROW WHEN (OLD."erasedAt" IS NOT NULL) EXECUTE FUNCTION erased_account_stays_erased()`);
    }
  });
}

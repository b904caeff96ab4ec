// One change of an account at a time, on every instance of the site: its password
// (users/password-change.ts), an admin's edit, change of status or erasure of a student
// (students/status.ts studentLocked), the removal of an admin (admins/functions.ts).

import type { CloudDeps } from '../deps.ts';

/** The first key of the advisory lock per account: a constant of the site's own (the timetable's are 7_240_001-2). */
const ACCOUNT_LOCK = 7_240_003;

/** Per account, the last work of this process under its lock (gone once it has settled). */
const inThisProcess = new Map<string, Promise<unknown>>();

/**
 * Runs `work` while no other work under this account's lock runs: a PostgreSQL
 * advisory lock on the account's objectId, held until `work` settles. Two password
 * changes at once then run one after the other, and the second checks its "current"
 * password against the one the first has set. Within one process they queue before
 * they take a connection, so that many at once cannot hold every connection of the
 * pool while the one with the lock waits for one.
 */
export function serialisedForAccount<T>(deps: CloudDeps, objectId: string, work: () => Promise<T>): Promise<T> {
  const locked = () =>
    deps.transaction(async (tx) => {
      await tx.sql('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [ACCOUNT_LOCK, objectId]);
      return work();
    });
  const next = (inThisProcess.get(objectId) ?? Promise.resolve()).then(locked, locked);
  const settled = next.catch(() => undefined);
  inThisProcess.set(objectId, settled);
  void settled.then(() => {
    if (inThisProcess.get(objectId) === settled) inThisProcess.delete(objectId);
  });
  return next;
}

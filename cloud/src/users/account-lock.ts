// One change of an account at a time, on every instance of the site: its password
// (users/password-change.ts), an admin's edit, change of status or erasure of a student
// (students/status.ts studentLocked), the removal of an admin (admins/functions.ts), a
// reset by e-mailed code (students/functions.ts), a new calendar feed token
// (timetable/calendar-feed.ts).

import pLimit from 'p-limit';
import type { CloudDeps } from '../deps.ts';

/** The first key of the advisory lock per account: a constant of the site's own (the timetable's are 7_240_001-2). */
const ACCOUNT_LOCK = 7_240_003;

/** Per account, the last work of this process under its lock (gone once it has settled). */
const inThisProcess = new Map<string, Promise<unknown>>();

/**
 * At most this many account locks held at once in a process. Each holds a connection of the
 * site's pool (10) for the whole of its work, and that work needs connections of the same
 * pool (the login guard's counters, the mail queue's rows): ten locks at once would hold
 * every connection and wait for one.
 */
const heldAtOnce = pLimit(3);

/**
 * Runs `work` while no other work under this account's lock runs: a PostgreSQL
 * advisory lock on the account's objectId, held until `work` settles. Two password
 * changes at once then run one after the other, and the second checks its "current"
 * password against the one the first has set. Within one process they queue before
 * they take a connection: per account, and then for one of the few locks held at once.
 */
export function serialisedForAccount<T>(deps: CloudDeps, objectId: string, work: () => Promise<T>): Promise<T> {
  const locked = () =>
    heldAtOnce(() =>
      deps.transaction(async (tx) => {
        // The transaction is idle while the work runs: PostgreSQL must not end it (and free
        // the lock) half-way through a long one.
        await tx.sql('SET LOCAL idle_in_transaction_session_timeout = 0');
        await tx.sql('SELECT pg_advisory_xact_lock($1::int, hashtext($2))', [ACCOUNT_LOCK, objectId]);
        return work();
      }),
    );
  const next = (inThisProcess.get(objectId) ?? Promise.resolve()).then(locked, locked);
  const settled = next.catch(() => undefined);
  inThisProcess.set(objectId, settled);
  void settled.then(() => {
    if (inThisProcess.get(objectId) === settled) inThisProcess.delete(objectId);
  });
  return next;
}

// Live updates (docs/decisions/0013-live-updates.md). Students and timetables
// are never streamed: after a change the cloud code touches one row of
// LiveSignal, which names what changed (`students`, `timetable:5:CBSE`,
// `holidays`) and holds nothing else, and the pages that show it load it again
// through /api. Parse's LiveQuery server delivers a row's change only to the
// sockets that pass this class's permissions (signed-in users), the
// beforeSubscribe check below (who may follow which key) and the row's ACL
// (the students key: administrators only).

import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { HOLIDAYS_SIGNAL, LIVE_SIGNAL_CLASS, STUDENTS_SIGNAL, timetableSignal } from '@tc/domain/live';
import { BOARDS, ALL_BOARDS, type BoardOrAll } from '@tc/domain/constants';
import type { CloudDeps } from '../deps.ts';
import { fail } from '../errors.ts';
import { schemaDefinitions } from '../schema.ts';
import { MASTER, parse } from '../parse.ts';
import { ADMIN_ROLE, isAdmin, isStudent, type User } from '../users/accounts.ts';
import { checkSession } from '../users/sessions.ts';

export const SIGNAL_CLASS = LIVE_SIGNAL_CLASS;

/** The keys a timetable change concerns: one batch, or every board of the grade for an all-boards slot. */
export function timetableKeys(grade: number, board: BoardOrAll): string[] {
  return board === ALL_BOARDS ? BOARDS.map((each) => timetableSignal(grade, each)) : [timetableSignal(grade, board)];
}

async function touch(key: string): Promise<void> {
  const Parse = parse();
  const existing = await new Parse.Query(SIGNAL_CLASS).equalTo('key', key).first(MASTER);
  const row: InstanceType<typeof Parse.Object> = existing ?? new Parse.Object(SIGNAL_CLASS);
  if (!existing) {
    // Two first changes at once may make two rows of a key: both are followed alike.
    row.set('key', key);
    const acl = new Parse.ACL();
    // The students key tells that a student changed: administrators only. The
    // others carry nothing a signed-in student may not know; beforeSubscribe
    // below keeps each student to their own batch.
    if (key === STUDENTS_SIGNAL) acl.setRoleReadAccess(ADMIN_ROLE, true);
    else acl.setPublicReadAccess(true);
    row.setACL(acl);
  }
  row.increment('changes');
  await row.save(null, MASTER);
}

/**
 * Tells the open pages that these keys changed, before the change is answered
 * (so that what the database holds after an answer is settled). Never fails the
 * change: a lost signal costs a page a reload, not data.
 */
export async function signalChange(...keys: string[]): Promise<void> {
  await Promise.all(
    [...new Set(keys)].map((key) =>
      touch(key).catch((error: unknown) =>
        console.error(`live signal ${key} failed:`, error instanceof Error ? error.message : error),
      ),
    ),
  );
}

/** Who may follow a key: admins every key; a student the holidays and their own batch's timetable. */
async function mayFollow(user: User, key: string, deps: CloudDeps, token: string): Promise<boolean> {
  if (await isAdmin(user)) {
    await checkSession(deps, user, 'admin', token);
    return true;
  }
  if (!isStudent(user) || user.get('status') === 'deactivated') return false;
  // The batch as stored now: the socket's copy of the user may be older.
  const account = await checkSession(deps, user, 'student', token);
  if (key === HOLIDAYS_SIGNAL) return true;
  return account.grade !== null && key === timetableSignal(account.grade, account.board ?? '');
}

interface SubscribeRequest {
  user?: User;
  sessionToken?: string;
  query: { toJSON(): { where?: Record<string, unknown> } };
}

export function defineLiveSignalTriggers(deps: CloudDeps): void {
  const Parse = parse();
  // Only LiveSignal is published at all (server/src/live-query.ts); should that list
  // ever grow by mistake, a subscription to any other class is still refused here.
  // (_Session allows no such trigger; LiveQuery keeps a socket to its own sessions.)
  const closed = schemaDefinitions.map((each) => each.className).filter((className) => className !== SIGNAL_CLASS);
  for (const className of closed) {
    Parse.Cloud.beforeSubscribe(className, () => fail(ErrorCode.Forbidden, ServerMessage.liveKeyRefused));
  }
  // A subscription names exactly one key (`{key: "..."}`, nothing else), which
  // its user may follow; anything else is refused before it is registered.
  Parse.Cloud.beforeSubscribe(SIGNAL_CLASS, async (trigger) => {
    // Parse's types call it a trigger request; LiveQuery hands the subscription's query and token.
    const request = trigger as unknown as SubscribeRequest;
    const where = request.query.toJSON().where ?? {};
    const key = where.key;
    const token = request.sessionToken;
    if (!request.user || !token) fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
    if (Object.keys(where).length !== 1 || typeof key !== 'string') {
      fail(ErrorCode.Forbidden, ServerMessage.liveKeyRefused);
    }
    // The stored account, not the one the socket's session resolved to at some earlier time.
    const user = await new Parse.Query(Parse.User).get(request.user.id!, MASTER).catch(() => undefined);
    if (!user || !(await mayFollow(user, key, deps, token))) fail(ErrorCode.Forbidden, ServerMessage.liveKeyRefused);
  });
}

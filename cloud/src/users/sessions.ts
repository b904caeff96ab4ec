// Session lifetimes: each session has an idle timeout and an
// absolute lifetime, shorter for administrators. Parse keeps one session length
// for everyone, so the cloud functions, the only place a session buys anything
// beyond the account's own record, check the role's own limits.

import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/messages';
import type { SessionPolicy } from '../deps.ts';
import { fail } from '../errors.ts';
import { MASTER, parse } from '../parse.ts';
import type { User } from './accounts.ts';

export const LAST_USED_FIELD = 'lastUsedAt';
/** Writing the last use once a minute is precise enough for timeouts counted in minutes. */
const TOUCH_EVERY_MS = 60_000;

/** `token`: the session to check, when it is not the one the user came with (a LiveQuery socket's). */
export async function enforceSessionPolicy(
  user: User,
  policy: SessionPolicy,
  token = user.getSessionToken(),
): Promise<void> {
  const Parse = parse();
  if (!token) fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  const session = await new Parse.Query(Parse.Session).equalTo('sessionToken', token).first(MASTER);
  if (!session) fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  const now = Date.now();
  const created = session.createdAt!.getTime();
  const lastUsed = (session.get(LAST_USED_FIELD) as Date | undefined)?.getTime() ?? created;
  if (now - created > policy.maxSeconds * 1000 || now - lastUsed > policy.idleSeconds * 1000) {
    await session.destroy(MASTER);
    fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  }
  if (now - lastUsed > TOUCH_EVERY_MS) {
    session.set(LAST_USED_FIELD, new Date(now));
    await session.save(null, MASTER);
  }
}

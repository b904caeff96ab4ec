// Changing one's own password while logged in, for students and administrators
// alike: the current password is checked like a login of that kind (wrong
// guesses count against this address, docs/decisions/0006), the new one must
// pass the registration's rules, every session of the account ends, and the
// caller gets a fresh session in place of the one it used.

import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { PasswordChangeMessage } from '@tc/domain/password-change-messages';
import { normalizePassword, passwordProblem } from '@tc/domain/registration';
import type { CloudDeps } from '../deps.ts';
import { optionalString, requireStrings, validationFailed, type CloudRequest } from '../errors.ts';
import { clientAddress } from '../client-address.ts';
import { MASTER, parse } from '../parse.ts';
import { revokeAllSessions } from '../students/status.ts';
import { serialisedForAccount } from './account-lock.ts';
import { logIn, revokeSession, type LoginAttempt, type User } from './accounts.ts';

/** Runs the change itself; an admin's is wrapped in its activity-log entry. */
type Wrap = (change: () => Promise<void>) => Promise<void>;

/**
 * Changes `user`'s password from `currentPassword` to `newPassword` (the request's
 * parameters) and answers the new session token. Wrong current password: 400 with
 * field `currentPassword`; a broken rule: 400 with field `newPassword`.
 */
export async function changeOwnPassword(
  deps: CloudDeps,
  request: CloudRequest,
  user: User,
  kind: LoginAttempt['kind'],
  wrap: Wrap = (change) => change(),
): Promise<string> {
  requireStrings(request.params, ['currentPassword', 'newPassword']);
  const current = normalizePassword(optionalString(request.params, 'currentPassword') ?? '');
  const next = normalizePassword(optionalString(request.params, 'newPassword') ?? '');
  // Parse's own words ("password is required.") would answer an empty one.
  if (!current) validationFailed(PasswordChangeMessage.currentRequired, 'currentPassword');
  const problem = passwordProblem(next);
  if (problem) validationFailed(problem, 'newPassword');

  const address = clientAddress(request);
  const attempt = (password: string, proof?: unknown): LoginAttempt => ({
    kind,
    account: user.getUsername()!,
    user,
    password,
    address,
    proof,
    invalidMessage: PasswordChangeMessage.wrongCurrent,
    lockedMessage: kind === 'admin' ? ServerMessage.adminLocked : ServerMessage.accountLocked,
  });
  // One change of this account's password at a time: a second sent at once checks its
  // current password against the one the first has set, and every session the first
  // ended stays ended.
  return serialisedForAccount(deps, user.id!, async () => {
    try {
      const { sessionToken } = await logIn(deps, attempt(current, request.params.altcha));
      await revokeSession(sessionToken);
    } catch (error) {
      if ((error as { code?: number }).code === ErrorCode.InvalidCredentials) {
        validationFailed(PasswordChangeMessage.wrongCurrent, 'currentPassword');
      }
      throw error;
    }

    let token = '';
    await wrap(async () => {
      user.setPassword(next);
      await user.save(null, MASTER);
      // Parse ends every session of the account on a password change; make sure of
      // it, then replace the caller's with a fresh one. The others stay ended.
      await revokeAllSessions(user);
      // Straight through Parse, not the login guard: the password this call has just set
      // is no guess to count, and an account under a password spray would ask again for
      // the proof of work the check above used up, after the change was made.
      token = (await parse().User.logIn(user.getUsername()!, next)).getSessionToken()!;
    });
    return token;
  });
}

// Students: login by e-mail or mobile, own profile, logout, and the password
// reset by e-mailed code.

import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage, UiMessage } from '@tc/domain/messages';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { ServerMessage } from '@tc/domain/server-messages';
import { resetCodeEmail } from '@tc/domain/notifications';
import {
  isValidEmail,
  normalizeEmail,
  normalizeMobile,
  normalizePassword,
  passwordProblem,
} from '@tc/domain/registration';
import type { CloudDeps } from '../deps.ts';
import { serialisedForAccount } from '../users/account-lock.ts';
import { fail, defineFunction, optionalString, requireStrings, validationFailed } from '../errors.ts';
import { codeParam, consumeCode, issueCode, voidCode, type IssuedCode } from '../otp/codes.ts';
import { MASTER } from '../parse.ts';
import {
  findUserByEmail,
  findUserByMobile,
  isStudent,
  logIn,
  loginAccountKey,
  requireStudent,
  revokeSession,
  toProfile,
} from '../users/accounts.ts';
import { clientAddress } from '../client-address.ts';
import { changeOwnPassword } from '../users/password-change.ts';
import { revokeAllSessions, statusOf } from './status.ts';
import { mailFailureReason } from '../mail-failure.ts';

/**
 * After the answer: the code goes to an active student's address only; any other keeps it
 * unsent until it expires. A deactivated student gets no mail until reactivated (product.md
 * §9), and the answer says nothing of it.
 */
async function mailResetCode(deps: CloudDeps, email: string, issued: IssuedCode): Promise<void> {
  try {
    const user = await findUserByEmail(email);
    if (!user || !isStudent(user) || statusOf(user) === 'deactivated') return;
    try {
      await deps.sendMail({ to: user.get('email') as string, ...resetCodeEmail(issued.code) });
    } catch (error) {
      // Only this code (a newer one the parent asked for meanwhile stays good), and it
      // still counts for the cooldown, as an unknown address's unsent code does.
      await voidCode(issued);
      console.error('Mail delivery failed:', mailFailureReason(error));
    }
  } catch (error) {
    console.error('sendResetCode failed:', error instanceof Error ? error.message : error);
  }
}

export function defineStudentFunctions(deps: CloudDeps): void {
  defineFunction(deps, 'loginStudent', async (request) => {
    const { params } = request;
    requireStrings(params, ['identifier', 'password']);
    const identifier = (optionalString(params, 'identifier') ?? '').trim();
    const password = normalizePassword(optionalString(params, 'password') ?? '');
    if (!identifier) validationFailed(UiMessage.enterIdentifier, 'identifier');
    if (!password) validationFailed(UiMessage.enterPassword, 'password');

    // The username is the e-mail; a mobile number is looked up.
    const byEmail = identifier.includes('@');
    const user = byEmail ? await findUserByEmail(identifier) : await findUserByMobile(identifier);
    const { sessionToken } = await logIn(deps, {
      kind: 'student',
      account:
        user?.getUsername() ?? (byEmail ? normalizeEmail(identifier) : (normalizeMobile(identifier) ?? identifier)),
      user,
      password,
      address: clientAddress(request),
      proof: params.altcha,
      invalidMessage: ServerMessage.invalidStudentLogin,
      lockedMessage: ServerMessage.accountLocked,
    });
    return { tokenStudent: sessionToken };
  });

  // The proof-of-work challenge a login under a spray asks for.
  defineFunction(deps, 'getLoginChallenge', async () => deps.loginGuard.challenge());

  defineFunction(deps, 'getMyProfile', async (request) => toProfile(await requireStudent(request, deps)));

  defineFunction(deps, 'logoutStudent', async (request) => {
    await revokeSession((await requireStudent(request, deps)).getSessionToken());
    return { success: true };
  });

  // Every session of the student, this one included (a lost phone, a shared computer).
  defineFunction(deps, 'logoutAllDevices', async (request) => {
    await revokeAllSessions(await requireStudent(request, deps));
    return { success: true };
  });

  // The current password is required; every other session of the student ends and
  // this one is replaced by a fresh session (the answer's token).
  defineFunction(deps, 'changeMyPassword', async (request) => {
    const me = await requireStudent(request, deps);
    const tokenStudent = await changeOwnPassword(deps, request, me, 'student');
    return { success: true, tokenStudent };
  });

  // An unknown e-mail gets the same answer, in the same time, and no mail. Every
  // address is counted alike: a code is made for it (one for an address that is no
  // student's is never sent, and expires), so a resend within the cooldown or past the
  // hourly cap is a 429 for both (product.md §4). The account is looked up and the mail
  // sent after the answer.
  defineFunction(deps, 'sendResetCode', async ({ params }) => {
    const email = optionalString(params, 'email')?.trim();
    if (!email) validationFailed(UiMessage.enterEmailAddress, 'email');
    if (!isValidEmail(email)) validationFailed(RegistrationMessage.emailInvalid, 'email');
    const issued = await issueCode(deps, 'reset', normalizeEmail(email));
    void mailResetCode(deps, email, issued);
    return { success: true };
  });

  // The code, not the browser, proves the right to a new password; every session
  // of the student is revoked and the lockout of the resetting address is lifted.
  defineFunction(deps, 'resetPassword', async (request) => {
    const { params } = request;
    requireStrings(params, ['email', 'newPassword']);
    const otp = codeParam(params);
    const email = normalizeEmail(optionalString(params, 'email') ?? '');
    if (!email) validationFailed(UiMessage.enterEmailAddress, 'email');
    const newPassword = normalizePassword(optionalString(params, 'newPassword') ?? '');
    const problem = passwordProblem(newPassword);
    if (problem) validationFailed(problem, 'newPassword');

    await consumeCode(deps, 'reset', email, otp);
    const found = await findUserByEmail(email);
    if (!found || !isStudent(found)) fail(ErrorCode.WrongCode, ServerMessage.wrongCode);
    // As any change of the account's password, one at a time (users/account-lock.ts); the
    // account is read again under the lock.
    const user = await serialisedForAccount(deps, found.id!, async () => {
      const account = await found.fetch(MASTER);
      // A code mailed before the deactivation: its owner is told, as at the login.
      if (statusOf(account) === 'deactivated') {
        fail(ErrorCode.AccountDeactivated, AdminToolsMessage.accountDeactivated);
      }
      // Changing the password makes Parse destroy every session of the account
      // (revokeSessionOnPasswordReset), so the old tokens stop working.
      account.setPassword(newPassword);
      await account.save(null, MASTER);
      return account;
    });
    // The owner's own address is let in again at once (a failure here leaves it as it was:
    // the password is set, and the parent is told so).
    await deps.loginGuard
      .forgive(loginAccountKey('student', user.getUsername()!), clientAddress(request))
      .catch((error: unknown) => {
        console.error(
          'Clearing the wrong logins after a reset failed:',
          error instanceof Error ? error.message : error,
        );
      });
    return { success: true };
  });
}

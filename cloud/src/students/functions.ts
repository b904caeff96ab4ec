// Students: login by e-mail or mobile, own profile, logout, and the password
// reset by e-mailed code (seed-spec §2, §4; product.md §4, §5 calls 6-10).

import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage, ServerMessage, UiMessage } from '@tc/domain/messages';
import { resetCodeEmail } from '@tc/domain/notifications';
import { isValidEmail, normalizeEmail, normalizePassword, passwordProblem } from '@tc/domain/registration';
import type { CloudDeps } from '../deps.ts';
import { fail, defineFunction, optionalString, requireStrings, validationFailed } from '../errors.ts';
import { consumeCode, issueCode, withdrawCode } from '../otp/codes.ts';
import { MASTER } from '../parse.ts';
import {
  findUserByEmail,
  findUserByMobile,
  isStudent,
  logIn,
  requireStudent,
  revokeSession,
  toProfile,
  NOBODY,
} from '../users/accounts.ts';

export function defineStudentFunctions(deps: CloudDeps): void {
  defineFunction(deps, 'loginStudent', async ({ params }) => {
    requireStrings(params, ['identifier', 'password']);
    const identifier = String(params.identifier ?? '').trim();
    const password = normalizePassword(String(params.password ?? ''));
    if (!identifier) validationFailed(UiMessage.enterIdentifier, 'identifier');
    if (!password) validationFailed(UiMessage.enterPassword, 'password');

    // The username is the e-mail; a mobile number is looked up first.
    const username = identifier.includes('@')
      ? normalizeEmail(identifier)
      : ((await findUserByMobile(identifier))?.getUsername() ?? NOBODY());
    const { user, sessionToken } = await logIn(username, password, ServerMessage.invalidStudentLogin);
    if (!isStudent(user)) {
      await revokeSession(sessionToken);
      fail(ErrorCode.InvalidCredentials, ServerMessage.invalidStudentLogin);
    }
    return { tokenStudent: sessionToken };
  });

  defineFunction(deps, 'getMyProfile', async (request) => toProfile(requireStudent(request)));

  defineFunction(deps, 'logoutStudent', async (request) => {
    await revokeSession(requireStudent(request).getSessionToken());
    return { success: true };
  });

  // An unknown e-mail gets the same answer and no mail (product.md §5 call 9).
  defineFunction(deps, 'sendResetCode', async ({ params }) => {
    const email = optionalString(params, 'email')?.trim();
    if (!email) validationFailed(UiMessage.enterEmailAddress, 'email');
    if (!isValidEmail(email)) validationFailed(RegistrationMessage.emailInvalid, 'email');
    const user = await findUserByEmail(email);
    if (user && isStudent(user)) {
      const issued = await issueCode(deps, 'reset', normalizeEmail(email));
      try {
        await deps.sendMail({ to: user.get('email'), ...resetCodeEmail(issued.code) });
      } catch (error) {
        // Only this code: a newer one the parent asked for meanwhile stays good.
        await withdrawCode(issued);
        console.error('Mail delivery failed:', error instanceof Error ? error.message : error);
        fail(ErrorCode.DeliveryFailed, ServerMessage.deliveryFailed);
      }
    }
    return { success: true };
  });

  // The code, not the browser, proves the right to a new password; every session
  // of the student is revoked and a lockout is lifted.
  defineFunction(deps, 'resetPassword', async ({ params }) => {
    requireStrings(params, ['email', 'otp', 'newPassword']);
    const email = normalizeEmail(String(params.email ?? ''));
    if (!email) validationFailed(UiMessage.enterEmailAddress, 'email');
    const newPassword = normalizePassword(String(params.newPassword ?? ''));
    const problem = passwordProblem(newPassword);
    if (problem) validationFailed(problem, 'newPassword');

    await consumeCode(deps, 'reset', email, params.otp);
    const user = await findUserByEmail(email);
    if (!user || !isStudent(user)) fail(ErrorCode.WrongCode, ServerMessage.wrongCode);

    // Changing the password makes Parse destroy every session of the account
    // (revokeSessionOnPasswordReset), so the old tokens stop working.
    user.setPassword(newPassword);
    await user.save(null, MASTER);
    await deps.unlockAccount(user.getUsername()!);
    return { success: true };
  });
}

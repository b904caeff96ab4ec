// Students: login by e-mail or mobile, own profile, logout, and the password
// reset by e-mailed code (seed-spec §2, §4; product.md §4, §5 calls 6-10).

import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage, ServerMessage, UiMessage } from '@tc/domain/messages';
import { resetCodeEmail } from '@tc/domain/notifications';
import {
  isValidEmail,
  normalizeEmail,
  normalizeMobile,
  normalizePassword,
  passwordProblem,
} from '@tc/domain/registration';
import type { CloudDeps } from '../deps.ts';
import { fail, guarded, optionalString, requireStrings, validationFailed } from '../errors.ts';
import { consumeCode, issueCode, withdrawCode } from '../otp/codes.ts';
import { MASTER, parse } from '../parse.ts';
import {
  clientAddress,
  findUserByEmail,
  findUserByMobile,
  isStudent,
  logIn,
  requireStudent,
  revokeSession,
  toProfile,
  type User,
} from '../users/accounts.ts';

type Params = Record<string, unknown>;
interface Request {
  params: Params;
  user?: User;
  ip?: string;
  context?: Record<string, unknown>;
}

async function mailResetCode(deps: CloudDeps, email: string): Promise<void> {
  try {
    const user = await findUserByEmail(email);
    if (!user || !isStudent(user)) return;
    const code = await issueCode(deps, 'reset', normalizeEmail(email));
    try {
      await deps.sendMail({ to: user.get('email'), ...resetCodeEmail(code) });
    } catch (error) {
      await withdrawCode('reset', normalizeEmail(email));
      console.error('Mail delivery failed:', error instanceof Error ? error.message : error);
    }
  } catch (error) {
    const Parse = parse();
    // A cooldown or the hourly cap: the code already sent stands.
    if (error instanceof Parse.Error && error.code === ErrorCode.TooManyRequests) return;
    console.error('sendResetCode failed:', error instanceof Error ? error.message : error);
  }
}

export function defineStudentFunctions(deps: CloudDeps): void {
  const Parse = parse();

  Parse.Cloud.define(
    'loginStudent',
    guarded('loginStudent', async (request: Request) => {
      const { params } = request;
      requireStrings(params, ['identifier', 'password']);
      const identifier = String(params.identifier ?? '').trim();
      const password = normalizePassword(String(params.password ?? ''));
      if (!identifier) validationFailed(UiMessage.enterIdentifier);
      if (!password) validationFailed(UiMessage.enterPassword);

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
    }),
  );

  // The proof-of-work challenge a login under a spray asks for (product.md §10).
  Parse.Cloud.define(
    'getLoginChallenge',
    guarded('getLoginChallenge', async () => deps.loginGuard.challenge()),
  );

  Parse.Cloud.define(
    'getMyProfile',
    guarded('getMyProfile', async (request: Request) => toProfile(await requireStudent(request, deps))),
  );

  Parse.Cloud.define(
    'logoutStudent',
    guarded('logoutStudent', async (request: Request) => {
      await revokeSession((await requireStudent(request, deps)).getSessionToken());
      return { success: true };
    }),
  );

  // Every session of the student, this one included (a lost phone, a shared computer).
  Parse.Cloud.define(
    'logoutAllDevices',
    guarded('logoutAllDevices', async (request: Request) => {
      const user = await requireStudent(request, deps);
      const sessions = await new Parse.Query(Parse.Session).equalTo('user', user).find(MASTER);
      await Parse.Object.destroyAll(sessions, MASTER);
      return { success: true };
    }),
  );

  // An unknown e-mail gets the same answer, in the same time, and no mail
  // (product.md §5 call 9, §10): the code is made and mailed after the answer,
  // and a cooldown or a failed delivery is logged, never told.
  Parse.Cloud.define(
    'sendResetCode',
    guarded('sendResetCode', async ({ params }: Request) => {
      const email = optionalString(params, 'email')?.trim();
      if (!email) validationFailed(UiMessage.enterEmailAddress);
      if (!isValidEmail(email)) validationFailed(RegistrationMessage.emailInvalid);
      void mailResetCode(deps, email);
      return { success: true };
    }),
  );

  // The code, not the browser, proves the right to a new password; every session
  // of the student is revoked and the lockout of the resetting address is lifted.
  Parse.Cloud.define(
    'resetPassword',
    guarded('resetPassword', async (request: Request) => {
      const { params } = request;
      requireStrings(params, ['email', 'otp', 'newPassword']);
      const email = normalizeEmail(String(params.email ?? ''));
      if (!email) validationFailed(UiMessage.enterEmailAddress);
      const newPassword = normalizePassword(String(params.newPassword ?? ''));
      const problem = passwordProblem(newPassword);
      if (problem) validationFailed(problem);

      await consumeCode(deps, 'reset', email, params.otp);
      const user = await findUserByEmail(email);
      if (!user || !isStudent(user)) fail(ErrorCode.WrongCode, ServerMessage.wrongCode);

      // Changing the password makes Parse destroy every session of the account
      // (revokeSessionOnPasswordReset), so the old tokens stop working.
      user.setPassword(newPassword);
      await user.save(null, MASTER);
      // The owner's own address is let in again at once.
      await deps.loginGuard.succeeded(`student:${user.getUsername()}`, clientAddress(request));
      return { success: true };
    }),
  );
}

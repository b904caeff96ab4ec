// Registration (seed-spec §4, §5; product.md §4-§7): existence checks, the
// registration code by SMS, the registration itself and the welcome mail.

import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage, ServerMessage } from '@tc/domain/messages';
import { registrationCodeSms, welcomeEmail } from '@tc/domain/notifications';
import { isValidEmail, normalizeEmail, normalizeMobile, validateRegistration } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import type { CloudDeps } from '../deps.ts';
import { defineFunction, fail, type Params, optionalString, requireStrings, validationFailed } from '../errors.ts';
import { consumeCode, issueCode, withdrawCode } from '../otp/codes.ts';
import { MASTER, parse } from '../parse.ts';
import {
  ENROLLMENT_FIELD,
  findUserByEmail,
  findUserByMobile,
  isStudent,
  saveStudent,
  takenContact,
} from '../users/accounts.ts';
import { forgetCounts } from '../users/student-count.ts';

function emailParam(params: Params): string {
  const email = optionalString(params, 'email')?.trim();
  if (!email) validationFailed(RegistrationMessage.emailRequired, 'email');
  if (!isValidEmail(email)) validationFailed(RegistrationMessage.emailInvalid, 'email');
  return normalizeEmail(email);
}

function mobileParam(params: Params): string {
  const mobile = optionalString(params, 'mobile')?.trim();
  if (!mobile) validationFailed(RegistrationMessage.mobileRequired, 'mobile');
  const normalized = normalizeMobile(mobile);
  if (!normalized) validationFailed(RegistrationMessage.mobileInvalid, 'mobile');
  return normalized;
}

export function defineRegistrationFunctions(deps: CloudDeps): void {
  const Parse = parse();

  defineFunction(deps, 'checkEmail', async ({ params }) => ({
    exists: Boolean(await findUserByEmail(emailParam(params))),
  }));

  defineFunction(deps, 'checkMobile', async ({ params }) => ({
    exists: Boolean(await findUserByMobile(mobileParam(params))),
  }));

  // A client-supplied `otp` is ignored: the server makes the code (product.md §4).
  defineFunction(deps, 'sendRegistrationCode', async ({ params }) => {
    const mobile = mobileParam(params);
    if (await findUserByMobile(mobile)) fail(ErrorCode.MobileTaken, ServerMessage.mobileTaken);
    const code = await issueCode(deps, 'register', mobile);
    try {
      await deps.sendSms({ to: mobile, message: registrationCodeSms(code) });
    } catch (error) {
      // Not delivered: withdraw it, so the parent may ask again at once.
      await withdrawCode('register', mobile);
      console.error('SMS delivery failed:', error instanceof Error ? error.message : error);
      fail(ErrorCode.DeliveryFailed, ServerMessage.deliveryFailed);
    }
    return { success: true };
  });

  defineFunction(deps, 'registerStudent', async ({ params }) => {
    requireStrings(params, ['fullname', 'email', 'mobile', 'password', 'cnfpassword', 'gender', 'board', 'otp']);
    const result = validateRegistration(params);
    if (!result.ok) validationFailed(result.message, result.field);
    const student = result.value;

    const taken = await takenContact(student.email, student.mobile);
    if (taken === 'email') fail(ErrorCode.EmailTaken, ServerMessage.emailTaken);
    if (taken === 'mobile') fail(ErrorCode.MobileTaken, ServerMessage.mobileTaken);
    await consumeCode(deps, 'register', student.mobile, params.otp);

    const user = new Parse.User();
    user.set({
      username: student.email,
      email: student.email,
      password: student.password,
      fullname: student.fullname,
      mobile: student.mobile,
      dob: student.dob,
      gender: student.gender,
      grade: student.grade,
      board: student.board,
      tmc: student.tmc,
      [ENROLLMENT_FIELD]: await deps.nextEnrollmentId(),
    });
    // No ACL but the account's own: Parse gives every new account read and write
    // for itself alone. Writes stay closed all the same: the class permits them to
    // the master key only, and a beforeSave guard refuses any other.
    user.setACL(new Parse.ACL());
    await saveStudent(user, student.email, student.mobile);
    forgetCounts();
    return { objectId: user.id, id: user.get(ENROLLMENT_FIELD) };
  });

  // Sent once per student; a repeat answers the first message id (product.md §5 call 5).
  defineFunction(deps, 'sendWelcomeEmail', async ({ params }) => {
    optionalString(params, 'fullname');
    const user = await findUserByEmail(emailParam(params));
    if (!user || !isStudent(user)) fail(ErrorCode.NotFound, ServerMessage.unknownEmail);

    user.increment('welcomeMailClaims');
    await user.save(null, MASTER);
    if (user.get('welcomeMailClaims') === 1) {
      const mail = welcomeEmail(user.get('fullname'), `${deps.publicUrl}${Route.studentLogin}`);
      try {
        const { messageId } = await deps.sendMail({ to: user.get('email'), ...mail });
        user.set('welcomeMessageId', messageId);
        await user.save(null, MASTER);
        return { messageId };
      } catch (error) {
        // Let a later call try again.
        user.set('welcomeMailClaims', 0);
        await user.save(null, MASTER);
        console.error('Mail delivery failed:', error instanceof Error ? error.message : error);
        fail(ErrorCode.DeliveryFailed, ServerMessage.deliveryFailed);
      }
    }
    // Another call is sending it, or has sent it: answer its message id.
    for (let wait = 0; wait < 50; wait++) {
      await user.fetch(MASTER);
      const messageId = user.get('welcomeMessageId');
      if (messageId) return { messageId };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    fail(ErrorCode.TooManyRequests, ServerMessage.tooManyRequests);
  });
}

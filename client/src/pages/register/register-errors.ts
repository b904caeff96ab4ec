import { ErrorCode } from '@tc/domain/errors';
import { UiMessage } from '@tc/domain/messages';
import type { ApiResult } from '../../lib/api.ts';
import { errorCode, errorField, errorText } from '../../lib/errors.ts';

/**
 * The message and the field of a failed final registration call,
 * chosen by the error code and the field the server named, never by its text.
 */
export function registrationFailure(result: ApiResult<unknown>): { message: string; field: string | null } {
  switch (errorCode(result)) {
    case ErrorCode.WrongCode:
      return { message: UiMessage.invalidOtp, field: 'otp' };
    case ErrorCode.EmailTaken:
      return { message: UiMessage.thisEmailRegistered, field: 'email' };
    case ErrorCode.MobileTaken:
      return { message: UiMessage.thisMobileRegistered, field: 'mobile' };
    default:
      return { message: errorText(result, UiMessage.registrationFailed), field: errorField(result) ?? null };
  }
}

import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage, UiMessage } from '@tc/domain/messages';
import type { ApiResult } from '../../lib/api.ts';
import { errorCode, errorText } from '../../lib/errors.ts';

/** The toast text for a failed final registration call (seed-spec §8, in its order). */
export function registrationErrorText(result: ApiResult<unknown>): string {
  const code = errorCode(result);
  const text = errorText(result, '');
  if (code === ErrorCode.WrongCode) return UiMessage.invalidOtp;
  if (text === ServerMessage.emailTaken) return UiMessage.thisEmailRegistered;
  if (text === ServerMessage.mobileTaken) return UiMessage.thisMobileRegistered;
  if (code === ErrorCode.EmailTaken) return UiMessage.emailExists;
  return text || UiMessage.registrationFailed;
}

// One function turns a failed call into the toast text (house style: "one client
// function that turns an error into the toast text"); forms branch on the code and
// put the message under the field the server named, never by comparing texts.

import { ErrorCode } from '@tc/domain/errors';
import type { ApiErrorBody, ApiResult } from './api.ts';

/** Failures that are about one field whatever the form: the code, a taken e-mail or mobile. */
const FIELD_OF_CODE: Partial<Record<number, string>> = {
  [ErrorCode.EmailTaken]: 'email',
  [ErrorCode.MobileTaken]: 'mobile',
  [ErrorCode.WrongCode]: 'otp',
  [ErrorCode.ExpiredCode]: 'otp',
  [ErrorCode.TooManyTries]: 'otp',
};

function bodyOf(result: ApiResult<unknown>): ApiErrorBody | null {
  const body = result.data as ApiErrorBody | null;
  return body && typeof body === 'object' ? body : null;
}

/** The server's `error` text when it sent one, else the screen's fallback text. */
export function errorText(result: ApiResult<unknown>, fallback: string): string {
  const error = bodyOf(result)?.error;
  return typeof error === 'string' && error.trim() ? error : fallback;
}

/** The facade's error code, if the body carried one. */
export function errorCode(result: ApiResult<unknown>): number | undefined {
  const code = bodyOf(result)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** The input field to blame: the one the body named, or the code field for a code's failure. */
export function errorField(result: ApiResult<unknown>): string | undefined {
  const field = bodyOf(result)?.field;
  if (typeof field === 'string' && field) return field;
  const code = errorCode(result);
  return code === undefined ? undefined : FIELD_OF_CODE[code];
}

/** A 401 about the session, not about a password typed on the page (a wrong current password is 401 too). */
export function isSessionRefused(result: ApiResult<unknown>): boolean {
  if (result.status !== 401) return false;
  const code = errorCode(result);
  return code === undefined || code === ErrorCode.InvalidSession;
}

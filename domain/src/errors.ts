// One error type and one table for the whole product.

/**
 * Error codes. The product's own codes (30xx) are named here; the others carry
 * the same numbers as the Parse.Error constant named beside them, so that a
 * Parse client and an /api client see one code for one failure.
 */
export const ErrorCode = {
  /** Parse.Error.OBJECT_NOT_FOUND */
  NotFound: 101,
  /** Parse.Error.INVALID_JSON */
  BadRequest: 107,
  /** Parse.Error.OPERATION_FORBIDDEN */
  Forbidden: 119,
  /** Parse.Error.VALIDATION_ERROR: a validation rule, with the rule's message. */
  Validation: 142,
  /** Parse.Error.INVALID_SESSION_TOKEN */
  InvalidSession: 209,
  EmailTaken: 3033,
  MobileTaken: 3034,
  WrongCode: 3040,
  ExpiredCode: 3041,
  TooManyTries: 3042,
  TooManyRequests: 3043,
  InvalidCredentials: 3050,
  AccountLocked: 3051,
  /** The account is under a password spray: solve the proof-of-work challenge and send it again. */
  ChallengeRequired: 3052,
  /** A deactivated (or erased) student tried to log in. */
  AccountDeactivated: 3053,
  PayloadTooLarge: 3413,
  Internal: 3500,
  /** The SMS gateway or the mail server refused or failed. */
  DeliveryFailed: 3502,
  /** The database is away for a moment (restarting, frozen, timed out): try again. */
  Unavailable: 3503,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status of each code on the /api facade. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.NotFound]: 404,
  [ErrorCode.BadRequest]: 400,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.Validation]: 400,
  [ErrorCode.InvalidSession]: 401,
  [ErrorCode.EmailTaken]: 409,
  [ErrorCode.MobileTaken]: 409,
  [ErrorCode.WrongCode]: 400,
  [ErrorCode.ExpiredCode]: 400,
  [ErrorCode.TooManyTries]: 400,
  [ErrorCode.TooManyRequests]: 429,
  [ErrorCode.InvalidCredentials]: 401,
  [ErrorCode.AccountLocked]: 401,
  [ErrorCode.ChallengeRequired]: 401,
  [ErrorCode.AccountDeactivated]: 403,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.Internal]: 500,
  [ErrorCode.DeliveryFailed]: 502,
  [ErrorCode.Unavailable]: 503,
};

/** A wait as HTTP's Retry-After says it: whole seconds, at least one. */
export function retryAfterSeconds(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}

export class AppError extends Error {
  readonly code: ErrorCode;
  /** The input field whose rule failed, when one did: forms highlight and focus it. */
  readonly field: string | undefined;
  /** A refusal for a while (429): the seconds until a new try can pass (HTTP's Retry-After), when known. */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, field?: string, retryAfter?: number) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = field ?? FIELD_OF_CODE[code];
    this.retryAfter = retryAfter === undefined ? undefined : retryAfterSeconds(retryAfter);
  }
}

/** Failures that always concern one field, whichever call answers them. */
const FIELD_OF_CODE: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.EmailTaken]: 'email',
  [ErrorCode.MobileTaken]: 'mobile',
  [ErrorCode.WrongCode]: 'otp',
  [ErrorCode.ExpiredCode]: 'otp',
  [ErrorCode.TooManyTries]: 'otp',
};

/** The field an error concerns: the one it names, else the one its code always concerns. */
export function fieldOf(error: { code?: number; field?: string }): string | undefined {
  return error.field ?? (isErrorCode(error.code) ? FIELD_OF_CODE[error.code] : undefined);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'number' && value in HTTP_STATUS;
}

export function httpStatusOf(code: number): number {
  return isErrorCode(code) ? HTTP_STATUS[code] : 400;
}

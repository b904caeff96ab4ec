import { OTP_LENGTH } from '@tc/domain/constants';

const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);

/** Whether a typed code has the shape of a one-time code (six digits). */
export function looksLikeOtp(value: string): boolean {
  return OTP_PATTERN.test(value.trim());
}

/** Keeps only digits, at most the code's length. */
export function cleanOtpInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

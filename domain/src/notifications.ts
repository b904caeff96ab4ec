// The texts of the SMS and e-mails the site sends. Each one-time code appears
// as exactly six digits, and no other run of six digits appears.

import { OTP_TTL_SECONDS, PRODUCT_NAME } from './constants.ts';

const minutes = OTP_TTL_SECONDS / 60;

export function registrationCodeSms(code: string): string {
  return `${code} is your ${PRODUCT_NAME} verification code. It expires in ${minutes} minutes. Do not share it with anyone.`;
}

/**
 * Sent instead of a code when someone asks for one to register a number that is
 * registered already: its owner learns how to get in, the asker learns nothing
 * from the answer (product.md §10). No code, and no run of six digits.
 */
export function mobileAlreadyRegisteredSms(loginUrl: string): string {
  return `This number is already registered with ${PRODUCT_NAME}. Log in with it, or reset your password, at ${loginUrl}`;
}

export function resetCodeEmail(code: string): { subject: string; text: string } {
  return {
    subject: `Your ${PRODUCT_NAME} password reset code`,
    text: [
      'Hello,',
      '',
      `Your password reset code is ${code}. It expires in ${minutes} minutes.`,
      '',
      'If you did not ask to reset your password, you can ignore this e-mail; your password stays as it is.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
  };
}

export function welcomeEmail(
  fullname: string,
  enrollmentId: number,
  loginUrl: string,
): { subject: string; text: string } {
  return {
    subject: `Welcome to ${PRODUCT_NAME}`,
    text: [
      `Dear ${fullname},`,
      '',
      `Thank you for registering with ${PRODUCT_NAME}. Your account is ready.`,
      `Your enrollment number is ${enrollmentId}.`,
      `Log in at ${loginUrl} with your e-mail address or mobile number to see your profile.`,
      '',
      'Happy learning!',
      PRODUCT_NAME,
    ].join('\n'),
  };
}

/** The mail of a publication: "New marks in Mathematics: Unit Test 3, 18 / 20". */
export function marksPublishedEmail(
  fullname: string,
  result: { subject: string; title: string; marks: number; maxMarks: number },
  progressUrl: string,
): { subject: string; text: string } {
  const score = `${result.marks} / ${result.maxMarks}`;
  return {
    subject: `New marks in ${result.subject}: ${result.title}, ${score}`,
    text: [
      `Dear ${fullname},`,
      '',
      `New marks in ${result.subject}: ${result.title}, ${score}.`,
      '',
      `See all your results and how they develop over time at ${progressUrl}`,
      '',
      PRODUCT_NAME,
    ].join('\n'),
  };
}

import { RegistrationMessage as M } from '@tc/domain/messages';

export type RegistrationField =
  'fullname' | 'email' | 'mobile' | 'password' | 'cnfpassword' | 'dob' | 'gender' | 'grade' | 'board' | 'tmc' | 'otp';

/** Which field a rule's message belongs under (design.md: colour is never the only signal). */
const FIELD_OF_MESSAGE: Record<string, RegistrationField> = {
  [M.fullnameRequired]: 'fullname',
  [M.fullnameTooLong]: 'fullname',
  [M.emailRequired]: 'email',
  [M.emailInvalid]: 'email',
  [M.mobileRequired]: 'mobile',
  [M.mobileInvalid]: 'mobile',
  [M.passwordRequired]: 'password',
  [M.passwordTooShort]: 'password',
  [M.passwordTooLong]: 'password',
  [M.passwordsDoNotMatch]: 'cnfpassword',
  [M.dobRequired]: 'dob',
  [M.dobInFuture]: 'dob',
  [M.tooYoung]: 'dob',
  [M.dobInvalid]: 'dob',
  [M.gradeRequired]: 'grade',
  [M.gradeOutOfRange]: 'grade',
  [M.boardRequired]: 'board',
  [M.boardInvalid]: 'board',
  [M.termsRequired]: 'tmc',
  [M.genderInvalid]: 'gender',
};

export function fieldOfMessage(message: string): RegistrationField | null {
  return FIELD_OF_MESSAGE[message] ?? null;
}

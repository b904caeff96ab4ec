// Admin tools: student status, erasure, the activity log, the
// CSV export and administrator accounts. Shared by the cloud code, the server's
// export route and the client.

import { AdminToolsMessage } from './admin-tools-messages.ts';
import { OTP_LENGTH } from './constants.ts';
import { fullnameProblem } from './registration.ts';

export const STUDENT_STATUSES = ['active', 'deactivated'] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];

/** A student's status as stored: missing (an account from before statuses) means active. */
export function storedStatus(value: unknown): StudentStatus {
  return value === 'deactivated' ? 'deactivated' : 'active';
}

/** The listing's status filter: '' (the default) shows active students only. */
export const STATUS_FILTERS = ['active', 'deactivated', 'all'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** What an activity entry records. */
export const ACTIVITY_KINDS = [
  'student.update',
  'student.deactivate',
  'student.reactivate',
  'student.erase',
  'students.export',
  'admin.invite',
  'admin.accept',
  'admin.remove',
  'admin.withdraw',
  'admin.password',
  'timetable.create',
  'timetable.update',
  'timetable.delete',
  'holiday.create',
  'holiday.delete',
  'assessment.create',
  'assessment.update',
  'assessment.delete',
  'assessment.publish',
  'marks.save',
  'marks.import',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** An entry is written `pending` before its change and settles once the change is done or has failed. */
export const ACTIVITY_STATES = ['pending', 'applied', 'failed'] as const;
export type ActivityState = (typeof ACTIVITY_STATES)[number];

/** Stands in for a personal value once its student has been erased. */
export const REDACTED = '[erased]';

/** The text an admin types to confirm an erasure. */
export const ERASE_CONFIRMATION = 'ERASE';

/** Non-identifying values that replace an erased student's personal data (unique where the column is). */
export const ERASED_DOMAIN = 'erased.invalid';
export const erasedEmail = (objectId: string) => `erased-${objectId.toLowerCase()}@${ERASED_DOMAIN}`;
export const ERASED_NAME = 'Erased student';
export const isErasedEmail = (email: string | undefined | null) =>
  typeof email === 'string' && email.toLowerCase().endsWith(`@${ERASED_DOMAIN}`);

/** What is wrong with an invited administrator's name (normalizeFullname'd), or null: a student's full-name rule, in the Name field's words. */
export function adminNameProblem(name: string): string | null {
  if (!name) return AdminToolsMessage.nameRequired;
  return fullnameProblem(name, { tooLong: AdminToolsMessage.nameTooLong, invisible: AdminToolsMessage.nameInvisible });
}

/** An admin invitation's set-password code lives 48 hours. */
export const ADMIN_INVITE_TTL_SECONDS = 48 * 3600;

/** Activity page size. */
export const ACTIVITY_DEFAULT_LIMIT = 50;
export const ACTIVITY_MAX_LIMIT = 200;

/** The CSV export (a file, not JSON: a dedicated route beside the contract table). */
export const EXPORT_PATH = '/api/users/export.csv';
/** The admin table's columns, which the export repeats (product.md §9: "the table's columns"). */
export const STUDENT_COLUMNS = {
  id: 'ID',
  fullname: 'Full Name',
  gender: 'Gender',
  mobile: 'Mobile',
  email: 'Email',
  dob: 'Date of Birth',
  board: 'Board',
  grade: 'Grade',
} as const;
export const EXPORT_COLUMNS = Object.values(STUDENT_COLUMNS);

/** YYYY-MM-DD or an ISO date-time to DD/MM/YYYY; '' for nothing. */
export function ddmmyyyy(value: string | Date | null | undefined): string {
  if (!value) return '';
  const iso = value instanceof Date ? value.toISOString() : value;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : '';
}

/** A cell a spreadsheet would run as a formula gets a leading '. */
export function guardCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The invitation mail of a new administrator. */
/**
 * The invitation: the code is the only run of six digits in its text (product.md §3),
 * so a name or an address with one is left out (the page then asks for the address).
 */
export function adminInviteEmail(
  invitee: { name: string; email: string },
  code: string,
  pageUrl: string,
): { subject: string; text: string } {
  const sixDigits = new RegExp(`\\d{${OTP_LENGTH}}`);
  // As it is written in the link: "@2024school" becomes "%402024school".
  const withEmail = `${pageUrl}?email=${encodeURIComponent(invitee.email)}`;
  const link = sixDigits.test(withEmail) ? pageUrl : withEmail;
  return {
    subject: 'You are invited to administer Guided Learning Tuition Centre',
    text: [
      sixDigits.test(invitee.name) ? 'Hello,' : `Hello ${invitee.name},`,
      '',
      'You have been invited to become an administrator of Guided Learning Tuition Centre.',
      `Your code is ${code}. It is valid for 48 hours.`,
      '',
      `Choose your password here: ${link}`,
      '',
      'If you did not expect this invitation, you can ignore this e-mail.',
    ].join('\n'),
  };
}

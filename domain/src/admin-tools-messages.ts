// The admin tools' messages. Apart from messages.ts: the public forms' code
// need not carry them.

import { FULLNAME_MAX_LENGTH, HISTORY_MAX_ENTRIES } from './constants.ts';
import { QUERY_YEARS } from './dates.ts';

/** Admin tools. */
export const AdminToolsMessage = {
  accountDeactivated: 'This account has been deactivated. Please contact the centre.',
  statusInvalid: 'Status must be active or deactivated',
  statusFilterInvalid: 'Status must be active, deactivated or all',
  alreadyErased: 'This student has already been erased',
  erasedCannotChange: 'An erased student cannot be changed',
  /** An edit whose `before` differs from the stored student: another admin's change meanwhile. */
  changedMeanwhile:
    'Another administrator has changed this student since you opened it. Close it and open it again to see their change.',
  beforeInvalid: 'before must be an object of the fields to change as they were shown',
  eraseConfirmation: (word: string) => `Type ${word} to confirm`,
  /** After an export: the file leaves the site's protection, and says so where it lands. */
  exportSaved: (file: string) =>
    `Saved ${file}. It holds students' personal details: on a shared computer, delete it when you are done.`,
  /** Too many exports under way at once (each holds a database connection while it downloads). */
  exportsBusy: 'Other exports are still downloading. Please try again in a minute.',
  exportFailed: 'The export failed. Please try again.',
  kindInvalid: 'Unknown kind of activity',
  dateInvalid: `Dates must be real dates as YYYY-MM-DD, from ${QUERY_YEARS.first} to ${QUERY_YEARS.last}`,
  notAnAdmin: 'No administrator with this id',
  invitationNotFound:
    'No invitation waiting with this id: it has been accepted, has expired, was withdrawn or was sent again',
  cannotRemoveSelf: 'You cannot remove your own administrator rights',
  cannotRemoveLast: 'The last administrator cannot be removed',
  studentEmail: 'This e-mail belongs to a student',
  alreadyAdmin: 'This person is already an administrator',
  /** An invitee cannot ask for a new code, as a parent can: the administrator who invited them sends one. */
  invitationCodeWrong: 'Invalid code. Check it, or ask an administrator to invite you again.',
  /** An invitee whose address became an administrator's while the invitation waited. */
  acceptedAlready: "This address is already an administrator's. Please log in.",
  invitationExpired: 'This invitation has expired. Please ask an administrator to invite you again.',
  invitationBlocked: 'Too many wrong attempts. Please ask an administrator to invite you again.',
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${FULLNAME_MAX_LENGTH} characters`,
  nameInvisible: 'Name must not contain invisible or control characters',
  logImmutable: 'Activity entries cannot be changed or deleted',
  activityNotLoaded: 'Could not load the activity',
  adminsNotLoaded: 'Could not load the administrators',
  invitationSent: (email: string) => `Invitation sent to ${email}`,
  invitationFailed: 'The invitation failed',
  historyNotLoaded: 'Could not load the history',
  /** Under a History that reached HISTORY_MAX_ENTRIES: older entries may exist and are not listed. */
  historyCapped: `The latest ${HISTORY_MAX_ENTRIES.toLocaleString('en-IN')} changes are shown; the Activity page lists every one.`,
} as const;

// The rules for an administrator's edit of a student:
// the registration rules, field by field, on the fields that were sent.

import { AdminToolsMessage } from './admin-tools-messages.ts';
import type { Board, Gender, Grade } from './constants.ts';
import { todayIso } from './dates.ts';
import { RegistrationMessage as M } from './messages.ts';
import { ServerMessage } from './server-messages.ts';
import {
  dobProblem,
  isValidEmail,
  normalizeEmail,
  normalizeMobile,
  parseBoard,
  parseGender,
  parseGrade,
} from './registration.ts';
import { EDITABLE_STUDENT_FIELDS, READ_ONLY_STUDENT_FIELDS, type EditableStudentField } from './student.ts';

export interface StudentChanges {
  gender?: Gender;
  mobile?: string;
  email?: string;
  dob?: string;
  board?: Board;
  grade?: Grade;
}

/** The fields to change as the admin was shown them: a save over another admin's change is refused. */
export type StudentBefore = Partial<Record<EditableStudentField, unknown>>;

export type StudentUpdateResult =
  | { ok: true; value: StudentChanges; before?: StudentBefore }
  | { ok: false; field: EditableStudentField | undefined; message: string };

const IGNORED_FIELDS = ['objectId', 'createdAt', 'updatedAt'];
/** Not a field of the student: what the fields to change were when the admin opened them. */
const BEFORE = 'before';

/**
 * `stored`: the student's read-only fields as stored, when one was sent. A read-only field
 * sent with the value it has (a client sending back the whole row) changes nothing and is
 * no error; any other value is refused.
 */
export function validateStudentUpdate(
  input: Record<string, unknown>,
  today: string = todayIso(),
  stored: Partial<Record<(typeof READ_ONLY_STUDENT_FIELDS)[number], unknown>> = {},
): StudentUpdateResult {
  const fail = (field: EditableStudentField | undefined, message: string): StudentUpdateResult => ({
    ok: false,
    field,
    message,
  });
  const changes: StudentChanges = {};

  let before: StudentBefore | undefined;
  if (BEFORE in input) {
    const sent = input[BEFORE];
    const fields = typeof sent === 'object' && sent !== null && !Array.isArray(sent) ? Object.keys(sent) : null;
    if (!fields || fields.some((key) => !(EDITABLE_STUDENT_FIELDS as readonly string[]).includes(key))) {
      return fail(undefined, AdminToolsMessage.beforeInvalid);
    }
    before = sent as StudentBefore;
  }

  for (const key of Object.keys(input)) {
    if (key === BEFORE) continue;
    if ((READ_ONLY_STUDENT_FIELDS as readonly string[]).includes(key)) {
      const kept = stored[key as keyof typeof stored];
      if (kept !== undefined && input[key] === kept) continue;
      return fail(undefined, ServerMessage.readOnlyField(key));
    }
    if (!(EDITABLE_STUDENT_FIELDS as readonly string[]).includes(key) && !IGNORED_FIELDS.includes(key)) {
      return fail(undefined, ServerMessage.unknownField(key));
    }
  }

  if ('email' in input) {
    if (typeof input.email !== 'string' || !input.email.trim()) return fail('email', M.emailRequired);
    if (!isValidEmail(input.email)) return fail('email', M.emailInvalid);
    changes.email = normalizeEmail(input.email);
  }
  if ('mobile' in input) {
    if (typeof input.mobile !== 'string' || !input.mobile.trim()) return fail('mobile', M.mobileRequired);
    const mobile = normalizeMobile(input.mobile);
    if (!mobile) return fail('mobile', M.mobileInvalid);
    changes.mobile = mobile;
  }
  if ('dob' in input) {
    const problem = dobProblem(input.dob, today);
    if (problem) return fail('dob', problem);
    changes.dob = input.dob as string;
  }
  if ('grade' in input) {
    if (input.grade === null || input.grade === '') return fail('grade', M.gradeRequired);
    const grade = parseGrade(input.grade);
    if (grade === null) return fail('grade', M.gradeOutOfRange);
    changes.grade = grade;
  }
  if ('board' in input) {
    if (input.board === null || input.board === '') return fail('board', M.boardRequired);
    const board = parseBoard(input.board);
    if (!board) return fail('board', M.boardInvalid);
    changes.board = board;
  }
  if ('gender' in input) {
    const gender = parseGender(input.gender);
    if (!gender) return fail('gender', M.genderInvalid);
    changes.gender = gender;
  }
  return { ok: true, value: changes, ...(before ? { before } : {}) };
}

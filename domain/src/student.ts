// The shapes of a student on the wire.

import type { Board, Gender, Grade } from './constants.ts';

/** GET /api/students/me */
export interface StudentProfile {
  fullname: string;
  email: string;
  mobile: string;
  board: Board;
  grade: Grade;
  gender: Gender;
  dob: string;
  id: number;
}

/** One row of GET /api/users */
export interface StudentRecord extends StudentProfile {
  objectId: string;
  createdAt: string;
  /** Missing means active. */
  status?: 'active' | 'deactivated';
  /** The personal data has been erased. */
  erased?: boolean;
  /** Erased, but a fault stopped the erasure's last steps: erasing again finishes them. */
  erasureUnfinished?: boolean;
}

/** The fields an admin may change (PUT /api/users/:objectId). */
export const EDITABLE_STUDENT_FIELDS = ['gender', 'mobile', 'email', 'dob', 'board', 'grade'] as const;
export type EditableStudentField = (typeof EDITABLE_STUDENT_FIELDS)[number];
/**
 * Fields of a student's record that PUT /api/users/:objectId never changes: the name and the
 * enrollment number for good, the status by its own call. Sent back as stored, they are no change.
 */
export const READ_ONLY_STUDENT_FIELDS = ['fullname', 'id', 'status'] as const;

export interface AdminProfile {
  name: string;
  email: string;
}

// The /api contract, one declaration per call. The server builds its router and
// the OpenAPI document from this table, the cloud code takes each function's
// rate-limit group from it, and the client's `call()` takes paths and types
// from it. Adding a call means adding one entry here (and its cloud function).

import type { Infer } from './infer.ts';
import * as S from './shapes.ts';

/**
 * Per-client-address limits, counted where the cloud function runs (so every
 * path that reaches it, /api or /parse in any spelling or batch, is counted).
 * `none` is a decision too: calls that need a session, or cost nothing.
 */
export const LIMIT_GROUPS = ['send-code', 'check-code', 'login', 'lookup', 'none'] as const;
export type LimitGroup = (typeof LIMIT_GROUPS)[number];

export type Auth = 'none' | 'student' | 'admin';

export interface CallSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI-style path: `/api/users/{objectId}`. */
  path: string;
  /** The cloud function it runs; `null` for the few answered by the server itself. */
  fn: string | null;
  summary: string;
  description?: string;
  tag: 'Registration' | 'Students' | 'Admin' | 'Site' | 'Assessments' | 'Schedule';
  auth: Auth;
  limit: LimitGroup;
  /** Where the parameters come from (path parameters always come from the path). */
  input: 'body' | 'query' | 'none';
  request: object;
  response: object;
  /** The status of a success (200 unless said). */
  status?: 200 | 201;
  /** A failure answered with this status and these fields beside `error` and `code`. */
  failure?: { status: number; extra?: { success: false } };
  /** Headers of a success, e.g. `Cache-Control: no-store`. */
  headers?: Record<string, string>;
  /** The cloud function answers `{items, total}`; the wire carries the array and the total in this header. */
  totalHeader?: string;
}

const none = S.object({});

export const CALLS = {
  health: {
    method: 'GET',
    path: '/api/health',
    fn: null,
    summary: 'Liveness and database health',
    description: '200 once the database answers, 503 otherwise (for load balancers and start-up scripts).',
    tag: 'Site',
    auth: 'none',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.object({ status: S.str }, ['status']),
  },
  ready: {
    method: 'GET',
    path: '/api/ready',
    fn: null,
    summary: 'Readiness for a load balancer',
    description:
      '200 only when the database answers within its timeout and the site is not shutting down; 503 otherwise.',
    tag: 'Site',
    auth: 'none',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.object({ status: S.str }, ['status']),
  },
  checkEmail: {
    method: 'POST',
    path: '/api/check-email',
    fn: 'checkEmail',
    summary: 'Is this e-mail registered?',
    tag: 'Registration',
    auth: 'none',
    limit: 'lookup',
    input: 'body',
    request: S.object({ email: S.str }, ['email']),
    response: S.exists,
  },
  checkMobile: {
    method: 'POST',
    path: '/api/check-mobile',
    fn: 'checkMobile',
    summary: 'Is this mobile number registered?',
    tag: 'Registration',
    auth: 'none',
    limit: 'lookup',
    input: 'body',
    request: S.object({ mobile: S.str }, ['mobile']),
    response: S.exists,
  },
  sendRegistrationCode: {
    method: 'POST',
    path: '/api/send-sms',
    fn: 'sendRegistrationCode',
    summary: 'Text a registration code to a mobile number',
    description: 'The server makes a 6-digit code, valid 10 minutes; a new one replaces the old. 30 s between codes.',
    tag: 'Registration',
    auth: 'none',
    limit: 'send-code',
    input: 'body',
    request: S.object({ mobile: S.str }, ['mobile']),
    response: S.success,
  },
  registerStudent: {
    method: 'POST',
    path: '/api/register',
    fn: 'registerStudent',
    summary: 'Register a student with the code texted to the mobile',
    tag: 'Registration',
    auth: 'none',
    limit: 'check-code',
    input: 'body',
    request: S.registration,
    response: S.object({ objectId: S.str, id: { type: 'integer' } }, ['objectId', 'id']),
    status: 201,
  },
  sendWelcomeEmail: {
    method: 'POST',
    path: '/api/send-email',
    fn: 'sendWelcomeEmail',
    summary: 'The welcome mail of a registration (kept for older clients)',
    description:
      'The server queues the welcome mail itself when a registration succeeds. This call sends nothing and answers alike for any input.',
    tag: 'Registration',
    auth: 'none',
    limit: 'lookup',
    input: 'body',
    request: S.object({ email: S.str, fullname: S.str }, ['email']),
    response: S.messageId,
  },
  loginStudent: {
    method: 'POST',
    path: '/api/student/login',
    fn: 'loginStudent',
    summary: 'Student login by e-mail or mobile number',
    tag: 'Students',
    auth: 'none',
    limit: 'login',
    input: 'body',
    request: S.object({ identifier: S.str, password: S.str, altcha: S.altcha }, ['identifier', 'password']),
    response: S.object({ tokenStudent: S.str }, ['tokenStudent']),
    failure: { status: 401 },
  },
  getLoginChallenge: {
    method: 'GET',
    path: '/api/login-challenge',
    fn: 'getLoginChallenge',
    summary: 'A proof-of-work challenge (ALTCHA) for a login that asks for one (code 3052)',
    tag: 'Students',
    auth: 'none',
    limit: 'lookup',
    input: 'none',
    request: none,
    response: S.altchaChallenge,
    headers: { 'Cache-Control': 'no-store' },
  },
  getMyProfile: {
    method: 'GET',
    path: '/api/students/me',
    fn: 'getMyProfile',
    summary: "The logged-in student's profile",
    tag: 'Students',
    auth: 'student',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.studentProfile,
  },
  logoutStudent: {
    method: 'POST',
    path: '/api/student/logout',
    fn: 'logoutStudent',
    summary: "Revoke the student's session",
    tag: 'Students',
    auth: 'student',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.success,
  },
  logoutAllDevices: {
    method: 'POST',
    path: '/api/student/logout-all',
    fn: 'logoutAllDevices',
    summary: 'Revoke every session of the student, on every device',
    tag: 'Students',
    auth: 'student',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.success,
  },
  sendResetCode: {
    method: 'POST',
    path: '/api/send-email-otp',
    fn: 'sendResetCode',
    summary: 'E-mail a password-reset code',
    description: 'An unknown e-mail gets the same answer and no mail.',
    tag: 'Students',
    auth: 'none',
    limit: 'send-code',
    input: 'body',
    request: S.object({ email: S.str }, ['email']),
    response: S.success,
  },
  resetPassword: {
    method: 'PUT',
    path: '/api/users/update-password',
    fn: 'resetPassword',
    summary: 'Set a new password with the e-mailed code',
    description: 'Every session of the student is revoked.',
    tag: 'Students',
    auth: 'none',
    limit: 'check-code',
    input: 'body',
    request: S.object({ email: S.str, otp: S.str, newPassword: S.str }, ['email', 'otp', 'newPassword']),
    response: S.success,
    failure: { status: 400, extra: { success: false } },
  },
  loginAdmin: {
    method: 'POST',
    path: '/api/admin/login',
    fn: 'loginAdmin',
    summary: 'Administrator login',
    tag: 'Admin',
    auth: 'none',
    limit: 'login',
    input: 'body',
    request: S.object({ email: S.str, password: S.str, altcha: S.altcha }, ['email', 'password']),
    response: S.object({ success: { const: true }, token: S.str }, ['success', 'token']),
    failure: { status: 401, extra: { success: false } },
  },
  getAdminProfile: {
    method: 'GET',
    path: '/api/admin/me',
    fn: 'getAdminProfile',
    summary: "The logged-in administrator's name and e-mail",
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.object({ name: S.str, email: S.str }, ['name', 'email']),
  },
  listStudents: {
    method: 'GET',
    path: '/api/users',
    fn: 'listStudents',
    summary: 'A page of students, searched, filtered and sorted',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'query',
    request: S.studentListQuery,
    response: { type: 'array', items: S.studentRecord },
    totalHeader: 'X-Total-Count',
  },
  logoutAdmin: {
    method: 'POST',
    path: '/api/admin/logout',
    fn: 'logoutAdmin',
    summary: "Revoke the administrator's session",
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.success,
  },
  updateStudent: {
    method: 'PUT',
    path: '/api/users/{objectId}',
    fn: 'updateStudent',
    summary: "Change a student's details",
    description:
      'Any of gender, mobile, email, dob, board, grade; the registration rules and uniqueness apply. fullname and id are read-only.',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.studentChanges,
    response: S.studentRecord,
  },
  getMailQueueStatus: {
    method: 'GET',
    path: '/api/admin/mail-status',
    fn: 'getMailQueueStatus',
    summary: 'Counts of the durable mail queue',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.object({ queued: { type: 'integer' }, failed: { type: 'integer' }, sent: { type: 'integer' } }, [
      'queued',
      'failed',
      'sent',
    ]),
  },
  getOperationsStatus: {
    method: 'GET',
    path: '/api/admin/operations',
    fn: null,
    summary: 'Backups: the schedule, the last run and the last good one',
    description:
      'A failed last run carries its error. Answered by the server itself (the runs are recorded in the database, so every instance answers alike).',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.operationsStatus,
  },
  listAssessments: {
    method: 'GET',
    path: '/api/assessments',
    fn: 'listAssessments',
    summary: 'A page of assessments, newest first',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'query',
    request: S.assessmentListQuery,
    response: { type: 'array', items: S.assessmentRecord },
    totalHeader: 'X-Total-Count',
  },
  createAssessment: {
    method: 'POST',
    path: '/api/assessments',
    fn: 'createAssessment',
    summary: 'Create a draft assessment',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.assessmentInput,
    response: S.assessmentRecord,
    status: 201,
  },
  updateAssessment: {
    method: 'PUT',
    path: '/api/assessments/{objectId}',
    fn: 'updateAssessment',
    summary: 'Edit a draft, or correct a published assessment',
    description:
      'Any of the fields. The maximum cannot fall below a mark already entered; grade and board are fixed once marks exist. Sends no mail.',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.assessmentChanges,
    response: S.assessmentRecord,
  },
  deleteAssessment: {
    method: 'DELETE',
    path: '/api/assessments/{objectId}',
    fn: 'deleteAssessment',
    summary: 'Delete a draft assessment and its marks',
    description: 'A published assessment cannot be deleted: its marks are history.',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.objectIdParam,
    response: S.success,
  },
  publishAssessment: {
    method: 'POST',
    path: '/api/assessments/{objectId}/publish',
    fn: 'publishAssessment',
    summary: 'Publish: store the batch average and queue one mail per student with marks',
    description: 'Students see it from now on. A second publication is refused; no student gets two mails.',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.objectIdParam,
    response: S.object({ ...S.assessmentRecord.properties, mailsQueued: { type: 'integer' } }, [
      ...S.assessmentRecord.required,
      'mailsQueued',
    ]),
  },
  listAssessmentMarks: {
    method: 'GET',
    path: '/api/assessments/{objectId}/marks',
    fn: 'listAssessmentMarks',
    summary: "A page of the batch's students with their marks, by enrollment id",
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'query',
    request: S.markListQuery,
    response: { type: 'array', items: S.markRow },
    totalHeader: 'X-Total-Count',
  },
  saveMarks: {
    method: 'PUT',
    path: '/api/assessments/{objectId}/marks',
    fn: 'saveMarks',
    summary: 'Save changed marks in one request',
    description:
      'Good rows are saved; each bad row comes back in errors with its message. After publishing this is a correction: the average is updated and no mail is sent.',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.marksChanges,
    response: S.marksSaved,
  },
  previewMarksCsv: {
    method: 'POST',
    path: '/api/assessments/{objectId}/marks/csv-preview',
    fn: 'previewMarksCsv',
    summary: 'Check a CSV of marks without saving: every row with its error, if any',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.marksCsv,
    response: S.marksCsvPreview,
  },
  importMarksCsv: {
    method: 'POST',
    path: '/api/assessments/{objectId}/marks/csv',
    fn: 'importMarksCsv',
    summary: 'Save a CSV of marks: all rows, or none while any row is bad',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.marksCsv,
    response: S.object({ saved: { type: 'integer' } }, ['saved']),
  },
  getMyProgress: {
    method: 'GET',
    path: '/api/students/me/progress',
    fn: 'getMyProgress',
    summary: "The logged-in student's published marks, batch averages and per-subject trends",
    tag: 'Assessments',
    auth: 'student',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.progress,
  },
  listTimetableSlots: {
    method: 'GET',
    path: '/api/timetable/slots',
    fn: 'listTimetableSlots',
    summary: "A grade's weekly timetable slots",
    description: "With a board: that board's slots and the slots for all boards. Earliest in the week first.",
    tag: 'Schedule',
    auth: 'admin',
    limit: 'none',
    input: 'query',
    request: S.slotQuery,
    response: { type: 'array', items: S.slot },
  },
  createTimetableSlot: {
    method: 'POST',
    path: '/api/timetable/slots',
    fn: 'createTimetableSlot',
    summary: 'Add a weekly class to a batch timetable',
    description:
      'Two slots of one batch may not overlap (a slot for all boards is in every board of its grade): the error names the clashing slot.',
    tag: 'Schedule',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.slotInput,
    response: S.slot,
    status: 201,
  },
  updateTimetableSlot: {
    method: 'PUT',
    path: '/api/timetable/slots/{objectId}',
    fn: 'updateTimetableSlot',
    summary: 'Change a timetable slot',
    description: 'Any of its fields; the rules of a new slot apply to the result.',
    tag: 'Schedule',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.slotChanges,
    response: S.slot,
  },
  deleteTimetableSlot: {
    method: 'DELETE',
    path: '/api/timetable/slots/{objectId}',
    fn: 'deleteTimetableSlot',
    summary: 'Remove a timetable slot',
    tag: 'Schedule',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.byObjectId,
    response: S.success,
  },
  listHolidays: {
    method: 'GET',
    path: '/api/timetable/holidays',
    fn: 'listHolidays',
    summary: 'The centre holidays, earliest first',
    tag: 'Schedule',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: none,
    response: { type: 'array', items: S.holiday },
  },
  createHoliday: {
    method: 'POST',
    path: '/api/timetable/holidays',
    fn: 'createHoliday',
    summary: 'Add a holiday (a day or a range): no class takes place on it',
    tag: 'Schedule',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.holidayInput,
    response: S.holiday,
    status: 201,
  },
  deleteHoliday: {
    method: 'DELETE',
    path: '/api/timetable/holidays/{objectId}',
    fn: 'deleteHoliday',
    summary: 'Remove a holiday',
    tag: 'Schedule',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.byObjectId,
    response: S.success,
  },
  getMySchedule: {
    method: 'GET',
    path: '/api/students/me/schedule',
    fn: 'getMySchedule',
    summary: "The logged-in student's week and next class",
    description:
      "The timetable of the student's batch (grade and board, read afresh on every call) laid on the days of one week, holidays marked, and the class going on or next to start. Times are in the centre time zone.",
    tag: 'Schedule',
    auth: 'student',
    limit: 'none',
    input: 'query',
    request: S.scheduleQuery,
    response: S.schedule,
  },
  getMyCalendarFeed: {
    method: 'GET',
    path: '/api/students/me/calendar',
    fn: 'getMyCalendarFeed',
    summary: "The student's private calendar feed address",
    description: 'Made on first use. GET /api/calendar/{token}.ics serves the feed (text/calendar) without a login.',
    tag: 'Schedule',
    auth: 'student',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.calendarFeed,
  },
  resetMyCalendarFeed: {
    method: 'POST',
    path: '/api/students/me/calendar/reset',
    fn: 'resetMyCalendarFeed',
    summary: 'Replace the calendar feed address',
    description: 'The old address answers 404 from now on.',
    tag: 'Schedule',
    auth: 'student',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.calendarFeed,
  },
} as const satisfies Record<string, CallSpec>;

export type CallName = keyof typeof CALLS;
export type CloudCallName = { [N in CallName]: (typeof CALLS)[N]['fn'] extends string ? N : never }[CallName];
/** The input and the answer of every call, as TypeScript types made from their schemas (once, here). */
export type Requests = { [N in CallName]: Infer<(typeof CALLS)[N]['request']> };
export type Responses = { [N in CallName]: Infer<(typeof CALLS)[N]['response']> };
export type RequestOf<N extends CallName> = Requests[N];
export type ResponseOf<N extends CallName> = Responses[N];

/** The limit group of each cloud function, by its name. */
export const LIMIT_OF_FUNCTION: Readonly<Record<string, LimitGroup>> = Object.fromEntries(
  Object.values(CALLS as Record<string, CallSpec>)
    .filter((spec) => spec.fn)
    .map((spec) => [spec.fn, spec.limit]),
);

/** Path parameters of a call: `/api/users/{objectId}` has `objectId`. */
export function pathParamsOf(spec: Pick<CallSpec, 'path'>): string[] {
  return [...spec.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/** The URL of a call with its path parameters filled in. */
export function urlOf(spec: Pick<CallSpec, 'path'>, params: Record<string, unknown>): string {
  return spec.path.replace(/\{(\w+)\}/g, (_all, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

/** The failure body every call answers: `{error, code}`, with `field` when a field's rule failed. */
export const ERROR_BODY = S.object(
  {
    error: S.str,
    code: { type: 'integer' },
    field: { type: 'string', description: 'The field whose rule failed' },
    success: { const: false },
  },
  ['error', 'code'],
);
export type ErrorBody = Infer<typeof ERROR_BODY>;

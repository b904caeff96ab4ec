// The /api contract, one declaration per call. The server builds its router and
// the OpenAPI document from this table, the cloud code takes each function's
// rate-limit group from it, and the client's `call()` takes paths and types
// from it. Adding a call means adding one entry here (and its cloud function).

import type { Infer } from './infer.ts';
import * as S from './shapes.ts';
import * as A from './admin-shapes.ts';

export { pathParamsOf, urlOf } from './paths.ts';

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
  /** Answers 503 when the database does not answer (the health checks). */
  unavailable?: true;
  /** A failure answered with this status and these fields beside `error` and `code`. */
  failure?: { status: number; extra?: { success: false } };
  /** May answer 409 (codes 3033, 3034): the e-mail or the mobile is another account's. */
  taken?: true;
  /** Sends its text or mail at once: may answer 502 (code 3502) when the SMS or mail server refuses it. */
  delivers?: true;
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
    unavailable: true,
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
    unavailable: true,
  },
  getParseConfig: {
    method: 'GET',
    path: '/api/parse-config',
    fn: null,
    summary: "What the browser's Parse SDK needs: the application id and where Parse is",
    description:
      'The Parse application id is not a secret (the master key is never sent). `serverPath` is the path of Parse REST and of the LiveQuery WebSocket on this site.',
    tag: 'Site',
    auth: 'none',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.object({ appId: S.str, serverPath: S.str }, ['appId', 'serverPath']),
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
    description:
      'The server makes a 6-digit code, valid 10 minutes; a new one replaces the old. 30 s between codes. A registered number is answered alike; its owner is texted how to log in instead.',
    tag: 'Registration',
    auth: 'none',
    limit: 'send-code',
    input: 'body',
    request: S.object({ mobile: S.str }, ['mobile']),
    response: S.success,
    delivers: true,
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
    taken: true,
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
  changeMyPassword: {
    method: 'PUT',
    path: '/api/students/me/password',
    fn: 'changeMyPassword',
    summary: "Change the logged-in student's password",
    description:
      'The current password is required and checked like a login (it counts towards the failed-login lock). ' +
      'Every other session of the student ends; the answer carries a new session token, as the old one ends too.',
    tag: 'Students',
    auth: 'student',
    limit: 'login',
    input: 'body',
    request: S.object(
      {
        currentPassword: S.str,
        newPassword: { type: 'string', minLength: 8, maxLength: 64 },
        altcha: S.altcha,
      },
      ['currentPassword', 'newPassword'],
    ),
    response: S.object(
      {
        success: { const: true },
        tokenStudent: { type: 'string', description: 'A new session token: the old one ends too' },
      },
      ['success', 'tokenStudent'],
    ),
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
    request: S.object({ email: S.str, otp: S.oneTimeCode('The 6-digit code of the reset mail'), newPassword: S.str }, [
      'email',
      'otp',
      'newPassword',
    ]),
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
  getCentre: {
    method: 'GET',
    path: '/api/admin/centre',
    fn: 'getCentre',
    summary: "The centre's time zone, in which the admin screens show times and days",
    description:
      "The zone of `CENTRE_TIMEZONE`. The activity log's days, the timetable and the assessments' dates are the centre's, so the admin screens show every time in it, whatever zone the admin's device is in.",
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: none,
    response: S.object({ timeZone: { type: 'string', description: 'An IANA time zone, e.g. Asia/Kolkata' } }, [
      'timeZone',
    ]),
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
      'Any of gender, mobile, email, dob, board, grade; the registration rules and uniqueness apply. fullname, id and status are read-only: sent with their stored values they change nothing, with another value they are refused (400); objectId, createdAt and updatedAt are ignored, any other field is refused. A field sent is checked by the rules even when unchanged (a date of birth now past the age limit is refused): send the fields to change.',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: S.studentChanges,
    response: S.studentRecord,
    taken: true,
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
  getAssessment: {
    method: 'GET',
    path: '/api/assessments/{objectId}',
    fn: 'getAssessment',
    summary: 'One assessment (a marks view opened from a link)',
    tag: 'Assessments',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.objectIdParam,
    response: S.assessmentRecord,
  },
  createAssessment: {
    method: 'POST',
    path: '/api/assessments',
    fn: 'createAssessment',
    summary: 'Create a draft assessment',
    description: 'A field other than these is refused (400 "Unknown field: …"), not ignored.',
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
      'Any of the fields. The maximum cannot fall below a mark already entered; grade and board are fixed once marks exist. Sends no mail. A field the call does not write is refused (400 "Unknown field: …"), not ignored; a record sent back as listed is taken (its status as stored, its worked-out fields ignored), another status is refused: publishing changes it.',
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
    description:
      'The active students of the batch, and those given marks here who have since moved to another batch, been deactivated or erased.',
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
      "Good rows are saved; each bad row comes back in errors with its message. After publishing this is a correction: the average is updated and no second mail is sent (a student's first marks bring the publication's mail).",
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
    description:
      "With a board: that board's slots and the slots for all boards; with board=All, the slots for all boards alone. Earliest in the week first.",
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
      'Two slots of one batch may not overlap (a slot for all boards is in every board of its grade): the error names the clashing slot. A field other than these is refused (400 "Unknown field: …"), not ignored.',
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
    description:
      'Any of its fields; the rules of a new slot apply to the result. A field other than these is refused (400 "Unknown field: …"), not ignored; a slot sent back as listed is taken (its end, worked out, ignored).',
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
    request: S.objectIdParam,
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
    description:
      'Holidays may overlap; an exact copy of one listed (the same days, the title in any case) is refused (400), also when two are sent at once. A field other than these is refused (400 "Unknown field: …"), not ignored.',
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
    request: S.objectIdParam,
    response: S.success,
  },
  getMySchedule: {
    method: 'GET',
    path: '/api/students/me/schedule',
    fn: 'getMySchedule',
    summary: "The logged-in student's week and next class",
    description:
      "The timetable of the student's batch (grade and board, read afresh on every call) laid on the days of one week, holidays marked, the class going on or next to start, and the class straight after it when its Join opens before that one ends (classes back to back). Times are in the centre time zone.",
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
  listActivity: {
    method: 'GET',
    path: '/api/activity',
    fn: 'listActivity',
    summary: 'A page of the activity log, newest first, filtered by admin, kind and date',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'query',
    request: A.activityQuery,
    response: { type: 'array', items: A.activityEntry },
    totalHeader: 'X-Total-Count',
  },
  listActivityAdmins: {
    method: 'GET',
    path: '/api/activity/admins',
    fn: 'listActivityAdmins',
    summary:
      'Everyone who can be picked on the Activity page: the administrators, then those the log names who no longer are',
    description:
      'Current administrators by e-mail; then, for each account the log names that has no administrator rights now (removed), the e-mail of its account or, for an account that is gone, of its latest entry.',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: none,
    response: { type: 'array', items: A.activityAdmin },
  },
  getStudentHistory: {
    method: 'GET',
    path: '/api/users/{objectId}/history',
    fn: 'getStudentHistory',
    summary: 'The recorded changes of one student, newest first (the latest 500), their marks among them',
    description:
      'The student\'s own entries, and each entry of marks saved or imported that changed theirs or of a draft deleted with their marks, with only their line (field "#" and their enrollment number) and the assessment named in `target`.',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.objectIdParam,
    response: { type: 'array', items: A.activityEntry },
  },
  setStudentStatus: {
    method: 'PUT',
    path: '/api/users/{objectId}/status',
    fn: 'setStudentStatus',
    summary: 'Deactivate or reactivate a student',
    description: 'Deactivating revokes every session of the student at once and refuses their logins.',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: A.statusChange,
    response: S.studentRecord,
  },
  eraseStudent: {
    method: 'POST',
    path: '/api/users/{objectId}/erase',
    fn: 'eraseStudent',
    summary: "Erase a student's personal data",
    description:
      'Name, e-mail, mobile, date of birth and gender are replaced with values that identify nobody, every session is revoked, no mail goes out again; the enrollment number, grade, board and marks remain. Earlier activity entries keep their fields but not their values. Needs `confirm: "ERASE"`.',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'body',
    request: A.erasure,
    response: S.studentRecord,
  },
  listAdmins: {
    method: 'GET',
    path: '/api/admins',
    fn: 'listAdmins',
    summary: 'Every administrator, then every invitation not yet accepted',
    description:
      "Invitations by address, each under its own id. One whose address has become a student's or an administrator's meanwhile cannot be accepted, and is not listed.",
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: none,
    response: { type: 'array', items: A.adminAccount },
  },
  inviteAdmin: {
    method: 'POST',
    path: '/api/admins',
    fn: 'inviteAdmin',
    summary: 'Invite an administrator by e-mail',
    description: 'Mails a set-password code valid 48 hours and a link to the accept-invitation page.',
    tag: 'Admin',
    auth: 'admin',
    limit: 'send-code',
    input: 'body',
    request: A.invitation,
    response: S.success,
    delivers: true,
  },
  acceptAdminInvite: {
    method: 'POST',
    path: '/api/admins/accept',
    fn: 'acceptAdminInvite',
    summary: 'Accept an invitation: set a password with the mailed code',
    description:
      "Makes the administrator's account with the name the invitation carried (or gives a former administrator's account the new password). 409 (code 3033, field email) when the address has become a student's, or an administrator's, while the invitation waited.",
    tag: 'Admin',
    auth: 'none',
    limit: 'check-code',
    taken: true,
    input: 'body',
    request: A.acceptInvitation,
    response: S.success,
  },
  removeAdmin: {
    method: 'DELETE',
    path: '/api/admins/{objectId}',
    fn: 'removeAdmin',
    summary: "Remove an administrator's rights",
    description: "Never one's own, never the last administrator's. Their sessions end.",
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.objectIdParam,
    response: S.success,
  },
  withdrawAdminInvitation: {
    method: 'DELETE',
    path: '/api/admins/invitations/{objectId}',
    fn: 'withdrawAdminInvitation',
    summary: 'Withdraw an invitation not yet accepted',
    description:
      "The objectId of an invitation in the list (one with invitedUntil). Its code stops working. An invitation makes no account until it is accepted; an account an earlier version made for it goes too, unless it is or was an administrator (or its acceptance may have taken effect) or is the configured administrator's. 404 once it has been accepted, has expired, was withdrawn or was replaced by a newer invitation of the address.",
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.objectIdParam,
    response: S.success,
  },
  changeAdminPassword: {
    method: 'PUT',
    path: '/api/admin/password',
    fn: 'changeAdminPassword',
    summary: "Change one's own password",
    description:
      'The current password is required, checked as a login (3052 asks for a solved challenge in altcha); every other session of the administrator ends.',
    tag: 'Admin',
    auth: 'admin',
    limit: 'login',
    input: 'body',
    request: A.passwordChange,
    response: S.object(
      { success: { const: true }, token: { type: 'string', description: 'A new session token: the old one ends too' } },
      ['success', 'token'],
    ),
  },
} as const satisfies Record<string, CallSpec>;

export type CallName = keyof typeof CALLS;
/** The input and the answer of every call, as TypeScript types made from their schemas (once, here). */
export type Requests = { [N in CallName]: Infer<(typeof CALLS)[N]['request']> };
export type Responses = { [N in CallName]: Infer<(typeof CALLS)[N]['response']> };
export type RequestOf<N extends CallName> = Requests[N];
export type ResponseOf<N extends CallName> = Responses[N];

/** The limit group of each cloud function, by its name. */
export const LIMIT_OF_FUNCTION: Readonly<Record<string, LimitGroup>> = Object.fromEntries(
  Object.values(CALLS as Record<string, CallSpec>).flatMap((spec): Array<[string, LimitGroup]> =>
    spec.fn ? [[spec.fn, spec.limit]] : [],
  ),
);

/**
 * The failure body every call answers: `{error, code, requestId}`, with `field` when a field's
 * rule failed (and `success:false` where the call's failure carries it).
 */
export const ERROR_BODY = S.object(
  {
    error: S.str,
    code: { type: 'integer' },
    field: { type: 'string', description: 'The field whose rule failed' },
    success: { const: false },
    requestId: { type: 'string', description: 'Also the X-Request-Id header: finds the request in the log' },
  },
  ['error', 'code', 'requestId'],
);
/**
 * Any call's 503: the site is starting or stopping (every path answers so, `status` says
 * which), or the database does not answer (`status` only from the health checks).
 */
export const UNAVAILABLE_BODY = S.object(
  {
    status: { type: 'string', enum: ['unavailable', 'starting', 'stopping'] },
    error: S.str,
    code: { type: 'integer' },
    requestId: ERROR_BODY.properties.requestId,
  },
  ['error', 'code', 'requestId'],
);
/** A health check's 503, which always says its status. */
export const HEALTH_UNAVAILABLE_BODY = {
  ...UNAVAILABLE_BODY,
  required: ['status', ...UNAVAILABLE_BODY.required],
} as const;
export type ErrorBody = Infer<typeof ERROR_BODY>;

// The /api contract, one declaration per call. The server builds its router and
// the OpenAPI document from this table, the cloud code takes each function's
// rate-limit group from it, and the client's `call()` takes paths and types
// from it. Adding a call means adding one entry here (and its cloud function).

import type { Infer } from './infer.ts';
import * as A from './admin-shapes.ts';
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
  tag: 'Registration' | 'Students' | 'Admin' | 'Site';
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
    summary: 'The welcome mail of a registration',
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
    request: S.object({ identifier: S.str, password: S.str }, ['identifier', 'password']),
    response: S.object({ tokenStudent: S.str }, ['tokenStudent']),
    failure: { status: 401 },
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
    request: S.object({ email: S.str, password: S.str }, ['email', 'password']),
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
  // Admin tools (product.md §9).
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
  getStudentHistory: {
    method: 'GET',
    path: '/api/users/{objectId}/history',
    fn: 'getStudentHistory',
    summary: 'Every recorded change of one student, newest first',
    tag: 'Admin',
    auth: 'admin',
    limit: 'none',
    input: 'none',
    request: S.object({ objectId: { type: 'string', description: 'In the path' } }),
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
    summary: 'Every administrator',
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
  },
  acceptAdminInvite: {
    method: 'POST',
    path: '/api/admins/accept',
    fn: 'acceptAdminInvite',
    summary: 'Accept an invitation: set a password with the mailed code',
    tag: 'Admin',
    auth: 'none',
    limit: 'check-code',
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
    request: S.object({ objectId: { type: 'string', description: 'In the path' } }),
    response: S.success,
  },
  changeAdminPassword: {
    method: 'PUT',
    path: '/api/admin/password',
    fn: 'changeAdminPassword',
    summary: "Change one's own password",
    description: 'The current password is required; every other session of the administrator ends.',
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

// Looking up accounts, logging in and out, and who may call what.

import { randomUUID } from 'node:crypto';
import { storedStatus } from '@tc/domain/admin-tools';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { normalizeEmail, normalizeMobile } from '@tc/domain/registration';
import type { AdminProfile, StudentProfile, StudentRecord } from '@tc/domain/student';
import { fail } from '../errors.ts';
import type { CloudDeps } from '../deps.ts';
import { MASTER, parse, unlessMissing, type ParseSdk } from '../parse.ts';
import {
  checkSession,
  checkSessionAndRead,
  checkSessionAndReads,
  type OwnRead,
  type SessionAccount,
} from './sessions.ts';

export type User = InstanceType<ParseSdk['User']>;
export const ADMIN_ROLE = 'admin';

/**
 * The enrollment number, shown as `id`. It is stored under another
 * name because the Parse SDK reserves `id` for the objectId.
 */
export const ENROLLMENT_FIELD = 'enrollmentId';

export async function findUserByEmail(email: string): Promise<User | undefined> {
  const Parse = parse();
  return new Parse.Query(Parse.User).equalTo('username', normalizeEmail(email)).first(MASTER);
}

export async function findUserByMobile(mobile: string): Promise<User | undefined> {
  const Parse = parse();
  const normalized = normalizeMobile(mobile);
  if (!normalized) return undefined;
  return new Parse.Query(Parse.User).equalTo('mobile', normalized).first(MASTER);
}

/** Which of an e-mail and a mobile number an account has already (the e-mail first), in one query. */
export async function takenContact(email: string, mobile: string): Promise<'email' | 'mobile' | undefined> {
  const Parse = parse();
  const byEmail = new Parse.Query(Parse.User).equalTo('username', normalizeEmail(email));
  const byMobile = new Parse.Query(Parse.User).equalTo('mobile', normalizeMobile(mobile) ?? mobile);
  const found = await Parse.Query.or(byEmail, byMobile).select('username', 'mobile').limit(2).find(MASTER);
  if (found.some((user) => user.getUsername() === normalizeEmail(email))) return 'email';
  return found.length ? 'mobile' : undefined;
}

export function isStudent(user: User): boolean {
  return typeof user.get(ENROLLMENT_FIELD) === 'number';
}

export async function isAdmin(user: User): Promise<boolean> {
  const Parse = parse();
  const role = await new Parse.Query(Parse.Role).equalTo('name', ADMIN_ROLE).equalTo('users', user).first(MASTER);
  return Boolean(role);
}

/** The fields of a student on the wire, under their stored names (`id` is ENROLLMENT_FIELD). */
export const PROFILE_FIELDS = ['fullname', 'email', 'mobile', 'board', 'grade', 'gender', 'dob', ENROLLMENT_FIELD];
/** Beside the profile in a record of the admin table. */
export const STATUS_FIELDS = ['status', 'erasedAt', 'erasurePending'];
/** Set with `erasedAt` and unset once every step of the erasure has been done. */
export const ERASURE_PENDING = 'erasurePending';

function statusOfStored(stored: StoredStudent) {
  return {
    status: storedStatus(stored.status),
    ...(stored.erasedAt ? { erased: true } : {}),
    ...(stored.erasedAt && stored[ERASURE_PENDING] ? { erasureUnfinished: true } : {}),
  };
}

type StoredStudent = Record<string, unknown>;

function profileOf(stored: StoredStudent): StudentProfile {
  return {
    fullname: stored.fullname,
    email: stored.email,
    mobile: stored.mobile,
    board: stored.board,
    grade: stored.grade,
    gender: stored.gender,
    dob: stored.dob,
    id: stored[ENROLLMENT_FIELD],
  } as StudentProfile;
}

// Each `user.get()` of the SDK copies every attribute of the object: read them once.
export function toProfile(user: User): StudentProfile {
  return profileOf(user.attributes);
}

export function toRecord(user: User): StudentRecord {
  return {
    objectId: user.id!,
    ...profileOf(user.attributes),
    createdAt: user.createdAt!.toISOString(),
    ...statusOfStored(user.attributes),
  };
}

/** A student as a query answers it with `json: true` (no SDK object: a listing makes many). */
export function recordFromJson(json: StoredStudent): StudentRecord {
  return {
    objectId: json.objectId as string,
    ...profileOf(json),
    createdAt: json.createdAt as string,
    ...statusOfStored(json),
  };
}

export function toAdminProfile(user: User, defaultName: string): AdminProfile {
  return { name: (user.get('fullname') as string) || defaultName, email: user.get('email') as string };
}

/** Maps Parse's uniqueness failures on a student to 3033 / 3034. */
export async function saveStudent(user: User, email: string, mobile: string): Promise<void> {
  const Parse = parse();
  try {
    await user.save(null, MASTER);
  } catch (error) {
    if (!(error instanceof Parse.Error)) throw error;
    if (error.code === Parse.Error.USERNAME_TAKEN || error.code === Parse.Error.EMAIL_TAKEN) {
      fail(ErrorCode.EmailTaken, ServerMessage.emailTaken);
    }
    if (error.code === Parse.Error.DUPLICATE_VALUE) {
      const byEmail = await findUserByEmail(email);
      if (byEmail && byEmail.id !== user.id) fail(ErrorCode.EmailTaken, ServerMessage.emailTaken);
      const byMobile = await findUserByMobile(mobile);
      if (byMobile && byMobile.id !== user.id) fail(ErrorCode.MobileTaken, ServerMessage.mobileTaken);
    }
    throw error;
  }
}

/** Stands in for an unknown identifier, so that it costs one password check too. */
export const NOBODY = () => `unknown-${randomUUID()}@login.invalid`;

/** Only the account itself may read its record (and only through Parse's own login and /users/me). */
export function ownerOnlyAcl(user: User) {
  const Parse = parse();
  const acl = new Parse.ACL();
  acl.setReadAccess(user.id!, true);
  return acl;
}

export interface LoginAttempt {
  /** Which call: a student call never logs in an admin, and the reverse. */
  kind: 'student' | 'admin';
  /** The account as typed, normalised (counters are keyed by it). */
  account: string;
  /** The account found for it, if any. */
  user: User | undefined;
  password: string;
  address: string;
  proof: unknown;
  invalidMessage: string;
  lockedMessage: string;
}

/** The key of an account's failed-login counters: per call kind (the Parse Dashboard counts as the admin login). */
export const loginAccountKey = (kind: LoginAttempt['kind'], account: string) => `${kind}:${account}`;

/**
 * Logs in through Parse with the failed-login counters (docs/decisions/0006; per
 * account and address; a proof of work under a spray). Counters are kept per
 * call kind, so that tries on the wrong call never count against the account,
 * and an unknown identifier counts like a known one: the same answers, lock
 * included, and one password check either way.
 */
export async function logIn(deps: CloudDeps, attempt: LoginAttempt): Promise<{ user: User; sessionToken: string }> {
  const Parse = parse();
  const account = loginAccountKey(attempt.kind, attempt.account);
  // Counted from here (atomically, so parallel tries cannot all pass), until the password says which way.
  const { verdict } = await deps.loginGuard.check(account, attempt.address, attempt.proof);
  if (verdict === 'locked') fail(ErrorCode.AccountLocked, attempt.lockedMessage);
  if (verdict === 'busy') fail(ErrorCode.TooManyRequests, ServerMessage.tooManyRequests);
  if (verdict === 'challenge') {
    await deps.loginGuard.release(account, attempt.address);
    fail(ErrorCode.ChallengeRequired, ServerMessage.challengeRequired);
  }

  let user: User;
  try {
    const rightKind =
      attempt.user !== undefined &&
      (attempt.kind === 'student' ? isStudent(attempt.user) : await isAdmin(attempt.user));
    const username = rightKind ? attempt.user!.getUsername()! : NOBODY();
    // The answer holds the account's own fields but its protected ones (e-mail,
    // mobile, date of birth), which a login does not need.
    user = await Parse.User.logIn(username, attempt.password);
  } catch (error) {
    if (error instanceof Parse.Error && error.code === Parse.Error.OBJECT_NOT_FOUND) {
      await deps.loginGuard.failed(account, attempt.address);
      fail(ErrorCode.InvalidCredentials, attempt.invalidMessage);
    }
    // A fault, not a password: the try does not count.
    await deps.loginGuard.release(account, attempt.address).catch(() => undefined);
    throw error;
  }
  await deps.loginGuard.succeeded(account, attempt.address);
  return { user, sessionToken: user.getSessionToken()! };
}

/**
 * Deletes a session through Parse, which also forgets its token in its own cache of sessions.
 * One that another call with its token deleted first (a page asks for several things at once
 * with an ended session; two tabs log out) is gone as asked, not "not found".
 */
export async function destroySession(session: InstanceType<ParseSdk['Session']>): Promise<void> {
  await unlessMissing(session.destroy(MASTER));
}

export async function revokeSession(sessionToken: string | null | undefined): Promise<void> {
  if (!sessionToken) return;
  const Parse = parse();
  const session = await new Parse.Query(Parse.Session).equalTo('sessionToken', sessionToken).first(MASTER);
  if (session) await destroySession(session);
}

interface AuthedRequest {
  user?: User;
}

export function requireUser(request: AuthedRequest): User {
  if (!request.user) fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  return request.user;
}

export async function requireStudent(request: AuthedRequest, deps: CloudDeps): Promise<User> {
  return (await requireStudentAccount(request, deps)).user;
}

/** The student with their batch as stored now (an admin may have moved them since the session began). */
export async function requireStudentAccount(
  request: AuthedRequest,
  deps: CloudDeps,
): Promise<{ user: User; account: SessionAccount }> {
  const user = requireUser(request);
  if (!isStudent(user)) fail(ErrorCode.Forbidden, ServerMessage.studentOnly);
  const account = await checkSession(deps, user, 'student');
  return { user, account };
}

/** requireStudent, with a read of the student's own rows in the same statement (sessions.ts checkSessionAndRead). */
export async function requireStudentAndRead<Row>(
  request: AuthedRequest,
  deps: CloudDeps,
  read: OwnRead,
): Promise<Row[]> {
  const user = requireUser(request);
  if (!isStudent(user)) fail(ErrorCode.Forbidden, ServerMessage.studentOnly);
  return checkSessionAndRead<Row>(deps, user, 'student', read);
}

/** requireStudentAccount, with several reads of the student's own rows in the same statement (checkSessionAndReads). */
export async function requireStudentAndReads(
  request: AuthedRequest,
  deps: CloudDeps,
  name: string,
  reads: readonly Omit<OwnRead, 'name'>[],
  params: readonly unknown[],
): Promise<{ account: SessionAccount; rows: unknown[][] }> {
  const user = requireUser(request);
  if (!isStudent(user)) fail(ErrorCode.Forbidden, ServerMessage.studentOnly);
  return checkSessionAndReads(deps, user, 'student', name, reads, params);
}

export async function requireAdmin(request: AuthedRequest, deps: CloudDeps): Promise<User> {
  const user = requireUser(request);
  // The role is read with the session, in the same statement.
  await checkSession(deps, user, 'admin');
  return user;
}

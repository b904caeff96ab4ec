// Administrators: login, own profile, the student table and its edits, logout
// (the admin calls of the contract table).

import { signalChange } from '../live/signals.ts';
import { STUDENTS_SIGNAL } from '@tc/domain/live';
import {
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  LIST_SORT_FIELDS,
  SEARCH_MAX_LENGTH,
  type ListSortField,
} from '@tc/domain/constants';
import { ErrorCode } from '@tc/domain/errors';
import { RegistrationMessage } from '@tc/domain/messages';
import { ServerMessage } from '@tc/domain/server-messages';
import { mobileSearchDigits, normalizeEmail, normalizePassword, parseBoard, parseGrade } from '@tc/domain/registration';
import { validateStudentUpdate } from '@tc/domain/student-update';
import { READ_ONLY_STUDENT_FIELDS } from '@tc/domain/student';
import type { CloudDeps } from '../deps.ts';
import { defineFunction, fail, integerParam, optionalString, requireStrings, validationFailed } from '../errors.ts';
import { MASTER, parse, unlessMissing } from '../parse.ts';
import { cachedCount, forgetCounts } from '../users/student-count.ts';
import { changesBetween, recordActivity } from '../activity/log.ts';
import { applyStatusFilter, isErased, studentLocked } from '../students/status.ts';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { storedStatus } from '@tc/domain/admin-tools';
import {
  ENROLLMENT_FIELD,
  findUserByEmail,
  logIn,
  requireAdmin,
  revokeSession,
  saveStudent,
  toAdminProfile,
  PROFILE_FIELDS,
  STATUS_FIELDS,
  recordFromJson,
  toRecord,
} from '../users/accounts.ts';
import { clientAddress } from '../client-address.ts';
import { todayIn } from '@tc/domain/zoned-time';

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function defineAdminFunctions(deps: CloudDeps): void {
  const Parse = parse();

  defineFunction(deps, 'loginAdmin', async (request) => {
    const { params } = request;
    requireStrings(params, ['email', 'password']);
    const email = normalizeEmail(optionalString(params, 'email') ?? '');
    // Trimmed, as every password is when it is set (docs/decisions/0007).
    const password = normalizePassword(optionalString(params, 'password') ?? '');
    // Parse would answer an empty one in its own words ("password is required.").
    if (!email) validationFailed(RegistrationMessage.emailRequired, 'email');
    if (!password) validationFailed(RegistrationMessage.passwordRequired, 'password');
    const user = await findUserByEmail(email);
    const { sessionToken } = await logIn(deps, {
      kind: 'admin',
      account: email,
      user,
      password,
      address: clientAddress(request),
      proof: params.altcha,
      invalidMessage: ServerMessage.invalidAdminLogin,
      lockedMessage: ServerMessage.adminLocked,
    });
    return { success: true, token: sessionToken };
  });

  defineFunction(deps, 'getAdminProfile', async (request) =>
    toAdminProfile(await requireAdmin(request, deps), deps.adminName),
  );

  defineFunction(deps, 'getCentre', async (request) => {
    await requireAdmin(request, deps);
    return { timeZone: deps.centreTimeZone };
  });

  defineFunction(deps, 'logoutAdmin', async (request) => {
    await revokeSession((await requireAdmin(request, deps)).getSessionToken());
    return { success: true };
  });

  defineFunction(deps, 'listStudents', async (request) => {
    await requireAdmin(request, deps);
    const { params } = request;
    const skip = integerParam(params.skip, 0, 0, 10_000_000, 'skip');
    const limit = integerParam(params.limit, LIST_DEFAULT_LIMIT, 1, LIST_MAX_LIMIT, 'limit');

    const students = () => new Parse.Query(Parse.User).exists(ENROLLMENT_FIELD);
    let query = students();
    if (params.q !== undefined && params.q !== null && params.q !== '') {
      if (typeof params.q !== 'string') fail(ErrorCode.BadRequest, ServerMessage.mustBeString('q'));
      if ([...params.q].length > SEARCH_MAX_LENGTH) fail(ErrorCode.BadRequest, ServerMessage.searchTooLong);
      const q = params.q.trim().toLowerCase();
      if (q) {
        const pattern = escapeRegex(q);
        const byName = students().matches('fullname', pattern, 'i');
        const byEmail = students().matches('email', pattern);
        const digits = mobileSearchDigits(q);
        const clauses = [byName, byEmail];
        if (digits) clauses.push(students().matches('mobile', escapeRegex(digits)));
        query = Parse.Query.or(...clauses);
      }
    }
    if (params.grade !== undefined && params.grade !== '') {
      const grade = parseGrade(params.grade);
      if (grade === null) validationFailed(RegistrationMessage.gradeOutOfRange, 'grade');
      query.equalTo('grade', grade);
    }
    if (params.board !== undefined && params.board !== '') {
      const board = parseBoard(params.board);
      if (!board) validationFailed(RegistrationMessage.boardInvalid, 'board');
      query.equalTo('board', board);
    }
    // Deactivated students are hidden unless the status filter asks for them.
    applyStatusFilter(query, params.status);

    if (params.sort !== undefined && typeof params.sort !== 'string') {
      fail(ErrorCode.BadRequest, ServerMessage.mustBeString('sort'));
    }
    const sort = params.sort || 'id';
    const field = sort.replace(/^-/, '');
    if (!(LIST_SORT_FIELDS as readonly string[]).includes(field)) {
      fail(ErrorCode.BadRequest, `sort must be one of ${LIST_SORT_FIELDS.join(', ')}, optionally with a leading -`);
    }
    const column = field === 'id' ? ENROLLMENT_FIELD : (field as ListSortField);
    const countKey = JSON.stringify([params.q, params.grade, params.board, params.status]);
    const total = await cachedCount(countKey, () => query.count(MASTER));
    if (skip >= total) return { items: [], total };

    // Pages past the middle are read from the other end, so that the last page
    // costs what the first does instead of walking past every row before it.
    const fromEnd = skip > total / 2;
    const pageLimit = fromEnd ? Math.min(limit, total - skip) : limit;
    const pageSkip = fromEnd ? total - skip - pageLimit : skip;
    const descending = sort.startsWith('-') !== fromEnd;
    if (descending) query.descending(column);
    else query.ascending(column);
    if (column !== ENROLLMENT_FIELD) {
      if (fromEnd) query.addDescending(ENROLLMENT_FIELD);
      else query.addAscending(ENROLLMENT_FIELD);
    }
    const results = (await query
      .select(...PROFILE_FIELDS, ...STATUS_FIELDS)
      .skip(pageSkip)
      .limit(pageLimit)
      .find({ ...MASTER, json: true })) as unknown as Record<string, unknown>[];
    if (fromEnd) results.reverse();
    return { items: results.map(recordFromJson), total };
  });

  defineFunction(deps, 'updateStudent', async (request) => {
    const admin = await requireAdmin(request, deps);
    const { objectId, ...changes } = request.params;
    if (typeof objectId !== 'string' || !objectId) fail(ErrorCode.BadRequest, ServerMessage.mustBeString('objectId'));
    return studentLocked(deps, objectId, async () => {
      const find = () => unlessMissing(new Parse.Query(Parse.User).exists(ENROLLMENT_FIELD).get(objectId, MASTER));
      // A read-only field sent is compared with the stored one (the whole row sent back is no change).
      const sentReadOnly = READ_ONLY_STUDENT_FIELDS.some((field) => field in changes);
      const found = sentReadOnly ? await find() : undefined;
      if (sentReadOnly && !found) fail(ErrorCode.NotFound, ServerMessage.studentNotFound);
      const stored = found
        ? {
            fullname: found.get('fullname') as unknown,
            id: found.get(ENROLLMENT_FIELD) as unknown,
            status: storedStatus(found.get('status')),
          }
        : {};
      const result = validateStudentUpdate(changes, todayIn(deps.centreTimeZone), stored);
      if (!result.ok) validationFailed(result.message, result.field);

      const user = found ?? (await find());
      if (!user) fail(ErrorCode.NotFound, ServerMessage.studentNotFound);
      if (isErased(user)) fail(ErrorCode.Forbidden, AdminToolsMessage.erasedCannotChange);
      // A field to change that another admin has changed since this admin opened it: refused,
      // rather than their change overwritten unseen (the student's lock orders the two saves).
      const now = toRecord(user) as unknown as Record<string, unknown>;
      const before = result.before ?? {};
      const overwritten = Object.keys(result.value).some(
        (field) => field in before && before[field as keyof typeof before] !== now[field],
      );
      if (overwritten) validationFailed(AdminToolsMessage.changedMeanwhile);
      const { email, ...rest } = result.value;
      // The change and its activity entry: no change without its record (docs/decisions/0011).
      const logged = changesBetween(
        user.attributes,
        { ...user.attributes, ...result.value },
        Object.keys(result.value),
      );
      // Nothing changed: nothing to save or to log.
      if (!logged.length) return toRecord(user);
      await recordActivity(
        {
          admin,
          kind: 'student.update',
          targetClass: '_User',
          targetId: user.id!,
          enrollmentId: user.get(ENROLLMENT_FIELD) as number,
          changes: logged,
        },
        async () => {
          user.set(rest);
          if (email) user.set({ email, username: email });
          await saveStudent(user, user.get('email') as string, user.get('mobile') as string);
        },
      );
      forgetCounts();
      await signalChange(STUDENTS_SIGNAL);
      return toRecord(user);
    });
  });

  // What operators watch: the durable mail queue's counts.
  defineFunction(deps, 'getMailQueueStatus', async (request) => {
    await requireAdmin(request, deps);
    return deps.mailQueueStatus();
  });
}

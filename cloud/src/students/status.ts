// A student's status and erasure: deactivate / reactivate,
// "Erase personal data", the login refusal, the listing's status filter and the
// mail guard for erased accounts.

import { signalChange } from '../live/signals.ts';
import { STUDENTS_SIGNAL } from '@tc/domain/live';
import { randomBytes } from 'node:crypto';
import {
  ERASE_CONFIRMATION,
  ERASED_NAME,
  REDACTED,
  STATUS_FILTERS,
  STUDENT_STATUSES,
  erasedEmail,
  isErasedEmail,
  storedStatus,
  type StudentStatus,
} from '@tc/domain/admin-tools';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { normalizeEmail } from '@tc/domain/registration';
import type { CloudDeps } from '../deps.ts';
import { serialisedForAccount } from '../users/account-lock.ts';
import { defineFunction, fail, optionalString, validationFailed } from '../errors.ts';
import { dropCodesOf } from '../otp/codes.ts';
import { dropFeedsOf } from '../timetable/calendar-feed.ts';
import { MASTER, parse, unlessMissing } from '../parse.ts';
import { forgetCounts } from '../users/student-count.ts';
import { ENROLLMENT_FIELD, ERASURE_PENDING, requireAdmin, toRecord, type User } from '../users/accounts.ts';
import { ACTIVITY_CLASS, changesBetween, recordActivity, redactEntries, type Change } from '../activity/log.ts';

/** What identifies a child, replaced on erasure (the rest stays: enrollment number, grade, board, marks). */
export const PERSONAL_FIELDS = ['fullname', 'email', 'mobile', 'dob', 'gender'] as const;

export function statusOf(user: User): StudentStatus {
  return storedStatus(user.get('status'));
}

export function isErased(user: User): boolean {
  return Boolean(user.get('erasedAt'));
}

/** The listing's status filter: active (the default; accounts from before statuses count as active), deactivated, all. */
export function applyStatusFilter(query: InstanceType<ReturnType<typeof parse>['Query']>, value: unknown): void {
  if (value === undefined || value === null || value === '') value = 'active';
  if (typeof value !== 'string' || !(STATUS_FILTERS as readonly string[]).includes(value)) {
    validationFailed(AdminToolsMessage.statusFilterInvalid, 'status');
  }
  if (value === 'active') query.notEqualTo('status', 'deactivated');
  if (value === 'deactivated') query.equalTo('status', 'deactivated');
}

/**
 * Ends every session of an account at once, however many: page by page (Parse
 * answers at most 500 rows a query; a find without a limit, 100). Through Parse,
 * which also forgets each token in its own cache of sessions.
 */
export async function revokeAllSessions(user: User, except?: string): Promise<void> {
  const Parse = parse();
  const query = new Parse.Query(Parse.Session).equalTo('user', user);
  if (except) query.notEqualTo('sessionToken', except);
  await query.eachBatch(
    async (sessions) => {
      try {
        await Parse.Object.destroyAll(sessions, MASTER);
      } catch (error) {
        // A session another call ended meanwhile (two deactivations, two "log out of all
        // devices" at once) is ended as asked: only another failure is one.
        if (!onlyGoneAlready(error)) throw error;
      }
    },
    { ...MASTER, batchSize: 500 },
  );
}

/** Whether a destroyAll failed only on objects deleted already (Parse's aggregate error of 101s). */
function onlyGoneAlready(error: unknown): boolean {
  const Parse = parse();
  if (!(error instanceof Parse.Error) || error.code !== Parse.Error.AGGREGATE_ERROR) return false;
  const errors = (error as { errors?: unknown }).errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((e: unknown) => e instanceof Parse.Error && e.code === Parse.Error.OBJECT_NOT_FOUND)
  );
}

/** No mail ever goes to an erased account's address (whatever feature sends it). */
export function withErasedMailSkipped(deps: CloudDeps): CloudDeps {
  const guarded: CloudDeps = {
    ...deps,
    sendMail: async (message) => {
      if (isErasedEmail(message.to)) return { messageId: 'skipped-erased-account' };
      return deps.sendMail(message);
    },
    // The durable mail queue is guarded the same way.
    enqueueMail: async (message, key, accountId) => {
      if (!isErasedEmail(message.to)) await deps.enqueueMail(message, key, accountId);
    },
    transaction: (work) =>
      deps.transaction((tx) =>
        work({ ...tx, enqueueMails: (jobs) => tx.enqueueMails(jobs.filter((job) => !isErasedEmail(job.message.to))) }),
      ),
  };
  return guarded;
}

/** The e-mails and mobiles a student had before, from the activity log. */
async function earlierContacts(objectId: string): Promise<string[]> {
  const Parse = parse();
  const entries = await new Parse.Query(ACTIVITY_CLASS).equalTo('targetId', objectId).findAll(MASTER);
  return entries.flatMap((entry) =>
    (entry.get('changes') as Change[])
      .filter((c) => c.field === 'email' || c.field === 'mobile')
      .flatMap((c) => [c.before, c.after]),
  );
}

async function findStudent(objectId: unknown): Promise<User> {
  const Parse = parse();
  if (typeof objectId !== 'string' || !objectId) fail(ErrorCode.BadRequest, ServerMessage.mustBeString('objectId'));
  const user = await unlessMissing(new Parse.Query(Parse.User).exists(ENROLLMENT_FIELD).get(objectId, MASTER));
  if (!user) fail(ErrorCode.NotFound, ServerMessage.studentNotFound);
  return user;
}

export function defineStatusFunctions(deps: CloudDeps): void {
  defineFunction(deps, 'setStudentStatus', async (request) => {
    const admin = await requireAdmin(request, deps);
    const status = optionalString(request.params, 'status');
    if (!status || !(STUDENT_STATUSES as readonly string[]).includes(status)) {
      validationFailed(AdminToolsMessage.statusInvalid, 'status');
    }
    return studentLocked(deps, request.params.objectId, async () => {
      const user = await findStudent(request.params.objectId);
      if (isErased(user)) fail(ErrorCode.Forbidden, AdminToolsMessage.erasedCannotChange);
      const before = statusOf(user);
      if (before === status) return toRecord(user);
      await recordActivity(
        {
          admin,
          kind: status === 'deactivated' ? 'student.deactivate' : 'student.reactivate',
          targetClass: '_User',
          targetId: user.id!,
          enrollmentId: user.get(ENROLLMENT_FIELD) as number,
          changes: [{ field: 'status', before, after: status }],
        },
        async () => {
          user.set('status', status);
          await user.save(null, MASTER);
          if (status === 'deactivated') await revokeAllSessions(user);
        },
      );
      forgetCounts();
      await signalChange(STUDENTS_SIGNAL);
      return toRecord(user);
    });
  });

  defineFunction(deps, 'eraseStudent', async (request) => {
    const admin = await requireAdmin(request, deps);
    if (optionalString(request.params, 'confirm') !== ERASE_CONFIRMATION) {
      validationFailed(AdminToolsMessage.eraseConfirmation(ERASE_CONFIRMATION), 'confirm');
    }
    return studentLocked(deps, request.params.objectId, async () => {
      const user = await findStudent(request.params.objectId);
      const activity = {
        admin,
        kind: 'student.erase' as const,
        targetClass: '_User',
        targetId: user.id!,
        enrollmentId: user.get(ENROLLMENT_FIELD) as number,
      };
      if (isErased(user)) {
        // Erased, but a fault stopped the steps after the save: "Erase" finishes them.
        if (!user.get(ERASURE_PENDING)) fail(ErrorCode.BadRequest, AdminToolsMessage.alreadyErased);
        const changes = [{ field: 'erasure', before: 'unfinished', after: 'finished' }];
        await recordActivity({ ...activity, changes }, () => finishErasure(deps, user));
      } else {
        // Logged applied once the account is saved erased: the personal data is gone then,
        // whatever becomes of the steps after it (the table shows those as unfinished).
        const contacts = await recordActivity({ ...activity, changes: erasureChanges(user) }, () => erase(deps, user));
        await deps.noteErasure(user.id!);
        await finishErasure(deps, user, contacts);
      }
      forgetCounts();
      await signalChange(STUDENTS_SIGNAL);
      return toRecord(user);
    });
  });
}

/**
 * Runs an admin's change of the student `objectId` (an edit, a change of status, an
 * erasure) while no other change of that account runs (users/account-lock.ts), so that
 * each reads the account as the one before left it: an edit sent while an erasure runs
 * finds the account erased and is refused, and writes no personal value into the log
 * after the erasure cleared it; a second deactivation or erasure finds the first done.
 */
export function studentLocked<T>(deps: CloudDeps, objectId: unknown, work: () => Promise<T>): Promise<T> {
  if (typeof objectId !== 'string' || !objectId) fail(ErrorCode.BadRequest, ServerMessage.mustBeString('objectId'));
  return serialisedForAccount(deps, objectId, work);
}

/**
 * Accounts that a restore brought back whole although they had been erased since the
 * backup (server/src/operations/erasures-after-restore.ts: shut, marked pending, the
 * erasure's log entry carried over): erased again, with the steps of the first erasure.
 * Run at start, before the site answers. Returns how many.
 */
export async function redoErasures(deps: CloudDeps): Promise<number> {
  const Parse = parse();
  const users = await new Parse.Query(Parse.User)
    .equalTo(ERASURE_PENDING, true)
    .doesNotExist('erasedAt')
    // Every one, in batches: one read of Parse answers no more than LIST_MAX_LIMIT.
    .findAll(MASTER);
  let erased = 0;
  for (const user of users) {
    try {
      await finishErasure(deps, user, await erase(deps, user));
      erased += 1;
    } catch (error) {
      // The account is shut already (deactivated, no session, no mail): the site starts,
      // and "Erase" on the Students page finishes it.
      console.error(`erasing ${user.id} again after a restore failed:`, (error as Error).message);
    }
  }
  if (users.length) {
    forgetCounts();
    await signalChange(STUDENTS_SIGNAL);
  }
  return erased;
}

/** The record of an erasure names the fields, never the values that went. */
function erasureChanges(user: User): Change[] {
  const replaced = {
    fullname: ERASED_NAME,
    email: erasedEmail(user.id!),
    mobile: undefined,
    dob: undefined,
    gender: undefined,
  };
  return [
    ...changesBetween(user.attributes, replaced, PERSONAL_FIELDS).map((change) => ({
      ...change,
      before: REDACTED,
    })),
    { field: 'status', before: statusOf(user), after: 'deactivated' },
  ];
}

/** Erases the account's personal data; gives every contact it had, for finishErasure. */
async function erase(deps: CloudDeps, user: User): Promise<string[]> {
  // Codes are stored by e-mail or mobile: those go too, for every e-mail and
  // mobile the student has had (the log knows the earlier ones).
  const contacts = [
    normalizeEmail(String(user.get('email') ?? '')),
    String(user.get('mobile') ?? ''),
    ...(await earlierContacts(user.id!)),
  ].filter(Boolean);
  // First what needs the old addresses to be found, while the account still knows
  // them: should a later step fail, the erasure was refused with nothing changed.
  await dropCodesOf(contacts);
  // Mails not sent yet are dropped, and no copy of a mail to the old addresses is kept.
  await deps.forgetMail(addressesIn(contacts), user.id);
  const email = erasedEmail(user.id!);
  user.set({ fullname: ERASED_NAME, email, username: email, status: 'deactivated', erasedAt: new Date() });
  // Until finishErasure has done the steps after the save (a fault may stop them; "Erase" finishes them).
  user.set(ERASURE_PENDING, true);
  for (const field of ['mobile', 'dob', 'gender', 'welcomeMessageId']) user.unset(field);
  // Nobody knows this password: the account can never be logged into again.
  user.setPassword(randomBytes(32).toString('base64url'));
  await user.save(null, MASTER);
  return contacts;
}

/**
 * The steps after the account is saved erased, each one safe to run again. A
 * session or a feed left meanwhile is refused anyway (both check the status),
 * and so is a mail about the account (the queue checks before each send).
 */
async function finishErasure(deps: CloudDeps, user: User, known?: string[]): Promise<void> {
  // Once more, for a code or a mail made between the first drop and the save; when
  // finishing later, with what the log still knows (the last ones went with the save).
  const contacts = known ?? (await earlierContacts(user.id!));
  await dropCodesOf([...contacts, erasedEmail(user.id!)]);
  await deps.forgetMail(addressesIn(contacts), user.id);
  await revokeAllSessions(user);
  await dropFeedsOf(user.id!);
  await redactEntries(user.id!, PERSONAL_FIELDS);
  user.unset(ERASURE_PENDING);
  await user.save(null, MASTER);
}

const addressesIn = (contacts: string[]) => contacts.filter((contact) => contact.includes('@'));

// The activity log: every change an admin makes, with who, when,
// what and each field's value before and after. Append-only: see
// docs/decisions/0011-activity-log.md for what is enforced where.

import { ACTIVITY_STATES, REDACTED, type ActivityKind, type ActivityState } from '@tc/domain/admin-tools';
import { ErrorCode } from '@tc/domain/errors';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { fail } from '../errors.ts';
import { MASTER, parse } from '../parse.ts';
import type { User } from '../users/accounts.ts';

export const ACTIVITY_CLASS = 'ActivityEntry';

export interface Change {
  field: string;
  before: string;
  after: string;
}

/**
 * A student's line in an entry of marks (one entry per save, on the assessment): the
 * student by enrollment number ("#12"), or by account id for one that had none.
 */
export const markField = (student: number | string): string => `#${student}`;

/**
 * The entries with students' marks lines, as SQL (literal, so that PostgreSQL uses the partial
 * index on them): marks saved or imported, and a draft deleted with its marks.
 */
export const MARKS_ENTRIES = `kind IN ('marks.save', 'marks.import', 'assessment.delete')`;

/** The target of a creation until it is applied: the entry then names the new object. */
export const NEW_TARGET = 'new';

export interface Activity {
  admin: User;
  kind: ActivityKind;
  targetClass: string;
  /** The changed object's id; NEW_TARGET for a creation (with `createdId`). */
  targetId: string;
  enrollmentId?: number;
  changes: Change[];
}

/** A stored value as the log shows it: text, '' for none. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The fields whose value differs between two states, before and after as text. */
export function changesBetween(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: readonly string[],
): Change[] {
  return fields
    .map((field) => ({ field, before: asText(before[field]), after: asText(after[field]) }))
    .filter((change) => change.before !== change.after);
}

/**
 * Records an admin's change and makes it: the entry is written `pending` first,
 * then `apply` runs, then the entry settles as `applied` (or `failed`, and the
 * error goes on). So no change exists without its entry; a crash between the
 * two leaves a `pending` entry, shown as such, never a change without one.
 * A creation's entry (target NEW_TARGET) takes the new object's id from
 * `createdId` as it settles.
 */
export async function recordActivity<T>(
  activity: Activity,
  apply: () => Promise<T>,
  createdId?: (result: T) => string,
): Promise<T> {
  const entry = await beginActivity(activity);
  let result: T;
  try {
    result = await apply();
  } catch (error) {
    await settle(entry, 'failed').catch(() => undefined);
    throw error;
  }
  await settle(entry, 'applied', createdId?.(result));
  return result;
}

/**
 * recordActivity's first step on its own, for a change whose values before are
 * read inside its own transaction (marks, under their assessment's lock): the
 * entry is written `pending`, and the caller settles it with `settleActivity`.
 */
export async function beginActivity(activity: Activity): Promise<ActivityEntryObject> {
  const Parse = parse();
  const entry = new Parse.Object(ACTIVITY_CLASS);
  entry.set({
    adminId: activity.admin.id,
    adminEmail: String(activity.admin.get('email') ?? activity.admin.getUsername() ?? ''),
    kind: activity.kind,
    targetClass: activity.targetClass,
    targetId: activity.targetId,
    changes: activity.changes,
    state: 'pending' satisfies ActivityState,
  });
  if (activity.enrollmentId !== undefined) entry.set('enrollmentId', activity.enrollmentId);
  entry.setACL(new Parse.ACL());
  await entry.save(null, MASTER);
  return entry;
}

/** The second step: `applied` once the change is made, `failed` when it was not (never throws for a failed one). */
export async function settleActivity(entry: ActivityEntryObject, state: 'applied' | 'failed'): Promise<void> {
  if (state === 'failed') await settle(entry, 'failed').catch(() => undefined);
  else await settle(entry, 'applied');
}

type ActivityEntryObject = InstanceType<ReturnType<typeof parse>['Object']>;

async function settle(entry: ActivityEntryObject, state: ActivityState, targetId?: string): Promise<void> {
  entry.set('state', state);
  if (targetId !== undefined && entry.get('targetId') === NEW_TARGET) entry.set('targetId', targetId);
  await entry.save(null, MASTER);
}

/** Replaces the values of the given fields in every earlier entry about a target (its erasure). */
export async function redactEntries(targetId: string, fields: readonly string[]): Promise<void> {
  const Parse = parse();
  // Every one, page by page (Parse answers at most 500 rows a query).
  const entries = await new Parse.Query(ACTIVITY_CLASS).equalTo('targetId', targetId).findAll(MASTER);
  const changed = entries.filter((entry) => {
    // The erasure's own record holds no personal value: it keeps what replaced them.
    if (entry.get('kind') === 'student.erase') return false;
    const changes = entry.get('changes') as Change[];
    if (!changes.some((c) => fields.includes(c.field) && (c.before !== REDACTED || c.after !== REDACTED))) return false;
    entry.set(
      'changes',
      changes.map((c) => (fields.includes(c.field) ? { field: c.field, before: REDACTED, after: REDACTED } : c)),
    );
    return true;
  });
  if (changed.length) await Parse.Object.saveAll(changed, MASTER);
}

type Obj = InstanceType<ReturnType<typeof parse>['Object']>;

/**
 * The triggers that keep the log append-only for every caller of Parse, the
 * master key included (the Parse Dashboard, the cloud code): an entry is
 * created `pending`; afterwards only two updates pass — its state settling once
 * (pending -> applied | failed; a creation's target NEW_TARGET named by the new
 * object's id as it settles applied), and the values (not the fields) of its
 * changes becoming "[erased]" once its student has been erased. Nothing is ever
 * deleted.
 */
export function defineActivityTriggers(): void {
  const Parse = parse();
  Parse.Cloud.beforeSave(ACTIVITY_CLASS, async (request) => {
    const { object, original } = request as unknown as { object: Obj; original?: Obj; master?: boolean };
    if (!request.master) fail(ErrorCode.Forbidden, AdminToolsMessage.logImmutable);
    if (!original) {
      if (object.get('state') !== 'pending') fail(ErrorCode.Forbidden, AdminToolsMessage.logImmutable);
      return;
    }
    const dirty = object.dirtyKeys().filter((key) => key !== 'updatedAt');
    const settles =
      dirty.includes('state') &&
      original.get('state') === 'pending' &&
      (ACTIVITY_STATES as readonly string[]).includes(object.get('state') as string) &&
      object.get('state') !== 'pending';
    if (settles && dirty.length === 1) return;
    if (settles && dirty.length === 2 && dirty.includes('targetId') && namesCreation(original, object)) return;
    if (dirty.length === 1 && dirty[0] === 'changes' && (await onlyRedacts(original, object))) return;
    fail(ErrorCode.Forbidden, AdminToolsMessage.logImmutable);
  });
  Parse.Cloud.beforeDelete(ACTIVITY_CLASS, () => {
    fail(ErrorCode.Forbidden, AdminToolsMessage.logImmutable);
  });
}

/** A creation's entry settling applied, its target now the new object's id. */
function namesCreation(original: Obj, updated: Obj): boolean {
  const id = updated.get('targetId') as unknown;
  return (
    original.get('targetId') === NEW_TARGET &&
    updated.get('state') === 'applied' &&
    typeof id === 'string' &&
    /^[A-Za-z0-9]{1,40}$/.test(id)
  );
}

/** The same changes, some values now "[erased]", of a student who has been erased. */
async function onlyRedacts(original: Obj, updated: Obj): Promise<boolean> {
  const before = original.get('changes') as Change[];
  const after = updated.get('changes') as unknown;
  if (!Array.isArray(after) || after.length !== before.length) return false;
  const same = before.every((old, i) => {
    const now = after[i] as Change;
    return (
      now &&
      now.field === old.field &&
      Object.keys(now).length === 3 &&
      (now.before === old.before || now.before === REDACTED) &&
      (now.after === old.after || now.after === REDACTED)
    );
  });
  if (!same) return false;
  const Parse = parse();
  const student = await new Parse.Query(Parse.User)
    .exists('erasedAt')
    .get(String(original.get('targetId')), MASTER)
    .catch(() => undefined);
  return Boolean(student);
}

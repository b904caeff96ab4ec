// Reading the activity log: a filtered page for the Activity page, and one
// student's history. Admins only; nobody writes through these.

import { ACTIVITY_DEFAULT_LIMIT, ACTIVITY_KINDS, ACTIVITY_MAX_LIMIT } from '@tc/domain/admin-tools';
import { HISTORY_MAX_ENTRIES } from '@tc/domain/constants';
import { isQueryDate } from '@tc/domain/dates';
import { addDays, zonedToInstant } from '@tc/domain/zoned-time';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import type { CloudDeps } from '../deps.ts';
import { defineFunction, fail, integerParam, optionalString, validationFailed } from '../errors.ts';
import { MASTER, parse, unlessMissing } from '../parse.ts';
import { ADMIN_ROLE, ENROLLMENT_FIELD, requireAdmin } from '../users/accounts.ts';
import { roleMembersSql } from '../users/sessions.ts';
import { ACTIVITY_CLASS, MARKS_ENTRIES, markField, type Change } from './log.ts';
import { targetNames } from './targets.ts';

/**
 * A filter's day, from its first instant in the centre's time zone (the day an admin there
 * reads beside each entry): a real date (not 30 February) whose next day PostgreSQL can still
 * compare with.
 */
function dayStart(value: string | undefined, field: string, zone: string): Date | undefined {
  if (!value) return undefined;
  if (!isQueryDate(value)) validationFailed(AdminToolsMessage.dateInvalid, field);
  return zonedToInstant(value, '00:00', zone);
}

/** An entry as the wire carries it. */
export function entryFromJson(json: Record<string, unknown>) {
  return {
    objectId: json.objectId as string,
    at: json.createdAt as string,
    adminId: json.adminId as string,
    adminEmail: json.adminEmail as string,
    kind: json.kind as string,
    targetClass: json.targetClass as string,
    targetId: json.targetId as string,
    ...(typeof json.enrollmentId === 'number' ? { enrollmentId: json.enrollmentId } : {}),
    changes: (json.changes as unknown[]) ?? [],
    state: json.state as string,
  };
}

const FIELDS = ['adminId', 'adminEmail', 'kind', 'targetClass', 'targetId', 'enrollmentId', 'changes', 'state'];

export function defineActivityFunctions(deps: CloudDeps): void {
  const Parse = parse();

  defineFunction(deps, 'listActivity', async (request) => {
    await requireAdmin(request, deps);
    const { params } = request;
    const skip = integerParam(params.skip, 0, 0, 10_000_000, 'skip');
    const limit = integerParam(params.limit, ACTIVITY_DEFAULT_LIMIT, 1, ACTIVITY_MAX_LIMIT, 'limit');
    // A constraint always true: Parse counts a query without one from PostgreSQL's
    // table statistics, an estimate, which a paged log cannot use.
    const query = new Parse.Query(ACTIVITY_CLASS).exists('kind');
    const admin = optionalString(params, 'admin');
    if (admin) query.equalTo('adminId', admin);
    const kind = optionalString(params, 'kind');
    if (kind) {
      if (!(ACTIVITY_KINDS as readonly string[]).includes(kind))
        validationFailed(AdminToolsMessage.kindInvalid, 'kind');
      query.equalTo('kind', kind);
    }
    const zone = deps.centreTimeZone;
    const from = dayStart(optionalString(params, 'from'), 'from', zone);
    const to = optionalString(params, 'to');
    if (from) query.greaterThanOrEqualTo('createdAt', from);
    // Up to the next day's first instant (a day in the zone may be 23 or 25 hours long).
    if (dayStart(to, 'to', zone)) query.lessThan('createdAt', zonedToInstant(addDays(to!, 1), '00:00', zone));
    const total = await query.count(MASTER);
    const items = (await query
      .descending('createdAt')
      .addDescending('objectId')
      .select(...FIELDS)
      .skip(skip)
      .limit(limit)
      .find({ ...MASTER, json: true })) as unknown as Record<string, unknown>[];
    const entries = items.map(entryFromJson);
    const names = await targetNames(deps.sql, entries);
    return {
      items: entries.map((entry) => {
        const target = names.get(entry.targetId);
        return target ? { ...entry, target } : entry;
      }),
      total,
    };
  });

  // The Admin filter's choices: a removed administrator's entries stay in the log, and can be picked out.
  defineFunction(deps, 'listActivityAdmins', async (request) => {
    await requireAdmin(request, deps);
    // The administrators, and each account the log names with the e-mail of its latest entry:
    // the log's ids are read from their index one after the other (a loose index scan), not
    // from every entry. An account is named by its e-mail now; one that is gone, by its entry's.
    return deps.sql<{ objectId: string; email: string; current: boolean }>(
      `WITH RECURSIVE ids AS (
         (SELECT "adminId" FROM "${ACTIVITY_CLASS}" ORDER BY "adminId" LIMIT 1)
         UNION ALL
         SELECT (SELECT "adminId" FROM "${ACTIVITY_CLASS}" WHERE "adminId" > ids."adminId" ORDER BY "adminId" LIMIT 1)
         FROM ids WHERE ids."adminId" IS NOT NULL
       ),
       named AS (
         SELECT ids."adminId", latest."adminEmail" FROM ids
         CROSS JOIN LATERAL (
           SELECT "adminEmail" FROM "${ACTIVITY_CLASS}" e WHERE e."adminId" = ids."adminId"
           ORDER BY e."createdAt" DESC LIMIT 1
         ) latest
       ),
       admins AS (${roleMembersSql('$1')}),
       everyone AS (
         SELECT COALESCE(a."adminId", n."adminId") AS "objectId",
                COALESCE(u.email, u.username, n."adminEmail") AS email,
                a."adminId" IS NOT NULL AS current
         FROM admins a FULL JOIN named n ON n."adminId" = a."adminId"
         LEFT JOIN "_User" u ON u."objectId" = COALESCE(a."adminId", n."adminId")
       )
       SELECT * FROM everyone WHERE email IS NOT NULL ORDER BY current DESC, email`,
      [ADMIN_ROLE],
    );
  });

  defineFunction(deps, 'getStudentHistory', async (request) => {
    await requireAdmin(request, deps);
    const objectId = optionalString(request.params, 'objectId');
    if (!objectId) fail(ErrorCode.BadRequest, ServerMessage.mustBeString('objectId'));
    // A student's history: an id that is no student's is 404, as for every call on a student.
    const student = await unlessMissing(new Parse.Query(Parse.User).exists(ENROLLMENT_FIELD).get(objectId, MASTER));
    if (!student) fail(ErrorCode.NotFound, ServerMessage.studentNotFound);
    // Their marks too: each save's entry is the assessment's, with a line per student it changed.
    const lines = [markField(student.get(ENROLLMENT_FIELD) as number), markField(objectId)];
    const marks = await deps.sql<{ objectId: string }>(
      `SELECT "objectId" FROM "${ACTIVITY_CLASS}"
       WHERE ${MARKS_ENTRIES} AND (changes @> $1::jsonb OR changes @> $2::jsonb)`,
      lines.map((field) => JSON.stringify([{ field }])),
    );
    const own = new Parse.Query(ACTIVITY_CLASS).equalTo('targetId', objectId);
    const query = marks.length
      ? Parse.Query.or(
          own,
          new Parse.Query(ACTIVITY_CLASS).containedIn(
            'objectId',
            marks.map((row) => row.objectId),
          ),
        )
      : own;
    const items = (await query
      .descending('createdAt')
      .addDescending('objectId')
      .select(...FIELDS)
      .limit(HISTORY_MAX_ENTRIES)
      .find({ ...MASTER, json: true })) as unknown as Record<string, unknown>[];
    const entries = items.map(entryFromJson).map((entry) =>
      entry.targetId === objectId
        ? entry
        : // A marks entry: this student's line only.
          { ...entry, changes: entry.changes.filter((change) => lines.includes((change as Change).field)) },
    );
    // Which assessment a marks entry is about, as the Activity page names it.
    const names = await targetNames(
      deps.sql,
      entries.filter((entry) => entry.targetId !== objectId),
    );
    return entries.map((entry) => {
      const target = names.get(entry.targetId);
      return target ? { ...entry, target } : entry;
    });
  });
}

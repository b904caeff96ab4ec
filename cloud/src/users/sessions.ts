// Session lifetimes: each session has an idle timeout and an
// absolute lifetime, shorter for administrators. Parse keeps one session length
// for everyone, so the cloud functions, the only place a session buys anything
// beyond the account's own record, check the role's own limits.
//
// Every call reads the session afresh (nothing is cached), so that a revoked,
// expired or aged session, or a role taken away, ends at once on every instance.
// The read is one SQL statement rather than Parse queries: the session, the
// account's batch as stored now and its admin role in one round trip (about a
// third of a week-schedule call's time went to the Parse queries it replaces).
// The progress read goes in the same statement too (checkSessionAndRead).

import type { StudentStatus } from '@tc/domain/admin-tools';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import type { CloudDeps, SessionPolicy } from '../deps.ts';
import { fail } from '../errors.ts';
import { ROLE_MEMBERS_TABLE } from '../parse-storage.ts';
import { ADMIN_ROLE, revokeSession, type User } from './accounts.ts';

const DEACTIVATED: StudentStatus = 'deactivated';

export const LAST_USED_FIELD = 'lastUsedAt';
/** Writing the last use once a minute is precise enough for timeouts counted in minutes. */
const TOUCH_EVERY_MS = 60_000;

/** The account behind a live session, as stored now (the session's copy of the user may be older). */
export interface SessionAccount {
  grade: number | null;
  board: string | null;
  admin: boolean;
}

interface SessionRow {
  created: Date;
  lastUsed: Date | null;
  grade: number | null;
  board: string | null;
  /** 'deactivated' for a deactivated (or erased) student; null or 'active' otherwise. */
  status: string | null;
  admin: boolean;
}

/**
 * The session of the user's token with its account, or a 401 when there is no
 * such session; for an admin call, a 403 when the account is no administrator;
 * a 401 (and the session deleted) when it is idle or old for that role.
 */
export async function checkSession(
  deps: Pick<CloudDeps, 'sql' | 'sessions'>,
  user: User,
  role: 'student' | 'admin',
  /** The session to check, when it is not the one the user came with (a LiveQuery socket's). */
  token = user.getSessionToken(),
): Promise<SessionAccount> {
  if (!token) fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  const [session] = await deps.sql<SessionRow>(sessionStatement(''), [token, user.id, ADMIN_ROLE], 'session');
  return judgeSession(deps, session, role, token);
}

/** What the account reads with its session in one statement (checkSessionAndRead). */
export interface OwnRead {
  /** The statement's name, for its prepared plan (one name, one text). */
  name: string;
  /**
   * A SELECT of the account's own rows: `$2` is the account's objectId, `u.` its columns as
   * stored now (`u.grade`, `u.board`), and `$4` on the call's own parameters.
   */
  select: string;
  /** The order of the rows, over the SELECT's column names (e.g. `date DESC`). */
  orderBy: string;
}

/**
 * checkSession and a read of the account's own rows in one statement: one round
 * trip to the database instead of two, for the reads a student makes most (their
 * progress, their week). The rows are given back only when the session passes every
 * check. They come through JSON (`json_agg`), so each value is as JSON has it: a
 * timestamp is a string.
 */
export async function checkSessionAndRead<Row>(
  deps: Pick<CloudDeps, 'sql' | 'sessions'>,
  user: User,
  role: 'student' | 'admin',
  read: OwnRead,
): Promise<Row[]> {
  const { rows } = await checkSessionAndReads(deps, user, role, read.name, [read]);
  return rows[0] as Row[];
}

/**
 * checkSessionAndRead with several reads, each one's rows in the order given, and the
 * account as checkSession gives it. `params` are the reads' `$4`, `$5`, ...
 */
export async function checkSessionAndReads(
  deps: Pick<CloudDeps, 'sql' | 'sessions'>,
  user: User,
  role: 'student' | 'admin',
  name: string,
  reads: readonly Omit<OwnRead, 'name'>[],
  params: readonly unknown[] = [],
): Promise<{ account: SessionAccount; rows: unknown[][] }> {
  const token = user.getSessionToken();
  if (!token) fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  const [session] = await deps.sql<SessionRow & Record<string, unknown[]>>(
    sessionAndReadsStatement(reads),
    [token, user.id, ADMIN_ROLE, ...params],
    `session+${name}`,
  );
  const account = await judgeSession(deps, session, role, token);
  return { account, rows: reads.map((_, i) => session![`own${i}`]!) };
}

/** checkSessionAndReads' statement: the session check with each read's rows as a JSON column. */
export function sessionAndReadsStatement(reads: readonly Omit<OwnRead, 'name'>[]): string {
  return sessionStatement(
    reads
      .map(
        (read, i) =>
          `, (SELECT coalesce(json_agg(own ORDER BY ${read.orderBy}), '[]'::json) FROM (${read.select}) own) AS "own${i}"`,
      )
      .join(''),
  );
}

/** A role's members (`j."relatedId"`) beside the role (`r`). */
const ROLE_MEMBERS = `"${ROLE_MEMBERS_TABLE}" j JOIN "_Role" r ON r."objectId" = j."owningId"`;

/** SQL: whether the account of `userId` (a column or a parameter) is in the role named by `role` (a parameter). */
export function hasRoleSql(userId: string, role: string): string {
  return `EXISTS (SELECT 1 FROM ${ROLE_MEMBERS}
               WHERE j."relatedId" = ${userId} AND r.name = ${role})`;
}

/** SQL: the ids (`"adminId"`) of the accounts in the role named by `role` (a parameter). */
export function roleMembersSql(role: string): string {
  return `SELECT j."relatedId" AS "adminId" FROM ${ROLE_MEMBERS} WHERE r.name = ${role}`;
}

/** The session of $1 for the account $2 with the account as stored now and whether it has the role $3. */
function sessionStatement(extraColumns: string): string {
  return `SELECT s."createdAt" AS created, s."${LAST_USED_FIELD}" AS "lastUsed", u.grade, u.board, u.status,
       ${hasRoleSql('u."objectId"', '$3')} AS admin${extraColumns}
     FROM "_Session" s JOIN "_User" u ON u."objectId" = s."user"
     WHERE s."sessionToken" = $1 AND u."objectId" = $2`;
}

/** The rules of checkSession over the row the statement found (or not). */
async function judgeSession(
  deps: Pick<CloudDeps, 'sql' | 'sessions'>,
  session: SessionRow | undefined,
  role: 'student' | 'admin',
  token: string,
): Promise<SessionAccount> {
  if (!session) fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  if (role === 'admin' && !session.admin) fail(ErrorCode.Forbidden, ServerMessage.adminOnly);
  const policy: SessionPolicy = deps.sessions[role];
  const now = Date.now();
  const created = session.created.getTime();
  const lastUsed = session.lastUsed?.getTime() ?? created;
  // A student deactivated (or erased) while logging in: the login read the account before the
  // change, and the change revoked every session before this one existed.
  const deactivated = role === 'student' && session.status === DEACTIVATED;
  if (deactivated || now - created > policy.maxSeconds * 1000 || now - lastUsed > policy.idleSeconds * 1000) {
    await revokeSession(token);
    fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  }
  if (now - lastUsed > TOUCH_EVERY_MS) {
    await deps.sql(`UPDATE "_Session" SET "${LAST_USED_FIELD}" = $2, "updatedAt" = $2 WHERE "sessionToken" = $1`, [
      token,
      new Date(now),
    ]);
  }
  return { grade: session.grade, board: session.board, admin: session.admin };
}

/**
 * Deletes every session past both roles' limits, unused or too old: a session is
 * otherwise deleted only when its token is presented again, and a tab closed without
 * logging out would leave its row (a token and whose it is) for ever. Returns how many.
 */
export async function purgeEndedSessions(deps: Pick<CloudDeps, 'sql' | 'sessions'>): Promise<number> {
  const { student, admin } = deps.sessions;
  const idleSeconds = Math.max(student.idleSeconds, admin.idleSeconds);
  const maxSeconds = Math.max(student.maxSeconds, admin.maxSeconds);
  const gone = await deps.sql<{ n: number }>(
    `WITH gone AS (
       DELETE FROM "_Session"
       WHERE "createdAt" < now() - make_interval(secs => $1)
          OR coalesce("${LAST_USED_FIELD}", "createdAt") < now() - make_interval(secs => $2)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [maxSeconds, idleSeconds],
  );
  return gone[0]?.n ?? 0;
}

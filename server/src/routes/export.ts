// GET /api/users/export.csv: the admin table's current view —
// search, grade, board, status and sort as GET /api/users takes them — every
// page of it, as CSV. Rows stream from PostgreSQL through a cursor into
// csv-stringify and out, so memory stays flat whatever the count. A file, not
// JSON: so it is a route of its own beside the contract table, documented by
// hand in openapi.ts. The browser fetches it with the admin's bearer token and
// saves the answer (docs/decisions/0011-activity-log.md, "Export").

import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { EventEmitter } from 'node:events';
import type { NextFunction, RequestHandler, Response } from 'express';
import { stringify } from 'csv-stringify';
import QueryStream from 'pg-query-stream';
import { EXPORT_COLUMNS, STATUS_FILTERS, ddmmyyyy, guardCell } from '@tc/domain/admin-tools';
import { LIST_SORT_FIELDS, SEARCH_MAX_LENGTH } from '@tc/domain/constants';
import { AppError, ErrorCode, httpStatusOf } from '@tc/domain/errors';
import { RegistrationMessage } from '@tc/domain/messages';
import { ServerMessage } from '@tc/domain/server-messages';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { gradeLabel, mobileSearchDigits, parseBoard, parseGrade } from '@tc/domain/registration';
import { bearerToken } from '../bearer.ts';
import { recordActivity } from '@tc/cloud/activity/log';
import type { User } from '@tc/cloud/users/accounts';
import { callCloudFunctionAs, sessionUser } from '../cloud-call.ts';
import { errorBody, isRefusal, setRetryAfter } from '../errors.ts';
import { failsTheAnswer } from '../operations/request-log.ts';
import type { Sql } from '../database/sql.ts';

interface Filters {
  where: string[];
  values: unknown[];
  order: string;
  /** The view as the activity log records it: "grade 7 · ICSE · active · sorted by id", a search named, not quoted. */
  described: string;
}

/** The log entry's target: an export is of many students, none in particular. */
const EXPORT_TARGET = 'students';

/** A filter given once, as text (`?grade=3&grade=4` is refused, as the table's list refuses it). */
const one = (query: Record<string, unknown>, name: string): string | undefined => {
  const value = query[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new AppError(ErrorCode.BadRequest, ServerMessage.givenTwice(name), name);
};
const likeEscape = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The same view as listStudents (cloud/src/admin/functions.ts), in SQL. */
export function filtersOf(query: Record<string, unknown>): Filters {
  const where = ['"enrollmentId" IS NOT NULL'];
  const values: unknown[] = [];
  const described: string[] = [];
  const add = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const search = one(query, 'q') ?? '';
  // As long a search as the table takes, and no longer (the table refuses the view then).
  if ([...search].length > SEARCH_MAX_LENGTH)
    throw new AppError(ErrorCode.BadRequest, ServerMessage.searchTooLong, 'q');
  const q = search.trim().toLowerCase();
  if (q) {
    const pattern = add(`%${likeEscape(q)}%`);
    const clauses = [`fullname ILIKE ${pattern}`, `email LIKE ${pattern}`];
    // As the admin's table searches (cloud/src/admin/functions.ts listStudents).
    const digits = mobileSearchDigits(q);
    if (digits) clauses.push(`mobile LIKE ${add(`%${digits}%`)}`);
    where.push(`(${clauses.join(' OR ')})`);
    // A search may be a child's name: the log says there was one, not what it was.
    described.push('a search');
  }
  const gradeText = one(query, 'grade');
  if (gradeText) {
    const grade = parseGrade(gradeText);
    if (grade === null) throw new AppError(ErrorCode.Validation, RegistrationMessage.gradeOutOfRange, 'grade');
    where.push(`grade = ${add(grade)}`);
    described.push(`grade ${grade}`);
  }
  const boardText = one(query, 'board');
  if (boardText) {
    const board = parseBoard(boardText);
    if (!board) throw new AppError(ErrorCode.Validation, RegistrationMessage.boardInvalid, 'board');
    where.push(`board = ${add(board)}`);
    described.push(board);
  }
  const status = one(query, 'status') || 'active';
  if (!(STATUS_FILTERS as readonly string[]).includes(status)) {
    throw new AppError(ErrorCode.Validation, AdminToolsMessage.statusFilterInvalid, 'status');
  }
  if (status === 'active') where.push(`(status IS NULL OR status <> 'deactivated')`);
  if (status === 'deactivated') where.push(`status = 'deactivated'`);
  described.push(status === 'all' ? 'every status' : status);

  const sort = one(query, 'sort') || 'id';
  const field = sort.replace(/^-/, '');
  if (!(LIST_SORT_FIELDS as readonly string[]).includes(field)) {
    throw new AppError(
      ErrorCode.BadRequest,
      `sort must be one of ${LIST_SORT_FIELDS.join(', ')}, optionally with a leading -`,
    );
  }
  const column = field === 'id' ? 'enrollmentId' : field;
  const direction = sort.startsWith('-') ? 'DESC' : 'ASC';
  const order =
    column === 'enrollmentId' ? `"enrollmentId" ${direction}` : `"${column}" ${direction}, "enrollmentId" ASC`;
  described.push(`sorted by ${sort}`);
  return { where, values, order, described: described.join(' · ') };
}

/** A row as the cursor gives it (rowMode 'array': no object per row), in the order of COLUMNS_SQL. */
type StudentRow = [
  enrollmentId: number,
  fullname: string | null,
  gender: string | null,
  mobile: string | null,
  email: string | null,
  dob: string | null,
  board: string | null,
  grade: number | null,
];
const COLUMNS_SQL = `"enrollmentId", fullname, gender, mobile, email, dob, board, grade`;

function cells(row: StudentRow): string[] {
  const [enrollmentId, fullname, gender, mobile, email, dob, board, grade] = row;
  const text = (value: string | number | null | undefined) =>
    guardCell(value === null || value === undefined ? '' : String(value));
  return [
    String(enrollmentId),
    text(fullname),
    text(gender),
    text(mobile),
    text(email),
    ddmmyyyy(dob),
    text(board),
    // As the table shows it: 1st ... 9th.
    grade === null ? '' : gradeLabel(grade),
  ];
}

const CHUNK_BYTES = 64 * 1024;

/**
 * csv-stringify gives one small chunk per record; written one by one, 100,000 of
 * them cost a socket write (and a gzip call) each. Gathered into 64 kB chunks
 * they cost a hundred times fewer, and memory stays flat.
 */
function inChunks(): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending.push(chunk);
      size += chunk.length;
      if (size >= CHUNK_BYTES) {
        const out = Buffer.concat(pending, size);
        pending = [];
        size = 0;
        return done(null, out);
      }
      done();
    },
    flush(done) {
      done(null, size ? Buffer.concat(pending, size) : undefined);
    },
  });
}

/** The session must be an administrator's: the admin call of the contract table decides. Gives the admin. */
async function requireAdminToken(header: string | undefined, clientIp: string): Promise<User> {
  const token = bearerToken(header);
  if (!token) throw new AppError(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  try {
    // The session looked up once: the admin check runs as its account, which the log entry names.
    const admin = await sessionUser(token);
    await callCloudFunctionAs('getAdminProfile', {}, clientIp, admin);
    return admin;
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.Forbidden) {
      throw new AppError(ErrorCode.Forbidden, ServerMessage.adminOnly);
    }
    // The database failing (restarting, say) is no ended session: it is answered 503 or 500.
    if (!isRefusal(error)) throw error;
    throw new AppError(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  }
}

function csvHeaders(res: Response): void {
  const stamp = new Date().toISOString().slice(0, 10);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="students-${stamp}.csv"`);
  res.setHeader('Cache-Control', 'no-store');
}

/**
 * Exports under way at once, per instance: each holds a connection of the site's pool (10)
 * for as long as its download takes, up to EXPORT_LIMIT_MS on a slow connection.
 */
export const EXPORTS_AT_ONCE = 3;

/** The wait a refused export is told (Retry-After). */
const EXPORT_RETRY_SECONDS = 60;

export function exportRoute(sql: Sql): RequestHandler {
  let underWay = 0;
  return async (req, res, next) => {
    let filters: Filters;
    let counted = false;
    try {
      try {
        const admin = await requireAdminToken(req.get('authorization'), req.ip ?? 'unknown');
        filters = filtersOf(req.query);
        // Asked whether there is a file (HEAD): yes, and nothing is read, sent or logged.
        if (req.method === 'HEAD') {
          csvHeaders(res);
          res.status(200).end();
          return;
        }
        if (underWay >= EXPORTS_AT_ONCE) {
          throw new AppError(ErrorCode.TooManyRequests, AdminToolsMessage.exportsBusy, undefined, EXPORT_RETRY_SECONDS);
        }
        underWay += 1;
        counted = true;
        // Every child's details leave the site in one file: the log says who took which view, and when.
        const view = { field: 'view', before: '', after: filters.described };
        await recordActivity(
          { admin, kind: 'students.export', targetClass: '_User', targetId: EXPORT_TARGET, changes: [view] },
          () => Promise.resolve(),
        );
      } catch (error) {
        // A failure of the site or its database: answered 503 while the database is away, else 500.
        if (!isRefusal(error)) return next(error);
        setRetryAfter(res, error.retryAfter);
        res
          .status(httpStatusOf(error.code))
          .json(errorBody(req, error.message, error.code, error.field ? { field: error.field } : {}));
        return;
      }
      await sendRows(sql, filters, res, next);
    } finally {
      if (counted) underWay -= 1;
    }
  };
}

/** The view's rows as CSV, streamed from a cursor into the answer. */
async function sendRows(sql: Sql, filters: Filters, res: Response, next: NextFunction): Promise<void> {
  const text = `SELECT ${COLUMNS_SQL} FROM "_User" WHERE ${filters.where.join(' AND ')} ORDER BY ${filters.order}`;
  const client = await sql.connect();
  let failed: Error | undefined;
  let rows: ReturnType<typeof exportStream> | undefined;
  try {
    // The database limits a cursor's statement as a whole too, fetches and the waits between them.
    await client.query(`SET statement_timeout = ${EXPORT_LIMIT_MS}`);
    rows = client.query(exportStream(text, filters.values));
    res.status(200);
    csvHeaders(res);
    const toCells = new Transform({
      objectMode: true,
      transform(row: StudentRow, _encoding, done) {
        done(null, cells(row));
      },
    });
    const csv = stringify({ bom: true, record_delimiter: 'windows' });
    csv.write(EXPORT_COLUMNS);
    failsTheAnswer(rows, res);
    await pipeline(rows, toCells, csv, inChunks(), res);
  } catch (error) {
    failed = error as Error;
    // The client went away, or the database failed mid-way: the answer has begun, so end it.
    if (!res.headersSent) return next(error);
    res.destroy();
  } finally {
    rows?.callback?.();
    // The connection goes back to the pool with the pool's limit (a failed one is not reused).
    if (!failed) await client.query('RESET statement_timeout').catch((error: Error) => (failed = error));
    client.release(failed);
  }
}

/** The longest one export may take, for a slow connection: the rows of 100,000 students are about 10 MB. */
const EXPORT_LIMIT_MS = 30 * 60 * 1000;

/**
 * The export's rows, from a cursor. Its rows come in many fetches, as fast as the admin's
 * connection takes them; the database (statement_timeout, set by the caller) and pg (its
 * own timer, from the query's start to its callback, which a stream never calls) would
 * both limit the whole as one statement: the pool's limit would cut every export longer
 * than it (on a slow connection, a few MB in), ending the answer or leaving it hanging with
 * its connection. So the stream has the export's own limit, its callback is called once it
 * is done with (which clears pg's timer), and a failure of the cursor while the stream
 * waits for the reader fails the stream, which would otherwise end as if every row had come.
 */
function exportStream(text: string, values: unknown[]): QueryStream & { callback?: () => void } {
  const stream = Object.assign(new QueryStream(text, values, { batchSize: 5000, rowMode: 'array' }), {
    query_timeout: EXPORT_LIMIT_MS,
  });
  (stream.cursor as EventEmitter).on('error', (error: Error) => stream.destroy(error));
  return stream;
}

// Marks entry (admins): the batch's students with their marks, paged and
// searched on the server; changed rows saved in one request, each bad row
// answered with its own error; CSV files previewed, and saved only when every
// row is good.

import {
  AssessmentMessage as M,
  MARKS_SAVE_MAX_ROWS,
  MAX_MARKS_MAX,
  isInBatch,
  markText,
  parseMarkValue,
  type MarkValue,
} from '@tc/domain/assessments';
import { ALL_BOARDS } from '@tc/domain/constants';
import { storedStatus } from '@tc/domain/admin-tools';
import { ErrorCode } from '@tc/domain/errors';
import type { CloudDeps } from '../deps.ts';
import { defineFunction, fail, integerParam, optionalString, validationFailed } from '../errors.ts';
import { beginActivity, markField, settleActivity, type Change } from '../activity/log.ts';
import { requireAdmin, type User } from '../users/accounts.ts';
import {
  assessmentStudents,
  getAssessment,
  queuePublicationMails,
  revisePublicationMails,
  writeMarks,
  type AssessmentObject,
  type MarkWrite,
} from './store.ts';
import { readMarksCsv } from './marks-csv.ts';

/** A row to check: from the grid (an id and a value) or a CSV line (read by marks-csv.ts). */
export interface RowIn {
  /** The CSV line, for the preview. */
  line?: number;
  /** Null when the line could not be read as an id and a value; `problem` says why (also of a value it could not read). */
  id: number | null;
  value: unknown;
  problem?: string;
}

export interface CheckedRow {
  line?: number;
  id?: number;
  fullname?: string;
  value: string;
  error?: string;
  /** A CSV line with the marks cell blank: the student's marks are left as they are. */
  unchanged?: boolean;
}

/**
 * Checks rows against the assessment: known enrollment id, in the batch (or
 * with marks on it already), once only, marks in range. One query for all the
 * students, whatever the number.
 */
async function checkRows(
  deps: CloudDeps,
  assessment: AssessmentObject,
  rows: readonly RowIn[],
  blank: 'clears' | 'leaves as it is' = 'clears',
): Promise<{ checked: CheckedRow[]; writes: MarkWrite[] }> {
  const ids = [...new Set(rows.map((r) => r.id).filter((id): id is number => id !== null))];
  const students = await deps.sql<{
    objectId: string;
    enrollmentId: number;
    fullname: string;
    grade: number;
    board: string;
    status: string | null;
    erased: boolean;
    marked: boolean;
  }>(
    `SELECT u."objectId", u."enrollmentId", u.fullname, u.grade, u.board, u.status, u."erasedAt" IS NOT NULL AS erased,
       m."objectId" IS NOT NULL AS marked
     FROM "_User" u LEFT JOIN "Mark" m ON m."studentId" = u."objectId" AND m."assessmentId" = $2
     WHERE u."enrollmentId" = ANY($1::float8[])`,
    [ids, assessment.id],
  );
  const byId = new Map(students.map((s) => [Number(s.enrollmentId), s]));
  const seen = new Map<number, number>();
  for (const row of rows) if (row.id !== null) seen.set(row.id, (seen.get(row.id) ?? 0) + 1);
  const batch = { grade: assessment.get('grade') as number, board: assessment.get('board') as string };
  const maxMarks = assessment.get('maxMarks') as number;

  const checked: CheckedRow[] = [];
  const writes: MarkWrite[] = [];
  for (const row of rows) {
    const out: CheckedRow = {
      ...(row.line !== undefined ? { line: row.line } : {}),
      ...(row.id !== null ? { id: row.id } : {}),
      value:
        typeof row.value === 'string'
          ? row.value
          : row.value === undefined || row.value === null
            ? ''
            : typeof row.value === 'number' || typeof row.value === 'boolean'
              ? String(row.value)
              : JSON.stringify(row.value),
    };
    checked.push(out);
    if (row.id === null || row.problem) {
      out.error = row.problem ?? M.malformedLine;
      continue;
    }
    const student = byId.get(row.id);
    if (student) out.fullname = student.fullname;
    const value = parseMarkValue(row.value, maxMarks);
    const leftAsItIs = value.ok && value.value === null && blank === 'leaves as it is';
    // Gives marks (a blank CSV cell gives none): one who has moved batch or been deactivated
    // since keeps the marks given here, and they can be corrected.
    const givesNew = !leftAsItIs && student !== undefined && !student.marked;
    if (!student) out.error = M.unknownStudent;
    else if (givesNew && student.erased) out.error = M.studentErased;
    else if (givesNew && student.status === 'deactivated') out.error = M.studentDeactivated;
    else if (givesNew && !isInBatch(batch, student)) out.error = M.otherBatch;
    else if ((seen.get(row.id) ?? 0) > 1) out.error = M.duplicateRow;
    else if (!value.ok) out.error = value.message;
    else if (leftAsItIs) out.unchanged = true;
    else writes.push({ studentId: student.objectId, enrollmentId: row.id, value: value.value });
  }
  return { checked, writes };
}

/**
 * A blank marks cell in a CSV file leaves the student's marks as they are: the
 * template lists the whole batch with the cells empty, and a file filled in for
 * some students must not clear the marks the others have (in the grid, an
 * emptied cell does clear them).
 */
const CSV_BLANK = 'leaves as it is';

function csvParam(params: Record<string, unknown>): string {
  const csv = optionalString(params, 'csv') ?? '';
  if (!csv.trim()) validationFailed(M.emptyFile, 'csv');
  return csv;
}

export function defineMarkFunctions(deps: CloudDeps): void {
  defineFunction(deps, 'listAssessmentMarks', async (request) => {
    await requireAdmin(request, deps);
    const { params } = request;
    const assessment = await getAssessment(params.objectId);
    const skip = integerParam(params.skip, 0, 0, 1_000_000, 'skip', 'skip');
    const limit = integerParam(params.limit, 50, 1, 500, 'limit', 'limit');
    const q = (optionalString(params, 'q') ?? '').trim();
    const values: unknown[] = [assessment.get('grade'), assessment.get('board'), assessment.id];
    let search = '';
    // Digits are an enrollment id; anything else is part of a name.
    if (/^\d{1,15}$/.test(q)) search = `WHERE u."enrollmentId" = ${Number(q)}`;
    else if (q) {
      values.push(`%${q.replace(/[\\%_]/g, '\\$&')}%`);
      search = `WHERE u.fullname ILIKE $4`;
    }
    const rows = await deps.sql<{
      objectId: string;
      enrollmentId: number;
      fullname: string;
      grade: number;
      board: string;
      status: string | null;
      marks: number | null;
      absent: boolean | null;
      total: number;
    }>(
      // The total comes with the page: one pass over the students, not two.
      `SELECT u."objectId", u."enrollmentId", u.fullname, u.grade, u.board, u.status, m.marks, m.absent,
         count(*) OVER ()::int AS total
       FROM ${assessmentStudents(1)} LEFT JOIN "Mark" m ON m."studentId" = u."objectId" AND m."assessmentId" = $3
       ${search} ORDER BY u."enrollmentId" LIMIT ${limit} OFFSET ${skip}`,
      values,
    );
    // A page past the end has no row to bring the total: it is counted on its own.
    const [counted] =
      rows.length || !skip
        ? []
        : await deps.sql<{ total: number }>(
            `SELECT count(*)::int AS total FROM ${assessmentStudents(1)} ${search}`,
            values,
          );
    const total = rows[0]?.total ?? counted?.total ?? 0;
    return {
      items: rows.map((row) => ({
        studentId: row.objectId,
        id: Number(row.enrollmentId),
        fullname: row.fullname,
        grade: Number(row.grade),
        board: row.board,
        status: storedStatus(row.status),
        value: markText(storedValue(row)),
      })),
      total,
    };
  });

  defineFunction(deps, 'saveMarks', async (request) => {
    const admin = await requireAdmin(request, deps);
    const assessment = await getAssessment(request.params.objectId);
    const rows = request.params.rows;
    if (!Array.isArray(rows)) fail(ErrorCode.BadRequest, 'rows must be a list of {id, value}', 'rows');
    if (rows.length > MARKS_SAVE_MAX_ROWS) fail(ErrorCode.BadRequest, M.tooManyRowsToSave, 'rows');
    // A row without an enrollment id has no row to carry its error back to: the request is refused.
    const expected = new Map<number, string>();
    const input: RowIn[] = rows.map((row: unknown) => {
      const { id, value, before } = (row ?? {}) as { id?: unknown; value?: unknown; before?: unknown };
      if (!Number.isInteger(id) || (id as number) < 1) fail(ErrorCode.BadRequest, M.rowIdInvalid, 'rows');
      if (before === undefined) return { id: id as number, value };
      // What the grid showed as saved: the row is refused if that is no longer what is stored.
      const shown = parseMarkValue(before, MAX_MARKS_MAX);
      if (!shown.ok) return { id: id as number, value, problem: M.beforeInvalid };
      expected.set(id as number, markText(shown.value));
      return { id: id as number, value };
    });
    const { checked, writes } = await checkRows(deps, assessment, input);
    const { saved, conflicts } = await logMarks(deps, admin, 'marks.save', assessment, writes, expected);
    const errors = [
      ...checked.filter((row) => row.error).map((row) => ({ id: row.id!, message: row.error! })),
      ...conflicts,
    ];
    return { saved, errors };
  });

  defineFunction(deps, 'previewMarksCsv', async (request) => {
    await requireAdmin(request, deps);
    const assessment = await getAssessment(request.params.objectId);
    const { checked } = await checkRows(deps, assessment, readMarksCsv(csvParam(request.params)), CSV_BLANK);
    return {
      rows: checked,
      errorCount: checked.filter((row) => row.error).length,
      unchangedCount: checked.filter((row) => row.unchanged).length,
    };
  });

  defineFunction(deps, 'importMarksCsv', async (request) => {
    const admin = await requireAdmin(request, deps);
    const assessment = await getAssessment(request.params.objectId);
    const { checked, writes } = await checkRows(deps, assessment, readMarksCsv(csvParam(request.params)), CSV_BLANK);
    const errorCount = checked.filter((row) => row.error).length;
    if (errorCount) validationFailed(M.csvHasErrors(errorCount), 'csv');
    const { saved } = await logMarks(deps, admin, 'marks.import', assessment, writes);
    return { saved };
  });
}

function storedValue(row: { marks: number | null; absent: boolean | null }): MarkValue {
  if (row.absent) return { marks: null, absent: true };
  if (row.marks === null || row.marks === undefined) return null;
  return { marks: Number(row.marks), absent: false };
}

/**
 * Writes marks with their activity entry: each student's marks before and after
 * (by enrollment number), the values before read under the assessment's lock, so
 * two saves of one mark at once are logged one after the other. One transaction:
 * the marks, the average and any mail are kept together or not at all. On a
 * published assessment, a student's first marks bring the publication's mail; a
 * correction of marks already mailed sends none (one mail per student and assessment).
 * A write whose `expected` text (by enrollment number: what the admin's grid showed as
 * saved) is no longer what is stored is left out, and answered as a conflict, unless it
 * would store what is there already.
 */
async function logMarks(
  deps: CloudDeps,
  admin: User,
  kind: 'marks.save' | 'marks.import',
  /** The assessment as the rows were checked against it. */
  checkedAgainst: AssessmentObject,
  checkedWrites: MarkWrite[],
  expected: ReadonlyMap<number, string> = new Map(),
): Promise<{ saved: number; conflicts: { id: number; message: string; now: string }[] }> {
  const assessmentId = checkedAgainst.id!;
  let entry: Awaited<ReturnType<typeof beginActivity>> | undefined;
  let writes = checkedWrites;
  const conflicts: { id: number; message: string; now: string }[] = [];
  try {
    await deps.transaction(async (tx) => {
      // Saves of one assessment, and its publication, take their turns: a mark
      // saved while it is being published is either in the publication or mailed here.
      const [assessment] = await tx.sql<{ status: string; maxMarks: number; grade: number; board: string }>(
        `SELECT status, "maxMarks", grade, board FROM "Assessment" WHERE "objectId" = $1 FOR UPDATE`,
        [assessmentId],
      );
      if (!assessment) fail(ErrorCode.NotFound, M.notFound);
      const stored = await storedMarks(tx.sql, assessmentId, writes);
      writes = writes.filter((write) => {
        const shown = write.enrollmentId === undefined ? undefined : expected.get(write.enrollmentId);
        const now = stored.get(write.studentId) ?? '';
        if (shown === undefined || shown === now || markText(write.value) === now) return true;
        conflicts.push({ id: write.enrollmentId!, message: M.markChangedMeanwhile(now), now });
        return false;
      });
      const changes = marksChanges(stored, writes);
      // Written before the checks below: a save they refuse is logged as failed.
      if (changes.length) {
        entry = await beginActivity({ admin, kind, targetClass: 'Assessment', targetId: assessmentId, changes });
      }
      // Its batch changed since the rows were checked (it had no marks then): they were checked for another batch.
      if (
        Number(assessment.grade) !== checkedAgainst.get('grade') ||
        assessment.board !== checkedAgainst.get('board')
      ) {
        validationFailed(M.batchChangedMeanwhile, 'rows');
      }
      // A student moved to another batch or deactivated since the rows were checked (or who lost
      // the mark that kept them on it): checked against the students as they are now, held until
      // this commits.
      const students = await tx.sql<{ moved: boolean }>(
        `SELECT m."objectId" IS NULL
           AND (NOT (u.grade = $3 AND ($4 = '${ALL_BOARDS}' OR u.board = $4)) OR u.status = 'deactivated') AS moved
         FROM "_User" u LEFT JOIN "Mark" m ON m."studentId" = u."objectId" AND m."assessmentId" = $1
         WHERE u."objectId" = ANY($2::text[])
         FOR SHARE OF u`,
        [assessmentId, writes.map((w) => w.studentId), Number(assessment.grade), assessment.board],
      );
      if (students.some((student) => student.moved)) validationFailed(M.studentChangedMeanwhile, 'rows');
      // The maximum lowered since the rows were checked: none may end above it.
      const maxMarks = Number(assessment.maxMarks);
      if (writes.some((w) => w.value && !w.value.absent && w.value.marks > maxMarks)) {
        validationFailed(M.marksInvalid(maxMarks), 'rows');
      }
      await writeMarks(tx.sql, assessmentId, writes);
      const marked = writes.filter((w) => w.value && !w.value.absent).map((w) => w.studentId);
      if (assessment.status === 'published') {
        // A mail still queued tells the mark as corrected, or nothing when there is none now.
        await revisePublicationMails(
          deps,
          tx,
          assessmentId,
          writes.map((w) => w.studentId),
        );
        if (marked.length) await queuePublicationMails(deps, tx, assessmentId, marked);
      }
    });
  } catch (error) {
    if (entry) await settleActivity(entry, 'failed');
    throw error;
  }
  if (entry) await settleActivity(entry, 'applied');
  return { saved: writes.length, conflicts };
}

/** The stored marks of the students of `writes` as text ('17.5', 'absent'), by student; none for no row. */
async function storedMarks(sql: CloudDeps['sql'], assessmentId: string, writes: MarkWrite[]) {
  const stored = await sql<{ studentId: string; marks: number | null; absent: boolean | null }>(
    `SELECT "studentId", marks, absent FROM "Mark" WHERE "assessmentId" = $1 AND "studentId" = ANY($2::text[])`,
    [assessmentId, writes.map((write) => write.studentId)],
  );
  return new Map(stored.map((row) => [row.studentId, markText(storedValue(row))]));
}

/** Every student's marks of an assessment as lines of the log, before → none: a draft deleted with them. */
export async function removedMarks(sql: CloudDeps['sql'], assessmentId: string): Promise<Change[]> {
  const rows = await sql<{
    studentId: string;
    enrollmentId: number | null;
    marks: number | null;
    absent: boolean | null;
  }>(
    `SELECT m."studentId", u."enrollmentId", m.marks, m.absent
     FROM "Mark" m LEFT JOIN "_User" u ON u."objectId" = m."studentId"
     WHERE m."assessmentId" = $1 ORDER BY u."enrollmentId", m."studentId"`,
    [assessmentId],
  );
  return rows
    .map((row) => ({
      field: markField(row.enrollmentId ?? row.studentId),
      before: markText(storedValue(row)),
      after: '',
    }))
    .filter((change) => change.before !== change.after);
}

/** Each student's marks before and after, as the log shows them; only those that change. */
function marksChanges(stored: ReadonlyMap<string, string>, writes: MarkWrite[]) {
  return writes
    .map((write) => ({
      field: markField(write.enrollmentId ?? write.studentId),
      before: stored.get(write.studentId) ?? '',
      after: markText(write.value),
    }))
    .filter((change) => change.before !== change.after);
}

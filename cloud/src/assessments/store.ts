// Reading and writing assessments and marks. Assessments are few and go through
// the Parse SDK; marks come by the thousand and go through single SQL
// statements on Parse's own tables ("Assessment", "Mark").

import {
  AVERAGE_MIN_STUDENTS,
  AssessmentMessage,
  averageShownToStudents,
  toOneDecimal,
  type MarkValue,
  type ValidAssessment,
} from '@tc/domain/assessments';
import { ALL_BOARDS } from '@tc/domain/constants';
import { ErrorCode } from '@tc/domain/errors';
import { marksPublishedEmail } from '@tc/domain/notifications';
import { Route } from '@tc/domain/routes';
import type { CloudDeps, MailJob, Sql, Transaction } from '../deps.ts';
import { fail } from '../errors.ts';
import { MASTER, parse, unlessMissing } from '../parse.ts';

export type AssessmentObject = InstanceType<ReturnType<typeof parse>['Object']>;

export interface AssessmentRecord extends ValidAssessment {
  objectId: string;
  status: 'draft' | 'published';
  publishedAt?: string;
  /** Mean marks of the students with marks (absent left out). */
  average?: number;
  markedCount: number;
  /** The average students see (refreshAverage), when they see one. */
  shownAverage?: number;
}

export function toAssessmentRecord(object: AssessmentObject): AssessmentRecord {
  const average = object.get('average') as unknown;
  const shownAverage = object.get('shownAverage') as unknown;
  const shown =
    typeof shownAverage === 'number' && averageShownToStudents(object.get('shownCount'), object.get('markedCount'));
  const publishedAt = object.get('publishedAt') as Date | undefined;
  type Field<K extends keyof AssessmentRecord> = AssessmentRecord[K];
  return {
    objectId: object.id!,
    grade: object.get('grade') as Field<'grade'>,
    board: object.get('board') as Field<'board'>,
    subject: object.get('subject') as Field<'subject'>,
    title: object.get('title') as Field<'title'>,
    date: object.get('date') as Field<'date'>,
    maxMarks: object.get('maxMarks') as Field<'maxMarks'>,
    status: object.get('status') as Field<'status'>,
    // Rounded once, to one decimal, from the exact mean: the figure students see.
    ...(typeof average === 'number' ? { average: toOneDecimal(average) } : {}),
    markedCount: (object.get('markedCount') as number | undefined) ?? 0,
    ...(shown && object.get('status') === 'published' ? { shownAverage: toOneDecimal(shownAverage) } : {}),
    ...(publishedAt ? { publishedAt: publishedAt.toISOString() } : {}),
  };
}

export async function getAssessment(objectId: unknown): Promise<AssessmentObject> {
  const Parse = parse();
  if (typeof objectId !== 'string' || !/^[A-Za-z0-9]{1,40}$/.test(objectId)) {
    fail(ErrorCode.NotFound, AssessmentMessage.notFound);
  }
  const found = await unlessMissing(new Parse.Query('Assessment').get(objectId, MASTER));
  if (!found) fail(ErrorCode.NotFound, AssessmentMessage.notFound);
  return found;
}

/**
 * The students of an assessment, as a FROM item `u` (objectId, enrollmentId,
 * fullname, grade, board, status): the active students of its batch ($first: grade,
 * $first + 1: board), and those with marks on it ($first + 2: its id) who have
 * moved to another batch or been deactivated (or erased) since: their marks stay
 * theirs, and an admin can still see and correct them. Two parts rather than one
 * OR, so that each keeps its index (a batch of thousands with thousands of marks).
 */
export function assessmentStudents(first: number): string {
  const [grade, board, assessment] = [`$${first}`, `$${first + 1}`, `$${first + 2}`];
  const activeInBatch = `s.grade = ${grade} AND (${board} = '${ALL_BOARDS}' OR s.board = ${board})
     AND s.status IS DISTINCT FROM 'deactivated'`;
  const columns = `s."objectId", s."enrollmentId", s.fullname, s.grade, s.board, s.status`;
  return `(SELECT ${columns} FROM "_User" s WHERE s."enrollmentId" IS NOT NULL AND ${activeInBatch}
     UNION ALL
     SELECT ${columns} FROM "Mark" kept JOIN "_User" s ON s."objectId" = kept."studentId"
     WHERE kept."assessmentId" = ${assessment} AND s."enrollmentId" IS NOT NULL AND (${activeInBatch}) IS NOT TRUE) u`;
}

/**
 * What a student brings to the average, as one text to compare two readings of it: their
 * marks, or '-' (no mark, or Absent: neither counts, so a change between them is no change).
 */
const markToken = (row: string) => `coalesce(CASE WHEN ${row}.absent IS NOT TRUE THEN ${row}.marks::text END, '-')`;

/** A student whose mark a save changed, and their mark before it (markToken). */
export interface MarkChange {
  studentId: string;
  before: string;
}

/**
 * Stores the average and the number of students with marks (on a draft too), and the
 * average students see (`shownAverage`, `shownCount`). That one is not the stored one at
 * every change: two readings of the average, before and after one late mark or one
 * correction, would give that child's mark away. It takes the stored one at publishing, while
 * it is too small to be shown (fewer than AVERAGE_MIN_STUDENTS marks), and once the marks
 * of at least AVERAGE_MIN_STUDENTS students differ from what they were when it was taken: a
 * difference between two readings then covers that many children, as the average itself
 * does (docs/decisions/0018-progress-reads.md). `changedSinceShown` keeps each changed
 * student's mark as it was then (`{s, o}`; a bare id, kept before it kept marks, has
 * none known: it never counts, and stays until the average is next taken): a mark changed
 * and put back, cleared and entered again, or an empty cell marked Absent no longer counts,
 * so slips undone cannot make up the five around one late mark. An average hidden because
 * fewer than AVERAGE_MIN_STUDENTS students have marks now (averageShownToStudents) is not
 * retaken for that: taken when one mark is cleared and again when it is entered, it would
 * give that child's mark away.
 */
export async function refreshAverage(
  sql: Sql,
  assessmentId: string,
  changes: readonly MarkChange[] = [],
): Promise<void> {
  await sql(
    `WITH s AS (SELECT avg(marks) AS average, count(marks)::int AS n FROM "Mark"
                WHERE "assessmentId" = $1 AND marks IS NOT NULL AND absent IS NOT TRUE),
          c AS (SELECT a.status = 'published' AS published, coalesce(a."shownCount", 0) < $4 AS "takenOverTooFew",
                  coalesce(a."changedSinceShown", '[]'::jsonb) AS kept
                FROM "Assessment" a WHERE a."objectId" = $1),
          -- Each student's mark when the average was taken: the kept one, else the one before this
          -- save. A bare id (kept before marks were) has none known: NULL, never counted, kept
          -- until the average is next taken, so that its later saves cannot stand in for it.
          was AS (SELECT DISTINCT ON (student) student, original FROM (
                    SELECT 0 AS turn,
                      CASE WHEN jsonb_typeof(e) = 'string' THEN e #>> '{}' ELSE e ->> 's' END AS student,
                      e ->> 'o' AS original
                    FROM c, jsonb_array_elements(c.kept) e
                    UNION ALL
                    SELECT 1, n.student, n.original FROM unnest($2::text[], $3::text[]) AS n(student, original)
                  ) e ORDER BY student, turn),
          differ AS (SELECT was.student, was.original FROM was
                     LEFT JOIN "Mark" m ON m."assessmentId" = $1 AND m."studentId" = was.student
                     WHERE ${markToken('m')} <> was.original),
          kept AS (SELECT student, original FROM differ
                   UNION ALL SELECT student, original FROM was WHERE original IS NULL),
          v AS (SELECT published, published AND ("takenOverTooFew" OR (SELECT count(*) FROM differ) >= $4) AS retake,
                  (SELECT coalesce(jsonb_agg(jsonb_build_object('s', student, 'o', original) ORDER BY student), '[]'::jsonb)
                   FROM kept) AS changed
                FROM c)
     UPDATE "Assessment" a SET average = s.average, "markedCount" = s.n, "updatedAt" = now(),
       "shownAverage" = CASE WHEN v.retake THEN s.average ELSE a."shownAverage" END,
       "shownCount" = CASE WHEN v.retake THEN s.n ELSE a."shownCount" END,
       "changedSinceShown" = CASE WHEN v.retake OR NOT v.published THEN '[]'::jsonb ELSE v.changed END
     FROM s, v
     WHERE a."objectId" = $1`,
    [assessmentId, changes.map((c) => c.studentId), changes.map((c) => c.before), AVERAGE_MIN_STUDENTS],
  );
}

export interface MarkWrite {
  studentId: string;
  /** The student's enrollment number, for the activity log. */
  enrollmentId?: number;
  value: MarkValue;
}

/**
 * Writes marks in two statements whatever their number: an upsert of the given
 * values (unique per assessment and student) and a delete of the cleared ones;
 * then the average, told whose marks changed and from what. Run it in a transaction:
 * all of it or none.
 */
export async function writeMarks(sql: Sql, assessmentId: string, writes: readonly MarkWrite[]): Promise<void> {
  const set = writes.filter((w) => w.value !== null);
  const cleared = writes.filter((w) => w.value === null).map((w) => w.studentId);
  const changes: MarkChange[] = [];
  if (set.length) {
    // The statement's own snapshot reads each mark before the upsert writes it.
    const written = await sql<MarkChange>(
      `WITH was AS (SELECT "studentId", ${markToken('b')} AS before FROM "Mark" b
                    WHERE b."assessmentId" = $1 AND b."studentId" = ANY($2::text[])),
            written AS (
              INSERT INTO "Mark" ("objectId", "assessmentId", "studentId", marks, absent, "createdAt", "updatedAt", "_rperm", "_wperm")
              SELECT md5(random()::text || clock_timestamp()::text || s), $1, s, m, ab, now(), now(), '{}', '{}'
              FROM unnest($2::text[], $3::float8[], $4::bool[]) AS t(s, m, ab)
              ON CONFLICT ("assessmentId", "studentId")
              DO UPDATE SET marks = EXCLUDED.marks, absent = EXCLUDED.absent, "updatedAt" = now()
              WHERE ("Mark".marks, "Mark".absent) IS DISTINCT FROM (EXCLUDED.marks, EXCLUDED.absent)
              RETURNING "studentId")
       SELECT written."studentId", coalesce(was.before, '-') AS before FROM written LEFT JOIN was USING ("studentId")`,
      [assessmentId, set.map((w) => w.studentId), set.map((w) => w.value!.marks), set.map((w) => w.value!.absent)],
    );
    changes.push(...written);
  }
  if (cleared.length) {
    const deleted = await sql<MarkChange>(
      `DELETE FROM "Mark" WHERE "assessmentId" = $1 AND "studentId" = ANY($2::text[])
       RETURNING "studentId", ${markToken('"Mark"')} AS before`,
      [assessmentId, cleared],
    );
    changes.push(...deleted);
  }
  if (changes.length) await refreshAverage(sql, assessmentId, changes);
}

/** The key that makes one publication mail per assessment and student, however often it is queued. */
export function publicationMailKey(assessmentId: string, studentId: string): string {
  return `marks-published:${assessmentId}:${studentId}`;
}

/**
 * The mail "New marks in Mathematics: Unit Test 3, 18 / 20" of every student with
 * marks on a published assessment, or of `onlyStudents` among them, as it reads
 * now. Absent, erased and deactivated students get none.
 */
async function publicationMails(
  deps: CloudDeps,
  tx: Transaction,
  assessmentId: string,
  onlyStudents?: readonly string[],
): Promise<MailJob[]> {
  const students = await tx.sql<{
    objectId: string;
    email: string;
    fullname: string;
    marks: number;
    subject: string;
    title: string;
    maxMarks: number;
  }>(
    `SELECT u."objectId", u.email, u.fullname, m.marks, a.subject, a.title, a."maxMarks"
     FROM "Mark" m JOIN "_User" u ON u."objectId" = m."studentId" JOIN "Assessment" a ON a."objectId" = m."assessmentId"
     WHERE m."assessmentId" = $1 AND a.status = 'published' AND m.marks IS NOT NULL AND m.absent IS NOT TRUE
       AND u.email IS NOT NULL AND u.status IS DISTINCT FROM 'deactivated'
       AND ($2::text[] IS NULL OR m."studentId" = ANY($2::text[]))`,
    [assessmentId, onlyStudents ?? null],
  );
  const progressUrl = `${deps.publicUrl}${Route.progress}`;
  return students.map((student) => ({
    message: {
      to: student.email,
      ...marksPublishedEmail(
        student.fullname,
        { subject: student.subject, title: student.title, maxMarks: Number(student.maxMarks), marks: student.marks },
        progressUrl,
      ),
    },
    idempotencyKey: publicationMailKey(assessmentId, student.objectId),
    // A student erased while these are queued or sent (the erasure cannot see them before
    // this transaction commits) gets none: the queue checks the account before each send.
    accountId: student.objectId,
  }));
}

/**
 * Queues the publication mail of every student with marks on a published
 * assessment, or of `onlyStudents` among them: one per student and assessment,
 * ever (a key already queued is dropped). Gives the number of mails it asked for.
 */
export async function queuePublicationMails(
  deps: CloudDeps,
  tx: Transaction,
  assessmentId: string,
  onlyStudents?: readonly string[],
): Promise<number> {
  const jobs = await publicationMails(deps, tx, assessmentId, onlyStudents);
  await tx.enqueueMails(jobs);
  return jobs.length;
}

/**
 * A correction after publishing sends nothing, but a publication mail not sent yet
 * (the mail server slow or down) must not tell the old mark: it gets the text as it
 * reads now, or, for a student of `students` with no mark any more (absent, cleared),
 * is not sent. Without `students`, every mail of the assessment (its title, subject
 * or maximum changed).
 */
export async function revisePublicationMails(
  deps: CloudDeps,
  tx: Transaction,
  assessmentId: string,
  students?: readonly string[],
): Promise<void> {
  const jobs = await publicationMails(deps, tx, assessmentId, students);
  const withMail = new Set(jobs.map((job) => job.idempotencyKey));
  const withdrawn = (students ?? [])
    .map((studentId) => publicationMailKey(assessmentId, studentId))
    .filter((key) => !withMail.has(key))
    .map((idempotencyKey) => ({ idempotencyKey, message: null }));
  await tx.reviseQueuedMails([
    ...jobs.map(({ idempotencyKey, message }) => ({ idempotencyKey, message })),
    ...withdrawn,
  ]);
}

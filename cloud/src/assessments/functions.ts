// Assessments (admins): list, create, edit and delete drafts, correct published
// ones, publish. Publishing stores the batch average and queues one mail per
// student with marks; a correction after publishing updates the average and
// sends nothing (a student's first marks after it bring their mail: marks.ts).

import {
  ASSESSMENT_FIELDS,
  AssessmentMessage,
  otherFieldProblem,
  validateAssessment,
  type AssessmentInput,
  type AssessmentStatus,
} from '@tc/domain/assessments';
import { boardsListedFor } from '@tc/domain/timetable';
import { parseBoardOrAll } from '@tc/domain/registration';
import { beginActivity, changesBetween, NEW_TARGET, recordActivity, settleActivity } from '../activity/log.ts';
import { ErrorCode } from '@tc/domain/errors';
import type { CloudDeps, Sql } from '../deps.ts';
import { defineFunction, fail, integerParam, validationFailed, type Params } from '../errors.ts';
import { MASTER, parse } from '../parse.ts';
import { requireAdmin } from '../users/accounts.ts';
import {
  getAssessment,
  queuePublicationMails,
  refreshAverage,
  revisePublicationMails,
  toAssessmentRecord,
} from './store.ts';
import { removedMarks } from './marks.ts';

function inputOf(params: Params): AssessmentInput {
  return Object.fromEntries(ASSESSMENT_FIELDS.map((field) => [field, params[field]]));
}

export function defineAssessmentFunctions(deps: CloudDeps): void {
  const Parse = parse();

  defineFunction(deps, 'listAssessments', async (request) => {
    await requireAdmin(request, deps);
    const { params } = request;
    const skip = integerParam(params.skip, 0, 0, 1_000_000, 'skip', 'skip');
    const limit = integerParam(params.limit, 50, 1, 500, 'limit', 'limit');
    // A condition on every row: Parse counts a class without any condition from
    // PostgreSQL's estimate (pg_class.reltuples), which is 0 until the table is analysed.
    const query = new Parse.Query('Assessment').exists('status');
    if (params.grade !== undefined && params.grade !== '') {
      query.equalTo('grade', integerParam(params.grade, 0, 1, 9, 'grade', 'grade'));
    }
    if (params.board !== undefined && params.board !== '') {
      const board = parseBoardOrAll(params.board);
      if (!board) validationFailed(AssessmentMessage.boardInvalid, 'board');
      // A board's batches also sit the assessments set for all boards, as their timetable
      // holds the classes for all boards.
      query.containedIn('board', boardsListedFor(board));
    }
    if (params.status !== undefined && params.status !== '') {
      if (params.status !== 'draft' && params.status !== 'published') {
        validationFailed(AssessmentMessage.statusInvalid, 'status');
      }
      query.equalTo('status', params.status);
    }
    const total = await query.count(MASTER);
    const found = await query.descending('date').addDescending('createdAt').skip(skip).limit(limit).find(MASTER);
    return { items: found.map(toAssessmentRecord), total };
  });

  defineFunction(deps, 'getAssessment', async (request) => {
    await requireAdmin(request, deps);
    return toAssessmentRecord(await getAssessment(request.params.objectId));
  });

  defineFunction(deps, 'createAssessment', async (request) => {
    const admin = await requireAdmin(request, deps);
    const other = otherFieldProblem(request.params);
    if (other) validationFailed(other.message, other.field);
    const result = validateAssessment(inputOf(request.params));
    if (!result.ok) validationFailed(result.message, result.field);
    const assessment = new Parse.Object('Assessment');
    assessment.set({ ...result.value, status: 'draft', markedCount: 0 });
    await recordActivity(
      {
        admin,
        kind: 'assessment.create',
        targetClass: 'Assessment',
        targetId: NEW_TARGET,
        changes: changesBetween({}, { ...result.value }, ASSESSMENT_FIELDS),
      },
      () => assessment.save(null, MASTER),
      (saved) => saved.id!,
    );
    return toAssessmentRecord(assessment);
  });

  defineFunction(deps, 'updateAssessment', async (request) => {
    const admin = await requireAdmin(request, deps);
    const assessment = await getAssessment(request.params.objectId);
    const other = otherFieldProblem(request.params, { status: assessment.get('status') as AssessmentStatus });
    if (other) validationFailed(other.message, other.field);
    const result = validateAssessment({ ...assessment.attributes, ...dropUndefined(inputOf(request.params)) });
    if (!result.ok) validationFailed(result.message, result.field);
    const next = result.value;
    // Marks already given stay right: the maximum cannot fall below them, and
    // they belong to the students of this batch. Checked first for the message,
    // then again under the row's lock with the change (a save of marks takes the
    // same lock), so that no mark saved meanwhile ends above the maximum.
    const checkMarks = async (sql: Sql) => {
      const [highest] = await sql<{ max: number | null; n: number }>(
        `SELECT max(marks) AS max, count(*)::int AS n FROM "Mark" WHERE "assessmentId" = $1`,
        [assessment.id],
      );
      if (highest && highest.max !== null && next.maxMarks < highest.max) {
        validationFailed(AssessmentMessage.maxMarksBelowMarks, 'maxMarks');
      }
      const moves = next.grade !== assessment.get('grade') || next.board !== assessment.get('board');
      if (highest && highest.n > 0 && moves) {
        validationFailed(
          AssessmentMessage.batchFixedOnceMarked,
          next.grade !== assessment.get('grade') ? 'grade' : 'board',
        );
      }
    };
    await checkMarks(deps.sql);
    const changes = changesBetween(assessment.attributes, { ...next }, ASSESSMENT_FIELDS);
    // Nothing changed: nothing to save or to log.
    if (!changes.length) return toAssessmentRecord(assessment);
    await recordActivity(
      {
        admin,
        kind: 'assessment.update',
        targetClass: 'Assessment',
        targetId: assessment.id!,
        changes,
      },
      () =>
        deps.transaction(async (tx) => {
          const [locked] = await tx.sql<Record<(typeof ASSESSMENT_FIELDS)[number] | 'status', unknown>>(
            `SELECT status, ${ASSESSMENT_FIELDS.map((field) => `"${field}"`).join(', ')} FROM "Assessment" WHERE "objectId" = $1 FOR UPDATE`,
            [assessment.id],
          );
          if (!locked) fail(ErrorCode.NotFound, AssessmentMessage.notFound);
          // The change was made on the assessment as read before the lock: another admin's
          // save since then would be undone by it (a grade moved back under marks given meanwhile).
          if (ASSESSMENT_FIELDS.some((field) => locked[field] !== assessment.get(field))) {
            validationFailed(AssessmentMessage.changedMeanwhile);
          }
          await checkMarks(tx.sql);
          await tx.sql(
            `UPDATE "Assessment" SET grade = $2, board = $3, subject = $4, title = $5, date = $6, "maxMarks" = $7,
               "updatedAt" = now() WHERE "objectId" = $1`,
            [assessment.id, next.grade, next.board, next.subject, next.title, next.date, next.maxMarks],
          );
          // Its publication mails not sent yet tell the subject, title and maximum as they are now.
          if (locked.status === 'published') await revisePublicationMails(deps, tx, assessment.id!);
        }),
    );
    await assessment.fetch(MASTER);
    return toAssessmentRecord(assessment);
  });

  defineFunction(deps, 'deleteAssessment', async (request) => {
    const admin = await requireAdmin(request, deps);
    const assessment = await getAssessment(request.params.objectId);
    let entry: Awaited<ReturnType<typeof beginActivity>> | undefined;
    try {
      await deps.transaction(async (tx) => {
        // Under the assessment's lock, as its marks' saves and its publication: none slips
        // between the checks and the deletion. A refusal leaves the log's entry `failed`.
        const [locked] = await tx.sql<Record<(typeof ASSESSMENT_FIELDS)[number] | 'status', unknown>>(
          `SELECT status, grade, board, subject, title, date, "maxMarks" FROM "Assessment"
           WHERE "objectId" = $1 FOR UPDATE`,
          [assessment.id],
        );
        if (!locked) fail(ErrorCode.NotFound, AssessmentMessage.notFound);
        // Edited meanwhile, it is not deleted: the entry would name values it no longer had.
        const unchanged = !changesBetween(assessment.attributes, locked, ASSESSMENT_FIELDS).length;
        const deletable = locked.status === 'draft' && unchanged;
        entry = await beginActivity({
          admin,
          kind: 'assessment.delete',
          targetClass: 'Assessment',
          targetId: assessment.id!,
          // Each student's marks go with the draft: their lines tell the students' History.
          changes: [
            ...changesBetween(assessment.attributes, {}, ASSESSMENT_FIELDS),
            ...(deletable ? await removedMarks(tx.sql, assessment.id!) : []),
          ],
        });
        if (locked.status !== 'draft') validationFailed(AssessmentMessage.publishedCannotBeDeleted);
        if (!unchanged) validationFailed(AssessmentMessage.changedMeanwhile);
        await tx.sql(`DELETE FROM "Mark" WHERE "assessmentId" = $1`, [assessment.id]);
        await tx.sql(`DELETE FROM "Assessment" WHERE "objectId" = $1`, [assessment.id]);
      });
    } catch (error) {
      if (entry) await settleActivity(entry, 'failed');
      throw error;
    }
    await settleActivity(entry!, 'applied');
    return { success: true };
  });

  defineFunction(deps, 'publishAssessment', async (request) => {
    const admin = await requireAdmin(request, deps);
    const assessment = await getAssessment(request.params.objectId);
    const id = assessment.id!;
    // One transaction: the assessment is published with its average and its mails
    // queued, or none of it (publishing can then be tried again). Only one of two
    // simultaneous publications gets the row: the mails go out once.
    const mailsQueued = await recordActivity(
      {
        admin,
        kind: 'assessment.publish',
        targetClass: 'Assessment',
        targetId: id,
        changes: [{ field: 'status', before: String(assessment.get('status') ?? ''), after: 'published' }],
      },
      () =>
        deps.transaction(async (tx) => {
          const claimed = await tx.sql(
            `UPDATE "Assessment" SET status = 'published', "publishedAt" = now(), "updatedAt" = now()
             WHERE "objectId" = $1 AND status = 'draft' RETURNING "objectId"`,
            [id],
          );
          if (!claimed.length) {
            // Another admin's publication won, or their delete of the draft did.
            const [still] = await tx.sql(`SELECT 1 FROM "Assessment" WHERE "objectId" = $1`, [id]);
            if (!still) fail(ErrorCode.NotFound, AssessmentMessage.notFound);
            validationFailed(AssessmentMessage.alreadyPublished);
          }
          await refreshAverage(tx.sql, id);
          return queuePublicationMails(deps, tx, id);
        }),
    );
    await assessment.fetch(MASTER);
    return { ...toAssessmentRecord(assessment), mailsQueued };
  });
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

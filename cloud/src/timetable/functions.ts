// The study schedule: admins manage each batch's weekly timetable and the
// centre's holidays; a student reads the week and next class of their own batch
// (grade and board as stored now, so a change of batch shows at once), and
// manages the private calendar feed address.

import { signalChange, timetableKeys } from '../live/signals.ts';
import { BOARDS_OR_ALL, type BoardOrAll } from '@tc/domain/constants';
import { HOLIDAYS_SIGNAL } from '@tc/domain/live';
import { ErrorCode } from '@tc/domain/errors';
import { TimetableMessage } from '@tc/domain/timetable-messages';
import { parseBoard, parseGrade, parseBoardOrAll } from '@tc/domain/registration';
import { followingClass, NEXT_CLASS_HORIZON_DAYS, nextClass, weekSchedule } from '@tc/domain/schedule';
import {
  boardsListedFor,
  clashMessage,
  findClash,
  HOLIDAY_FIELDS,
  SLOT_FIELDS,
  validateHoliday,
  validateSlot,
  type SlotFields,
} from '@tc/domain/timetable';
import { addDays, weekStartOf, zonedParts } from '@tc/domain/zoned-time';
import { isQueryDate } from '@tc/domain/dates';
import { unknownFieldProblem } from '@tc/domain/field-problems';
import { changesBetween, NEW_TARGET, recordActivity } from '../activity/log.ts';
import type { CloudDeps } from '../deps.ts';
import { defineFunction, fail, validationFailed, type Params } from '../errors.ts';
import { MASTER, parse, unlessMissing } from '../parse.ts';
import { requireAdmin, requireStudent, requireStudentAndReads } from '../users/accounts.ts';
import { feedAddress, newFeedToken, ownFeedToken } from './calendar-feed.ts';
import {
  datedSlot,
  findClashCandidates,
  findHolidays,
  findSlots,
  getSlotObject,
  HOLIDAY_CLASS,
  holidayFromJson,
  holidayListedAlready,
  serialisedForGrades,
  serialisedForHolidays,
  SLOT_CLASS,
  slotFromJson,
  slotRecord,
  WEEK_READS,
} from './store.ts';

/** The id in the path; one that no object could have is no object's: `gone`, a 404, as for any other unknown id. */
function objectIdOf(params: Params, gone: string): string {
  const { objectId } = params;
  if (typeof objectId !== 'string' || !/^\w{1,40}$/.test(objectId)) fail(ErrorCode.NotFound, gone);
  return objectId;
}

/** A save or delete of an object another admin deleted meanwhile: `gone`, not Parse's "Object not found.". */
async function unlessGone<T>(change: Promise<T>, gone: string): Promise<T> {
  const done = await unlessMissing(change);
  if (done === undefined) fail(ErrorCode.NotFound, gone);
  return done;
}

async function checkNoClash(slot: SlotFields & { objectId?: string }): Promise<void> {
  const clash = findClash(slot, await findClashCandidates(slot));
  if (clash) validationFailed(clashMessage(clash), 'start');
}

/** What the activity log records of a slot and of a holiday (every change an admin makes is logged). */
const slotTarget = (targetId: string) => ({ targetClass: SLOT_CLASS, targetId });

/** The slot as stored, under its grade's lock: refused if another admin's save changed it since it was read as `read`. */
async function unchangedSince(objectId: string, read: SlotFields) {
  const fresh = await getSlotObject(objectId);
  if (!fresh) fail(ErrorCode.NotFound, TimetableMessage.slotNotFound);
  const stored = slotFromJson({ ...fresh.toJSON(), objectId }) as unknown as Record<string, unknown>;
  const readAs = read as unknown as Record<string, unknown>;
  if (SLOT_FIELDS.some((field) => stored[field] !== readAs[field]))
    validationFailed(TimetableMessage.slotChangedMeanwhile);
  return fresh;
}

export function defineTimetableFunctions(deps: CloudDeps): void {
  const Parse = parse();

  defineFunction(deps, 'listTimetableSlots', async (request) => {
    await requireAdmin(request, deps);
    const grade = parseGrade(request.params.grade);
    if (grade === null) validationFailed(TimetableMessage.gradeRequired, 'grade');
    const { board: boardParam } = request.params;
    let boards: BoardOrAll[] = [...BOARDS_OR_ALL];
    if (boardParam !== undefined && boardParam !== null && boardParam !== '') {
      // A board: its slots and those for all boards (its batch's week). All: those alone.
      const board = parseBoardOrAll(boardParam);
      if (!board) validationFailed(TimetableMessage.boardInvalid, 'board');
      boards = boardsListedFor(board);
    }
    return (await findSlots(deps.sql, grade, boards, deps.centreTimeZone)).map(slotRecord);
  });

  defineFunction(deps, 'createTimetableSlot', async (request) => {
    const admin = await requireAdmin(request, deps);
    const unknown = unknownFieldProblem(request.params, SLOT_FIELDS);
    if (unknown) validationFailed(unknown);
    const result = validateSlot(request.params);
    if (!result.ok) validationFailed(result.message, result.field);
    const slot = result.value;
    return serialisedForGrades(deps, [slot.grade], async () => {
      await checkNoClash(slot);
      const saved = await recordActivity(
        {
          admin,
          kind: 'timetable.create',
          ...slotTarget(NEW_TARGET),
          changes: changesBetween({}, { ...slot }, SLOT_FIELDS),
        },
        () => new Parse.Object(SLOT_CLASS).save(slot, MASTER),
        (saved) => saved.id!,
      );
      await signalChange(...timetableKeys(slot.grade, slot.board));
      return slotRecord({ ...slot, objectId: saved.id! });
    });
  });

  defineFunction(deps, 'updateTimetableSlot', async (request) => {
    const admin = await requireAdmin(request, deps);
    const objectId = objectIdOf(request.params, TimetableMessage.slotNotFound);
    const existing = await getSlotObject(objectId);
    if (!existing) fail(ErrorCode.NotFound, TimetableMessage.slotNotFound);
    // A slot sent back as listed is taken: its end is worked out, and ignored.
    const unknown = unknownFieldProblem(request.params, [...SLOT_FIELDS, 'objectId', 'end']);
    if (unknown) validationFailed(unknown);
    const { objectId: _ignored, end: _worked, ...changes } = request.params;
    const current = slotFromJson({ ...existing.toJSON(), objectId });
    const result = validateSlot({ ...current, ...changes });
    if (!result.ok) validationFailed(result.message, result.field);
    const slot = result.value;
    // Both grades are locked when a slot moves from one grade to another.
    const work = async () => {
      // The change was made on the slot as read before the locks: another admin's save
      // since then (a move to another grade, a new time) would be undone by it.
      const fresh = await unchangedSince(objectId, current);
      const changes = changesBetween({ ...current }, { ...slot }, SLOT_FIELDS);
      // Nothing changed: nothing to save, to log or to signal.
      if (!changes.length) return slotRecord({ ...slot, objectId });
      await checkNoClash({ ...slot, objectId });
      await recordActivity(
        {
          admin,
          kind: 'timetable.update',
          ...slotTarget(objectId),
          changes,
        },
        async () => {
          fresh.set(slot);
          await unlessGone(fresh.save(null, MASTER), TimetableMessage.slotNotFound);
        },
      );
      await signalChange(...timetableKeys(current.grade, current.board), ...timetableKeys(slot.grade, slot.board));
      return slotRecord({ ...slot, objectId });
    };
    return serialisedForGrades(deps, [current.grade, slot.grade], work);
  });

  defineFunction(deps, 'deleteTimetableSlot', async (request) => {
    const admin = await requireAdmin(request, deps);
    const objectId = objectIdOf(request.params, TimetableMessage.slotNotFound);
    const existing = await getSlotObject(objectId);
    if (!existing) fail(ErrorCode.NotFound, TimetableMessage.slotNotFound);
    const current = slotFromJson({ ...existing.toJSON(), objectId });
    // Under its grade's lock, as its changes: a move or a new time saved since the read would
    // be deleted unseen, and logged and signalled as it no longer was.
    await serialisedForGrades(deps, [current.grade], async () => {
      await unchangedSince(objectId, current);
      await recordActivity(
        {
          admin,
          kind: 'timetable.delete',
          ...slotTarget(objectId),
          changes: changesBetween({ ...current }, {}, SLOT_FIELDS),
        },
        () => unlessGone(existing.destroy(MASTER), TimetableMessage.slotNotFound),
      );
    });
    await signalChange(...timetableKeys(current.grade, current.board));
    return { success: true };
  });

  defineFunction(deps, 'listHolidays', async (request) => {
    await requireAdmin(request, deps);
    return findHolidays(deps.sql);
  });

  defineFunction(deps, 'createHoliday', async (request) => {
    const admin = await requireAdmin(request, deps);
    const unknown = unknownFieldProblem(request.params, HOLIDAY_FIELDS);
    if (unknown) validationFailed(unknown);
    const result = validateHoliday(request.params);
    if (!result.ok) validationFailed(result.message, result.field);
    const holiday = result.value;
    // An exact copy (a double submit, or two admins entering the same day) would be named
    // twice in every student's week: refused, one save at a time.
    const saved = await serialisedForHolidays(deps, async () => {
      if (await holidayListedAlready(deps.sql, holiday)) validationFailed(TimetableMessage.holidayDuplicate, 'title');
      return recordActivity(
        {
          admin,
          kind: 'holiday.create',
          targetClass: HOLIDAY_CLASS,
          targetId: NEW_TARGET,
          changes: changesBetween({}, { ...holiday }, HOLIDAY_FIELDS),
        },
        () => new Parse.Object(HOLIDAY_CLASS).save(holiday, MASTER),
        (saved) => saved.id!,
      );
    });
    await signalChange(HOLIDAYS_SIGNAL);
    return { objectId: saved.id!, ...holiday };
  });

  defineFunction(deps, 'deleteHoliday', async (request) => {
    const admin = await requireAdmin(request, deps);
    const existing = await unlessMissing(
      new Parse.Query(HOLIDAY_CLASS).get(objectIdOf(request.params, TimetableMessage.holidayNotFound), MASTER),
    );
    if (!existing) fail(ErrorCode.NotFound, TimetableMessage.holidayNotFound);
    await recordActivity(
      {
        admin,
        kind: 'holiday.delete',
        targetClass: HOLIDAY_CLASS,
        targetId: existing.id!,
        changes: changesBetween(existing.attributes, {}, HOLIDAY_FIELDS),
      },
      () => unlessGone(existing.destroy(MASTER), TimetableMessage.holidayNotFound),
    );
    await signalChange(HOLIDAYS_SIGNAL);
    return { success: true };
  });

  defineFunction(deps, 'getMySchedule', async (request) => {
    const zone = deps.centreTimeZone;
    const { week } = request.params;
    if (week !== undefined && week !== null && week !== '' && !isQueryDate(week)) {
      // Who may ask comes first: a bad week from anyone but a student is their 401 or 403.
      await requireStudent(request, deps);
      validationFailed(TimetableMessage.weekInvalid, 'week');
    }
    const now = new Date();
    const today = zonedParts(now, zone).date;
    const weekStart = weekStartOf(typeof week === 'string' && week ? week : today);
    const weekEnd = addDays(weekStart, 6);
    const horizon = addDays(today, NEXT_CLASS_HORIZON_DAYS);

    // The batch as stored now (the session's copy of the account may predate an admin's change):
    // its classes and the holidays read with the session, in one statement.
    const {
      account: batch,
      rows: [slotRows, holidayRows],
    } = await requireStudentAndReads(request, deps, 'week', WEEK_READS, [
      weekStart < today ? weekStart : today,
      weekEnd > horizon ? weekEnd : horizon,
    ]);
    const slots = (slotRows as Record<string, unknown>[]).map((row) => datedSlot(row, zone));
    const holidays = (holidayRows as Record<string, unknown>[]).map(holidayFromJson);
    const grade = batch.grade ?? 0;
    const board = parseBoard(batch.board) ?? 'CBSE';
    const next = nextClass(now, today, slots, holidays, zone, NEXT_CLASS_HORIZON_DAYS);
    const following = next && followingClass(next, slots, holidays, zone);
    return {
      timeZone: zone,
      today,
      weekStart,
      grade,
      board,
      hasTimetable: slots.length > 0,
      ...(next ? { next } : {}),
      ...(following ? { following } : {}),
      days: weekSchedule(weekStart, slots, holidays, zone),
    };
  });

  defineFunction(deps, 'getMyCalendarFeed', async (request) => {
    const student = await requireStudent(request, deps);
    return feedAddress(deps, await ownFeedToken(deps, student.id!));
  });

  defineFunction(deps, 'resetMyCalendarFeed', async (request) => {
    const student = await requireStudent(request, deps);
    return feedAddress(deps, await newFeedToken(deps, student.id!));
  });
}

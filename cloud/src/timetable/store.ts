// Reading and writing timetable slots and holidays as plain records, with the
// master key (their classes are closed to every client).

import {
  clashingBoards,
  endOf,
  type Holiday,
  type HolidayFields,
  type Slot,
  SLOT_FIELDS,
  type SlotFields,
} from '@tc/domain/timetable';
import { LIST_MAX_LIMIT, ALL_BOARDS, type BoardOrAll } from '@tc/domain/constants';
import type { DatedSlot } from '@tc/domain/schedule';
import { Remembered } from '@tc/domain/remembered';
import { zonedParts } from '@tc/domain/zoned-time';
import type { CloudDeps } from '../deps.ts';
import { MASTER, parse, unlessMissing, type ParseSdk } from '../parse.ts';

export const SLOT_CLASS = 'TimetableSlot';
export const HOLIDAY_CLASS = 'Holiday';

type Json = Record<string, unknown>;

export function slotFromJson(json: Json): Slot {
  return {
    objectId: json.objectId as string,
    grade: json.grade as Slot['grade'],
    board: json.board as BoardOrAll,
    subject: json.subject as Slot['subject'],
    weekday: json.weekday as number,
    start: json.start as string,
    duration: json.duration as number,
    teacher: json.teacher as string,
    link: (json.link as string | undefined) ?? '',
  };
}

/** A slot on the wire: its fields (nothing else a read gave it) and its end time. */
export function slotRecord(slot: Slot): Slot & { end: string } {
  return { ...slotFromJson({ ...slot }), end: endOf(slot) };
}

export function holidayFromJson(json: Json): Holiday {
  return {
    objectId: json.objectId as string,
    title: json.title as string,
    from: json.from as string,
    to: json.to as string,
  };
}

/**
 * The slots of a grade whose board is one of `boards`, earliest in the week first, each
 * with the date it was added in the centre's `zone` (a student's week and the calendar
 * feed show no class before it). Read in SQL, not through Parse: a student's week
 * schedule reads these on every load, and Parse's query path cost more than the read itself.
 */
export async function findSlots(
  sql: CloudDeps['sql'],
  grade: number,
  boards: readonly BoardOrAll[],
  zone: string,
): Promise<Required<DatedSlot>[]> {
  const rows = await sql<Json>(
    `${SLOT_COLUMNS} WHERE grade = $1 AND board = ANY($2) ORDER BY ${SLOT_ORDER} LIMIT 1000`,
    [grade, [...boards]],
  );
  return rows.map((row) => datedSlot(row, zone));
}

/** A slot's columns as findSlots reads them (a student's week reads the same with its session). */
const SLOT_COLUMNS = `SELECT "objectId", ${SLOT_FIELDS.map((field) => `"${field}"`).join(', ')}, "createdAt" FROM "${SLOT_CLASS}"`;
const SLOT_ORDER = 'weekday, start';
/** A holiday's columns as findHolidays reads them. */
const HOLIDAY_COLUMNS = `SELECT "objectId", title, "from", "to" FROM "${HOLIDAY_CLASS}"`;

/** A slot as read, with the centre-zone date it was added on (`createdAt` a Date, or JSON's string). */
export function datedSlot(row: Json, zone: string): Required<DatedSlot> {
  return { ...slotFromJson(row), since: dateAddedIn(new Date(row.createdAt as Date | string), zone) };
}

/**
 * A student's week, read with their session in one statement (sessions.ts checkSessionAndReads):
 * the slots of their batch as stored now (`u.`), and the holidays from `$4` to `$5`. As findSlots
 * and findHolidays read them.
 */
export const WEEK_READS = [
  {
    select: `${SLOT_COLUMNS} WHERE grade = u.grade AND board = ANY(ARRAY[u.board, '${ALL_BOARDS}']) LIMIT 1000`,
    orderBy: SLOT_ORDER,
  },
  {
    select: `${HOLIDAY_COLUMNS} WHERE "to" >= $4::text AND "from" <= $5::text LIMIT 1000`,
    orderBy: '"from"',
  },
] as const;

/**
 * The centre-zone dates slots were added on, remembered: every week read asks for the same
 * few again, and each costs an Intl call (about 20 µs). Dates of deleted slots stay until
 * the cap forgets them all.
 */
const addedOn = new Remembered<string>(10_000);

function dateAddedIn(createdAt: Date, zone: string): string {
  return addedOn.get(`${zone} ${createdAt.getTime()}`, () => zonedParts(createdAt, zone).date);
}

/** The slots a new or changed slot may clash with: same grade and weekday, a board in common. */
export async function findClashCandidates(slot: SlotFields): Promise<Slot[]> {
  const Parse = parse();
  const found = (await new Parse.Query(SLOT_CLASS)
    .equalTo('grade', slot.grade)
    .equalTo('weekday', slot.weekday)
    .containedIn('board', clashingBoards(slot.board))
    .select(...SLOT_FIELDS)
    .limit(LIST_MAX_LIMIT)
    .find({ ...MASTER, json: true })) as unknown as Json[];
  return found.map(slotFromJson);
}

export async function getSlotObject(objectId: string): Promise<InstanceType<ParseSdk['Object']> | undefined> {
  const Parse = parse();
  return unlessMissing(new Parse.Query(SLOT_CLASS).get(objectId, MASTER));
}

/** Holidays that touch the days from `from` to `to` (YYYY-MM-DD), earliest first (in SQL, as findSlots). */
export async function findHolidays(sql: CloudDeps['sql'], from?: string, to?: string): Promise<Holiday[]> {
  const rows = await sql<Json>(
    `${HOLIDAY_COLUMNS} WHERE ($1::text IS NULL OR "to" >= $1) AND ($2::text IS NULL OR "from" <= $2) ORDER BY "from" LIMIT 1000`,
    [from ?? null, to ?? null],
  );
  return rows.map(holidayFromJson);
}

/** An exact copy of a holiday already listed (its title compared without case), if any. */
export async function holidayListedAlready(sql: CloudDeps['sql'], holiday: HolidayFields): Promise<boolean> {
  const rows = await sql(
    `SELECT 1 FROM "${HOLIDAY_CLASS}" WHERE "from" = $1 AND "to" = $2 AND lower(title) = lower($3) LIMIT 1`,
    [holiday.from, holiday.to, holiday.title],
  );
  return rows.length > 0;
}

/** The first keys of the advisory locks (the second is the grade, 0 for the holidays): constants of the site's own. */
const TIMETABLE_LOCK = 7_240_001;
const HOLIDAYS_LOCK = 7_240_002;
/** Timetable and holiday changes of this process, one after the other. */
let inThisProcess: Promise<unknown> = Promise.resolve();

/**
 * Runs a change to the timetables of these grades while no other change to them
 * runs, on any instance of the site, so that two admins adding overlapping slots
 * at the same moment cannot both pass the clash check. A PostgreSQL advisory lock
 * per grade, taken in ascending order (two slots moving between two grades in
 * opposite directions cannot wait on each other for ever) and held until `work`
 * settles. Within one process the changes queue before they take a connection,
 * so that waiting admins do not hold the pool's connections.
 */
export function serialisedForGrades<T>(deps: CloudDeps, grades: readonly number[], work: () => Promise<T>): Promise<T> {
  return serialised(deps, TIMETABLE_LOCK, grades, work);
}

/**
 * Runs a new holiday's save while no other runs, as serialisedForGrades: a double submit
 * saves one. In this process it queues behind timetable changes too (they are few).
 */
export function serialisedForHolidays<T>(deps: CloudDeps, work: () => Promise<T>): Promise<T> {
  return serialised(deps, HOLIDAYS_LOCK, [0], work);
}

function serialised<T>(deps: CloudDeps, first: number, keys: readonly number[], work: () => Promise<T>): Promise<T> {
  const locked = () =>
    deps.transaction(async (tx) => {
      for (const key of [...new Set(keys)].sort((a, b) => a - b)) {
        await tx.sql('SELECT pg_advisory_xact_lock($1::int, $2::int)', [first, key]);
      }
      return work();
    });
  const next = inThisProcess.then(locked, locked);
  inThisProcess = next.catch(() => undefined);
  return next;
}

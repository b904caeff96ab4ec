// Reading and writing timetable slots and holidays as plain records, with the
// master key (their classes are closed to every client).

import { clashingBoards, endOf, type Holiday, type Slot, type SlotBoard, type SlotFields } from '@tc/domain/timetable';
import { MASTER, parse, type ParseSdk } from '../parse.ts';

export const SLOT_CLASS = 'TimetableSlot';
export const HOLIDAY_CLASS = 'Holiday';
const SLOT_FIELDS = ['grade', 'board', 'subject', 'weekday', 'start', 'duration', 'teacher', 'link'] as const;

type Json = Record<string, unknown>;

export function slotFromJson(json: Json): Slot {
  return {
    objectId: json.objectId as string,
    grade: json.grade as Slot['grade'],
    board: json.board as SlotBoard,
    subject: json.subject as Slot['subject'],
    weekday: json.weekday as number,
    start: json.start as string,
    duration: json.duration as number,
    teacher: json.teacher as string,
    link: (json.link as string | undefined) ?? '',
  };
}

/** A slot on the wire: its fields and its end time. */
export function slotRecord(slot: Slot): Slot & { end: string } {
  return { ...slot, end: endOf(slot) };
}

function holidayFromJson(json: Json): Holiday {
  return {
    objectId: json.objectId as string,
    title: json.title as string,
    from: json.from as string,
    to: json.to as string,
  };
}

/** The slots of a grade whose board is one of `boards`, earliest in the week first. */
export async function findSlots(grade: number, boards: readonly SlotBoard[]): Promise<Slot[]> {
  const Parse = parse();
  const found = (await new Parse.Query(SLOT_CLASS)
    .equalTo('grade', grade)
    .containedIn('board', [...boards])
    .select(...SLOT_FIELDS)
    .ascending('weekday')
    .addAscending('start')
    .limit(1000)
    .find({ ...MASTER, json: true })) as unknown as Json[];
  return found.map(slotFromJson);
}

/** The slots a new or changed slot may clash with: same grade and weekday, a board in common. */
export async function findClashCandidates(slot: SlotFields): Promise<Slot[]> {
  const Parse = parse();
  const found = (await new Parse.Query(SLOT_CLASS)
    .equalTo('grade', slot.grade)
    .equalTo('weekday', slot.weekday)
    .containedIn('board', clashingBoards(slot.board))
    .select(...SLOT_FIELDS)
    .limit(1000)
    .find({ ...MASTER, json: true })) as unknown as Json[];
  return found.map(slotFromJson);
}

export async function getSlotObject(objectId: string): Promise<InstanceType<ParseSdk['Object']> | undefined> {
  const Parse = parse();
  return new Parse.Query(SLOT_CLASS).get(objectId, MASTER).catch(() => undefined);
}

/** Holidays that touch the days from `from` to `to` (YYYY-MM-DD), earliest first. */
export async function findHolidays(from?: string, to?: string): Promise<Holiday[]> {
  const Parse = parse();
  const query = new Parse.Query(HOLIDAY_CLASS).select('title', 'from', 'to').ascending('from').limit(1000);
  if (from) query.greaterThanOrEqualTo('to', from);
  if (to) query.lessThanOrEqualTo('from', to);
  const found = (await query.find({ ...MASTER, json: true })) as unknown as Json[];
  return found.map(holidayFromJson);
}

const queues = new Map<number, Promise<unknown>>();

/**
 * Runs the changes of one grade's timetable one after the other, so that two
 * admins adding overlapping slots at the same moment cannot both pass the clash
 * check (within this process; the site runs the timetable screens on one).
 */
export function serialisedForGrade<T>(grade: number, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(grade) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  queues.set(grade, settled);
  void settled.then(() => {
    if (queues.get(grade) === settled) queues.delete(grade);
  });
  return next;
}

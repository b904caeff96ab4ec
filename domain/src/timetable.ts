// The weekly timetable's rules: what a slot and a holiday are, and when two slots
// of one batch clash. The admin's form runs them for instant feedback; the cloud
// code runs them again to enforce them.
//
// A batch is a grade with a board. A slot is for one grade and either one board
// or all boards; a slot for all boards is taught to every board of its grade, so
// it clashes with any slot of that grade.

import { ALL_BOARDS, BOARDS_OR_ALL, GRADES, type BoardOrAll, type Grade } from './constants.ts';
import { isEnteredDate, isoDateToDayNumber } from './dates.ts';
import { ProblemList, type Checked } from './field-problems.ts';
import { wholeNumber } from './whole-number.ts';
import { hasControlCharacters, showsNothing, typedText } from './plain-text.ts';
import { TimetableMessage as M } from './timetable-messages.ts';
import { gradeLabel, parseGrade, parseBoardOrAll } from './registration.ts';

import { SUBJECTS, type Subject } from './subjects.ts';

export { SUBJECTS, type Subject };

/** ISO weekdays: 1 is Monday, 7 is Sunday (the week runs Monday to Sunday). */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const WEEKDAY_NUMBERS = [1, 2, 3, 4, 5, 6, 7] as const;

export const SLOT_MIN_MINUTES = 15;
export const SLOT_MAX_MINUTES = 180;
export const TEACHER_MAX_LENGTH = 60;
export const LINK_MAX_LENGTH = 500;
export const HOLIDAY_TITLE_MAX_LENGTH = 80;
export const HOLIDAY_MAX_DAYS = 120;
/** Join class opens this many minutes before the start (and stays open to the end). */
export const JOIN_EARLY_MINUTES = 10;
export const DEFAULT_CENTRE_TIMEZONE = 'Asia/Kolkata';

export interface SlotFields {
  grade: Grade;
  board: BoardOrAll;
  subject: Subject;
  weekday: number;
  /** HH:mm, 24 h, in the centre's time zone. */
  start: string;
  duration: number;
  teacher: string;
  /** An https:// URL, or '' for none. */
  link: string;
}

export interface Slot extends SlotFields {
  objectId: string;
}

export type SlotField = keyof SlotFields;
/** A slot's fields, as the form and the store list them. */
export const SLOT_FIELDS = [
  'grade',
  'board',
  'subject',
  'weekday',
  'start',
  'duration',
  'teacher',
  'link',
] as const satisfies readonly SlotField[];
export type SlotInput = { [K in SlotField]?: unknown };
export type SlotResult = Checked<SlotFields, SlotField>;

const START_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MINUTES_PER_DAY = 24 * 60;

/** Minutes after midnight of an HH:mm time, or null. */
export function minutesOf(time: string): number | null {
  const match = START_PATTERN.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** HH:mm of minutes after midnight (24:00 for the very end of the day). */
export function timeOf(minutes: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export function endOf(slot: Pick<SlotFields, 'start' | 'duration'>): string {
  return timeOf((minutesOf(slot.start) ?? 0) + slot.duration);
}

/**
 * An https:// address as it was written, not as the URL parser would mend it ("https:/x"
 * and "https:\\x" are typos of a link that then opens somewhere): nothing invisible, no
 * direction mark, line break or tab (which the parser would drop), quote, angle bracket or
 * backslash, and a host name of letters, digits,
 * dots and hyphens (an international one in its xn-- form, as the parser gives it).
 */
export function isHttpsUrl(value: string): boolean {
  // The host as typed, with its port: letters (of any script), digits, dots and hyphens,
  // so no user name before it ("https://@x"), no %-escape and no underscore in it.
  const typed = /^https:\/\/([\p{L}\p{N}.-]+)(?::\d{1,5})?(?:[/?#][^\s\p{C}"<>\\^`{|}]*)?$/iu.exec(value);
  if (!typed) return false;
  try {
    const url = new URL(value);
    const host = typed[1]!.toLowerCase();
    return (
      /^[a-z0-9.-]*[a-z0-9][a-z0-9.-]*$/.test(url.hostname) &&
      // An ASCII host is the one typed: not a number the parser reads as another (0x7f.1).
      (/[^a-z0-9.-]/.test(host) || url.hostname === host)
    );
  } catch {
    return false;
  }
}

/** Checks a slot field by field, in the form's order, and names every field's problem. */
export function validateSlot(input: SlotInput): SlotResult {
  const problems = new ProblemList<SlotField>();

  const grade = parseGrade(input.grade);
  if (grade === null || !(GRADES as readonly number[]).includes(grade)) problems.add('grade', M.gradeRequired);
  const board = parseBoardOrAll(input.board);
  if (!board) problems.add('board', M.boardInvalid);
  const subject = SUBJECTS.find((name) => name === input.subject);
  if (!subject) problems.add('subject', M.subjectInvalid);
  const weekday = wholeNumber(input.weekday);
  if (weekday === null || weekday < 1 || weekday > 7) problems.add('weekday', M.weekdayInvalid);
  const start = typeof input.start === 'string' ? input.start.trim() : '';
  const startMinutes = minutesOf(start);
  if (startMinutes === null) problems.add('start', M.startInvalid);
  const duration = wholeNumber(input.duration);
  if (duration === null || duration < SLOT_MIN_MINUTES || duration > SLOT_MAX_MINUTES) {
    problems.add('duration', M.durationInvalid);
  } else if (startMinutes !== null && startMinutes + duration > MINUTES_PER_DAY) {
    // A class never runs past midnight, so each one belongs to one day of the week.
    problems.add('duration', M.endsAfterMidnight);
  }
  const teacher = typedText(input.teacher);
  if (showsNothing(teacher)) problems.add('teacher', M.teacherRequired);
  else if (hasControlCharacters(teacher)) problems.add('teacher', M.teacherControlCharacters);
  else if ([...teacher].length > TEACHER_MAX_LENGTH) problems.add('teacher', M.teacherTooLong);
  const link = typeof input.link === 'string' ? input.link.trim() : '';
  if (input.link !== undefined && input.link !== null && typeof input.link !== 'string') {
    problems.add('link', M.linkInvalid);
  } else if (link && (link.length > LINK_MAX_LENGTH || !isHttpsUrl(link))) {
    problems.add('link', M.linkInvalid);
  }

  return problems.result(() => ({
    grade: grade!,
    board: board!,
    subject: subject!,
    weekday: weekday!,
    start,
    duration: duration!,
    teacher,
    link,
  }));
}

/** Whether two slots are taught to a common batch: same grade, and a board in common. */
export function sameBatch(a: Pick<SlotFields, 'grade' | 'board'>, b: Pick<SlotFields, 'grade' | 'board'>): boolean {
  return a.grade === b.grade && (a.board === b.board || a.board === ALL_BOARDS || b.board === ALL_BOARDS);
}

/**
 * The boards a listing filtered by `board` shows: a board's batches also have the classes and
 * assessments set for all boards; "All" shows those alone.
 */
export function boardsListedFor(board: BoardOrAll): BoardOrAll[] {
  return board === ALL_BOARDS ? [ALL_BOARDS] : [board, ALL_BOARDS];
}

/** The boards whose slots may clash with a slot of this board. */
export function clashingBoards(board: BoardOrAll): BoardOrAll[] {
  return board === ALL_BOARDS ? [...BOARDS_OR_ALL] : [board, ALL_BOARDS];
}

/** The first other slot of a common batch that overlaps this one in time (touching ends do not overlap). */
export function findClash<S extends Slot>(
  slot: SlotFields & { objectId?: string },
  others: readonly S[],
): S | undefined {
  const from = minutesOf(slot.start)!;
  const to = from + slot.duration;
  return others.find((other) => {
    if (other.objectId === slot.objectId || other.weekday !== slot.weekday || !sameBatch(slot, other)) return false;
    const otherFrom = minutesOf(other.start)!;
    return otherFrom < to && from < otherFrom + other.duration;
  });
}

export function boardLabel(board: string): string {
  return board === ALL_BOARDS ? 'all boards' : board;
}

/** A board as the edit dialogs' Board menu lists it: "All boards", "CBSE". */
export function boardChoiceLabel(board: string): string {
  return board === ALL_BOARDS ? 'All boards' : board;
}

/** "5th CBSE", "4th all boards": how the screens and the Activity page name a batch. */
export function batchLabel(grade: number, board: string): string {
  return `${gradeLabel(grade)} ${boardLabel(board)}`;
}

/** "Mathematics on Monday 18:00-19:00 (CBSE, Mrs Rao)": how a message names a slot. */
export function describeSlot(slot: SlotFields): string {
  return `${slot.subject} on ${WEEKDAYS[slot.weekday - 1]} ${slot.start}-${endOf(slot)} (${boardLabel(slot.board)}, ${slot.teacher})`;
}

export function clashMessage(other: SlotFields): string {
  return M.clash(describeSlot(other));
}

export interface HolidayFields {
  title: string;
  /** First day, YYYY-MM-DD. */
  from: string;
  /** Last day, YYYY-MM-DD (the first day for a one-day holiday). */
  to: string;
}

export interface Holiday extends HolidayFields {
  objectId: string;
}

export type HolidayField = keyof HolidayFields;
export const HOLIDAY_FIELDS = ['title', 'from', 'to'] as const satisfies readonly HolidayField[];
export type HolidayResult = Checked<HolidayFields, HolidayField>;

/** Checks a holiday's title and days, and names every field's problem. */
export function validateHoliday(input: { [K in HolidayField]?: unknown }): HolidayResult {
  const problems = new ProblemList<HolidayField>();
  const title = typedText(input.title);
  if (showsNothing(title)) problems.add('title', M.holidayTitleRequired);
  else if (hasControlCharacters(title)) problems.add('title', M.holidayTitleControlCharacters);
  else if ([...title].length > HOLIDAY_TITLE_MAX_LENGTH) problems.add('title', M.holidayTitleTooLong);
  const from = typeof input.from === 'string' ? input.from.trim() : '';
  const fromDay = isEnteredDate(from) ? isoDateToDayNumber(from) : null;
  if (fromDay === null) problems.add('from', M.holidayFromInvalid);
  // No last day: a one-day holiday.
  const blankTo = input.to === undefined || input.to === null || input.to === '';
  const to = blankTo ? from : typeof input.to === 'string' ? input.to.trim() : '';
  const toDay = isEnteredDate(to) ? isoDateToDayNumber(to) : null;
  // A blank last day with a wrong first day is the first day's problem alone.
  if (toDay === null) {
    if (!blankTo) problems.add('to', M.holidayToInvalid);
  } else if (fromDay !== null) {
    if (toDay < fromDay) problems.add('to', M.holidayToBeforeFrom);
    else if (toDay - fromDay + 1 > HOLIDAY_MAX_DAYS) problems.add('to', M.holidayTooLong);
  }
  return problems.result(() => ({ title, from, to }));
}

/** Whether a holiday covers a day (dates compare as YYYY-MM-DD strings). */
export function isHolidayOn(date: string, holiday: HolidayFields): boolean {
  return holiday.from <= date && date <= holiday.to;
}

/** The first holiday on a day, if any. */
export function holidayOn<H extends HolidayFields>(date: string, holidays: readonly H[]): H | undefined {
  return holidays.find((holiday) => isHolidayOn(date, holiday));
}

// A batch's timetable laid out on real days: the classes of a week, the next
// class, and whether Join class is open. Pure: the cloud code computes what it
// sends with it, the client the join window and the countdown.

import { endOf, holidayOn, isHolidayOn, JOIN_EARLY_MINUTES, type HolidayFields, type Slot } from './timetable.ts';
import type { BoardOrAll } from './constants.ts';
import { addDays, weekdayOf, zonedToInstant } from './zoned-time.ts';

export interface ScheduledClass {
  slotId: string;
  subject: string;
  teacher: string;
  board: BoardOrAll;
  /** '' when the slot has no online-class link. */
  link: string;
  /** YYYY-MM-DD, HH:mm and HH:mm in the centre's time zone. */
  date: string;
  start: string;
  end: string;
  /** ISO instants, for countdowns and the join window. */
  startsAt: string;
  endsAt: string;
}

export interface ScheduleDay {
  date: string;
  weekday: number;
  /** The titles of the day's holidays, comma-separated; '' on an ordinary day. */
  holiday: string;
  classes: ScheduledClass[];
}

/**
 * A slot with `since`, the centre's date it was added, when known. The timetable keeps no
 * history, so a slot has no class before that day: a class added today did not take place
 * last week, nor on this week's days gone by.
 */
export type DatedSlot = Slot & { since?: string };

const byStart = (a: { start: string }, b: { start: string }) => a.start.localeCompare(b.start);

/** The classes of one day (none on a holiday), earliest first. */
export function classesOn(date: string, slots: readonly DatedSlot[], zone: string): ScheduledClass[] {
  const weekday = weekdayOf(date);
  return slots
    .filter((slot) => slot.weekday === weekday && !(slot.since && date < slot.since))
    .sort(byStart)
    .map((slot) => {
      const startsAt = zonedToInstant(date, slot.start, zone);
      return {
        slotId: slot.objectId,
        subject: slot.subject,
        teacher: slot.teacher,
        board: slot.board,
        link: slot.link,
        date,
        start: slot.start,
        end: endOf(slot),
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + slot.duration * 60_000).toISOString(),
      };
    });
}

/** Monday to Sunday from `weekStart`, holidays marked and their classes left out. */
export function weekSchedule(
  weekStart: string,
  slots: readonly DatedSlot[],
  holidays: readonly HolidayFields[],
  zone: string,
): ScheduleDay[] {
  return Array.from({ length: 7 }, (_, i) => {
    const date = addDays(weekStart, i);
    // Holidays may overlap (a founders' day inside a term break): the day names them all.
    const titles = holidays.filter((holiday) => isHolidayOn(date, holiday)).map((holiday) => holiday.title);
    return {
      date,
      weekday: i + 1,
      holiday: titles.join(', '),
      classes: titles.length > 0 ? [] : classesOn(date, slots, zone),
    };
  });
}

/**
 * How far ahead the next class is looked for: a year. Holidays may follow one another
 * (a 120-day break, then a 15-day one), so this is far longer than any one holiday; a
 * batch with no class in a year has no "next class".
 */
export const NEXT_CLASS_HORIZON_DAYS = 366;

/**
 * The class going on at `now` or the next to start, skipping holidays; none within
 * `horizonDays` means none at all. `holidays` must cover the days up to the horizon.
 */
export function nextClass(
  now: Date,
  today: string,
  slots: readonly DatedSlot[],
  holidays: readonly HolidayFields[],
  zone: string,
  horizonDays = NEXT_CLASS_HORIZON_DAYS,
): ScheduledClass | undefined {
  if (!slots.length) return undefined;
  for (let i = 0; i <= horizonDays; i++) {
    const date = addDays(today, i);
    if (holidayOn(date, holidays)) continue;
    const found = classesOn(date, slots, zone).find((c) => Date.parse(c.endsAt) > now.getTime());
    if (found) return found;
  }
  return undefined;
}

/**
 * The class straight after `next` whose Join opens before `next` ends (classes back to back,
 * or less than JOIN_EARLY_MINUTES apart; on its day or, past midnight, the next day's first
 * unless that is a holiday): the Next class card shows it beside `next`, so that both Joins are
 * open when learning.md says (the one going on until its end, the next from 10 minutes before
 * its start).
 */
export function followingClass(
  next: ScheduledClass,
  slots: readonly DatedSlot[],
  holidays: readonly HolidayFields[],
  zone: string,
): ScheduledClass | undefined {
  const ends = Date.parse(next.endsAt);
  const dayAfter = addDays(next.date, 1);
  const candidates = [
    ...classesOn(next.date, slots, zone),
    ...(holidayOn(dayAfter, holidays) ? [] : classesOn(dayAfter, slots, zone)),
  ];
  return candidates.find(
    (c) => Date.parse(c.startsAt) >= ends && Date.parse(c.startsAt) - JOIN_EARLY_MINUTES * 60_000 < ends,
  );
}

export type JoinState = 'early' | 'open' | 'over';

/** Join class is open from JOIN_EARLY_MINUTES before the start until the end. */
export function joinState(scheduled: Pick<ScheduledClass, 'startsAt' | 'endsAt'>, now: Date): JoinState {
  const opens = Date.parse(scheduled.startsAt) - JOIN_EARLY_MINUTES * 60_000;
  if (now.getTime() < opens) return 'early';
  return now.getTime() < Date.parse(scheduled.endsAt) ? 'open' : 'over';
}

/** "in 2 days 3 h", "in 45 min", "now": how long until a class starts. */
export function timeUntil(startsAt: string, now: Date): string {
  const minutes = Math.ceil((Date.parse(startsAt) - now.getTime()) / 60_000);
  if (minutes <= 0) return 'now';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days) return `in ${days} ${days === 1 ? 'day' : 'days'}${hours ? ` ${hours} h` : ''}`;
  if (hours) return `in ${hours} h${mins ? ` ${mins} min` : ''}`;
  return `in ${mins} min`;
}

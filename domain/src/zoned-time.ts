// Wall-clock time in a named time zone (the centre's, never the device's), with
// the platform's Intl and its time-zone database: a class at 18:00 in
// Asia/Kolkata is 18:00 there whatever zone the server or the browser runs in.

import { isoDateToDayNumber } from './dates.ts';
import { Remembered } from './remembered.ts';

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

export function isValidTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

export interface ZonedParts {
  /** YYYY-MM-DD */
  date: string;
  /** HH:mm */
  time: string;
  /** 1 (Monday) to 7 (Sunday) */
  weekday: number;
}

function fieldsAt(instant: Date, zone: string) {
  const parts = Object.fromEntries(
    formatterFor(zone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The date, time and weekday an instant shows on a wall clock in `zone`. */
export function zonedParts(instant: Date, zone: string): ZonedParts {
  const f = fieldsAt(instant, zone);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${f.year}-${pad(f.month)}-${pad(f.day)}`;
  return { date, time: `${pad(f.hour)}:${pad(f.minute)}`, weekday: weekdayOf(date) };
}

/** How far `zone`'s wall clock is ahead of UTC at an instant, in minutes. */
function offsetMinutes(instant: number, zone: string): number {
  const f = fieldsAt(new Date(instant), zone);
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / MS_PER_MINUTE);
}

/**
 * Instants already worked out, by zone, date and time: each costs two or more Intl calls
 * (about 15 µs each), and every read of a week asks for the same classes' starts again.
 * The time-zone database does not change while the process runs.
 */
const instants = new Remembered<number>(10_000);

/**
 * The instant a wall-clock date and time in `zone` happens. Near a daylight-saving
 * change (none in India) it reads them as RFC 5545 does, so that the student's
 * card and the calendar feed agree: a repeated time is its first occurrence, and
 * a skipped one is read with the offset in force before the gap (02:30 in a gap
 * from 02:00 to 03:00 is 03:30).
 */
export function zonedToInstant(date: string, time: string, zone: string): Date {
  return new Date(instants.get(`${zone} ${date} ${time}`, () => instantOfWallClock(date, time, zone)));
}

function instantOfWallClock(date: string, time: string, zone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets in force a day before and a day after: no zone changes its clock twice in two days.
  const before = offsetMinutes(wall - MS_PER_DAY, zone);
  const after = offsetMinutes(wall + MS_PER_DAY, zone);
  // No change of the clock around it (every day in India): one offset, one instant.
  if (before === after) return wall - before * MS_PER_MINUTE;
  const shows = (instant: number) => instant + offsetMinutes(instant, zone) * MS_PER_MINUTE === wall;
  const candidates = [wall - before * MS_PER_MINUTE, wall - after * MS_PER_MINUTE].filter(shows);
  return candidates.length ? Math.min(...candidates) : wall - before * MS_PER_MINUTE;
}

/** 1 (Monday) to 7 (Sunday) of a YYYY-MM-DD date. */
export function weekdayOf(date: string): number {
  const day = isoDateToDayNumber(date);
  if (day === null) throw new Error(`not a date: ${date}`);
  // 1970-01-01 was a Thursday (4).
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

export function addDays(date: string, days: number): string {
  const day = isoDateToDayNumber(date);
  if (day === null) throw new Error(`not a date: ${date}`);
  return new Date((day + days) * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The date (YYYY-MM-DD) in `zone` at `now`: "today" at the centre. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return zonedParts(now, zone).date;
}

/** The Monday of a date's week. */
export function weekStartOf(date: string): string {
  return addDays(date, 1 - weekdayOf(date));
}

/** One formatter of a zone's short name per zone (a list of times labels each). */
const labelFormatters = new Remembered<Intl.DateTimeFormat>(100);

/** "IST" for Asia/Kolkata: the zone's short name as people in India write it, else its offset ("GMT+5:30"). */
export function timeZoneLabel(zone: string, at: Date = new Date()): string {
  try {
    const part = labelFormatters
      .get(zone, () => new Intl.DateTimeFormat('en-IN', { timeZone: zone, timeZoneName: 'short' }))
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? zone;
  } catch {
    return zone;
  }
}

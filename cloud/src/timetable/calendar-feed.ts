// The student's private calendar feed (iCalendar, RFC 5545): each class of their
// batch as a weekly recurring event in the centre's time zone, holidays left out
// as exceptions. Calendar apps cannot log in, so the address itself is the key:
// 192 random bits, replaced (and the old one dead at once) on request.

import { randomBytes } from 'node:crypto';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import ical, { ICalEventRepeatingFreq } from 'ical-generator';
import { PRODUCT_NAME, ALL_BOARDS } from '@tc/domain/constants';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { addDays, todayIn, weekdayOf, weekStartOf, zonedToInstant } from '@tc/domain/zoned-time';
import type { DatedSlot } from '@tc/domain/schedule';
import { endOf, holidayOn, type Holiday } from '@tc/domain/timetable';
import { parseBoard } from '@tc/domain/registration';
import type { CloudDeps } from '../deps.ts';
import { fail } from '../errors.ts';
import { MASTER, parse, unlessMissing } from '../parse.ts';
import { serialisedForAccount } from '../users/account-lock.ts';
import { findHolidays, findSlots } from './store.ts';
import { vtimezoneOf } from './vtimezone.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const FEED_CLASS = 'CalendarFeed';
/** base64url of 24 random bytes. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;
/** Holidays are written as exceptions this far ahead; apps fetch the feed again long before. */
const EXCEPTIONS_AHEAD_DAYS = 400;

async function feedsOf(userId: string) {
  const Parse = parse();
  return new Parse.Query(FEED_CLASS).equalTo('userId', userId).ascending('createdAt').find(MASTER);
}

/**
 * The student's feed token, made on first use. Made under the account's lock, with a look
 * again: two first asks at once (two tabs) make one token, and a reset meanwhile is not
 * undone by a second token. Tokens an earlier race left beside the first are dropped then.
 */
export async function ownFeedToken(deps: CloudDeps, userId: string): Promise<string> {
  const feeds = await feedsOf(userId);
  if (feeds.length === 1) return feeds[0]!.get('token') as string;
  return serialisedForAccount(deps, userId, async () => {
    const [first, ...extra] = await feedsOf(userId);
    if (!first) return mintFeedToken(deps, userId);
    if (extra.length) await parse().Object.destroyAll(extra, MASTER);
    return first.get('token') as string;
  });
}

/** Deletes every feed token of a student (their erasure): the addresses stop working for ever. */
export async function dropFeedsOf(userId: string): Promise<void> {
  const old = await feedsOf(userId);
  if (old.length) await parse().Object.destroyAll(old, MASTER);
}

/**
 * A new feed token; every earlier one stops working now. Under the account's lock: two
 * resets at once (two tabs) leave one token live, not one each.
 */
export function newFeedToken(deps: CloudDeps, userId: string): Promise<string> {
  return serialisedForAccount(deps, userId, async () => {
    await dropFeedsOf(userId);
    return mintFeedToken(deps, userId);
  });
}

/**
 * Saves a new token, under the account's lock. The student's session was checked before
 * the lock was waited for: an account deactivated meanwhile gets none, as its feed answers
 * none (feedOf); an erased account is deactivated too, and its tokens go for ever.
 */
async function mintFeedToken(deps: CloudDeps, userId: string): Promise<string> {
  const [usable] = await deps.sql(
    `SELECT 1 FROM "_User" WHERE "objectId" = $1 AND status IS DISTINCT FROM 'deactivated'`,
    [userId],
  );
  if (!usable) fail(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  const Parse = parse();
  const token = randomBytes(24).toString('base64url');
  await new Parse.Object(FEED_CLASS).save({ userId, token }, MASTER);
  return token;
}

export function feedAddress(deps: Pick<CloudDeps, 'publicUrl'>, token: string): { url: string; webcalUrl: string } {
  const url = `${deps.publicUrl}/api/calendar/${token}.ics`;
  return { url, webcalUrl: url.replace(/^https?:/, 'webcal:') };
}

/**
 * The feed of a token, or null when no student has it or the student's account
 * is deactivated (erased accounts are too) — until it is reactivated.
 * Only misses count in the look-up limit group of the client's address, as any
 * other guess of a secret: a hit is never limited, because the calendar services
 * of Google and Microsoft fetch every subscriber's feed from a few addresses of
 * their own, and one address over the limit would leave every calendar stale.
 */
export async function calendarFeed(deps: CloudDeps, token: string, clientAddress: string): Promise<string | null> {
  const calendar = await feedOf(deps, token);
  if (calendar === null) await deps.countCall('lookup', clientAddress);
  return calendar;
}

async function feedOf(deps: CloudDeps, token: string): Promise<string | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const Parse = parse();
  const feed = await new Parse.Query(FEED_CLASS).equalTo('token', token).first(MASTER);
  if (!feed) return null;
  // A known address fetched in a loop is refused before the reads and the building.
  await deps.countFeedFetch(token);
  const student = (await unlessMissing(
    new Parse.Query(Parse.User)
      .select('grade', 'board', 'status')
      .get(feed.get('userId') as string, { ...MASTER, json: true }),
  )) as unknown as { grade: number; board: string; status?: string } | undefined;
  const board = student && parseBoard(student.board);
  if (!student || !board || student.status === 'deactivated') return null;

  const zone = deps.centreTimeZone;
  const today = todayIn(zone);
  const [slots, holidays] = await Promise.all([
    findSlots(deps.sql, student.grade, [board, ALL_BOARDS], zone),
    findHolidays(deps.sql, addDays(today, -EXCEPTIONS_AHEAD_DAYS), addDays(today, EXCEPTIONS_AHEAD_DAYS)),
  ]);
  return buildCalendar(slots, holidays, zone, new URL(deps.publicUrl).host, today);
}

/**
 * A link as URL's value. URL is a URI, not text (RFC 5545 3.3.13): a backslash put before
 * its commas, semicolons and backslashes is part of the link to a calendar app, and
 * ical-generator escapes them as text. Percent-encoded, they need no escape (for a
 * meeting link, %2C reads as the comma it stands for).
 */
function asUriValue(link: string): string {
  // A host or path that is not ASCII is no URI either: URL writes it as one (punycode, %C3%A4).
  return new URL(link).href.replace(/[,;\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * RFC 5545 (3.6) puts a calendar's own properties before its components; ical-generator 10
 * writes its time zone's and its refresh interval after the VTIMEZONE. They are moved before
 * it, without its TIMEZONE-ID (no registered property: X-WR-TIMEZONE says the same).
 */
function propertiesFirst(text: string): string {
  return text.replace(
    /(BEGIN:VTIMEZONE\r\n(?:.*\r\n)*?END:VTIMEZONE\r\n)((?:(?!BEGIN:|END:VCALENDAR).*\r\n)*)/,
    (_, zone: string, properties: string) => properties.replace(/^TIMEZONE-ID:.*\r\n/m, '') + zone,
  );
}

/** The iCalendar text of a batch's timetable (exported for the tests). */
export function buildCalendar(
  slots: readonly DatedSlot[],
  holidays: readonly Holiday[],
  zone: string,
  host: string,
  today: string,
): string {
  const calendar = ical({
    name: `${PRODUCT_NAME}: my classes`,
    prodId: { company: 'Guided Learning', product: 'Timetable', language: 'EN' },
    timezone: { name: zone, generator: vtimezoneOf },
    // Ask calendar apps to look for changes every few hours.
    ttl: 6 * 3600,
  });
  // Every series starts a few weeks back, so that recent weeks show too, but never before the
  // class was added (the timetable keeps no history: a class added today had no
  // occurrence last week); the recurrence rule carries it on from there.
  const firstWeek = weekStartOf(addDays(today, -28));
  const lastDay = addDays(today, EXCEPTIONS_AHEAD_DAYS);
  const at = (date: string, time: string) => dayjs(zonedToInstant(date, time, zone)).tz(zone);
  // The same all day (the feed reads alike on every fetch of a day), and never ahead of the
  // time it is fetched: the day's start in the centre's zone, not midnight UTC.
  const stamp = zonedToInstant(today, '00:00', zone);

  // Whether a class is at its times and of its length on `date`: not on a day the clocks change
  // across it (a start in the hour that is skipped, or an end after the hour that repeats).
  const keepsItsTimes = (date: string, slot: DatedSlot) => {
    const start = at(date, slot.start);
    return start.format('HH:mm') === slot.start && at(date, endOf(slot)).diff(start, 'minute') === slot.duration;
  };

  for (const slot of slots) {
    const inFirstWeek = addDays(firstWeek, slot.weekday - 1);
    let firstDate =
      slot.since && slot.since > inFirstWeek
        ? addDays(slot.since, (slot.weekday - weekdayOf(slot.since) + 7) % 7)
        : inFirstWeek;
    // The series takes its times and length from its first date, for every week: never such a
    // day, or every class would be an hour off, or an hour too long or short. A week later
    // (twice at most: the clocks change twice a year); that day's class is an event of its own.
    const ownDays: string[] = [];
    for (let tries = 0; tries < 2 && !keepsItsTimes(firstDate, slot); tries++) {
      ownDays.push(firstDate);
      firstDate = addDays(firstDate, 7);
    }
    // Each day once, however many holidays (overlapping, or two names for one day) fall on it.
    const excluded = new Set<string>();
    for (const holiday of holidays) {
      for (let date = holiday.from; date <= holiday.to && date <= lastDay; date = addDays(date, 1)) {
        if (date >= firstDate && weekdayOf(date) === slot.weekday) excluded.add(date);
      }
    }
    const exclude = [...excluded].sort().map((date) => at(date, slot.start));
    const details = [`Teacher: ${slot.teacher}`, ...(slot.link ? [`Join: ${slot.link}`] : [])];
    const event = {
      summary: `${slot.subject} (${slot.teacher})`,
      description: details.join('\n'),
      timezone: zone,
      stamp,
      ...(slot.link ? { url: asUriValue(slot.link), location: slot.link } : {}),
    };
    calendar.createEvent({
      ...event,
      id: `${slot.objectId}@${host}`,
      start: at(firstDate, slot.start),
      end: at(firstDate, endOf(slot)),
      repeating: { freq: ICalEventRepeatingFreq.WEEKLY, ...(exclude.length ? { exclude } : {}) },
    });
    // A clock-change day's class, at the time that day gives its start and for its length.
    for (const date of ownDays.filter((day) => !holidayOn(day, holidays))) {
      const start = at(date, slot.start);
      calendar.createEvent({
        ...event,
        id: `${slot.objectId}-${date}@${host}`,
        start,
        // Its length from the instant it starts (a day-time sum would keep the start's offset).
        end: dayjs(start.valueOf() + slot.duration * 60_000).tz(zone),
      });
    }
  }
  // RFC 5545 wants DTSTAMP in UTC ("…Z"). With a calendar time zone set, ical-generator 10
  // writes it in the server process's local time with no zone at all, so it is written here.
  return propertiesFirst(calendar.toString()).replace(/^DTSTAMP:.*$/gm, `DTSTAMP:${utcDateTime(stamp)}`);
}

/** An instant as an iCalendar UTC date-time: 20261130T183000Z. */
function utcDateTime(instant: Date): string {
  return instant
    .toISOString()
    .replace(/\.\d{3}/, '')
    .replace(/[-:]/g, '');
}

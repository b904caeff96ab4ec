// The feed's time zone, whatever name the centre's zone is configured under:
// every TZID an event names has its VTIMEZONE, under that name (RFC 5545), and
// the classes keep their wall time.

import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Holiday, Slot } from '@tc/domain/timetable';
import { buildCalendar } from './calendar-feed.ts';
import { vtimezoneOf } from './vtimezone.ts';

const slot: Slot = {
  objectId: 'slot1',
  grade: 5,
  board: 'CBSE',
  subject: 'Mathematics',
  weekday: 6,
  start: '17:00',
  duration: 60,
  teacher: 'Ms Rao',
  link: '',
};

describe('the calendar feed in the centre zone', () => {
  it.each(['Asia/Kolkata', 'Asia/Calcutta', 'US/Eastern', 'Australia/Sydney'])(
    'describes %s under its own name, and the class keeps its wall time',
    (zone) => {
      const calendar = new ICAL.Component(ICAL.parse(buildCalendar([slot], [], zone, 'example.com', '2025-10-30')));
      expect(calendar.getAllSubcomponents('vtimezone').map((tz) => tz.getFirstPropertyValue('tzid'))).toEqual([zone]);
      const vevent = calendar.getFirstSubcomponent('vevent')!;
      expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe(zone);
      expect(vevent.getFirstProperty('dtend')?.getParameter('tzid')).toBe(zone);
      // A Saturday 17:00-18:00, whichever week the feed starts in (here the week before Sydney's clocks went forward).
      expect(String(vevent.getFirstPropertyValue('dtstart'))).toMatch(/T17:00:00$/);
      expect(String(vevent.getFirstPropertyValue('dtend'))).toMatch(/T18:00:00$/);
    },
  );

  it.each([
    // The series would start on 8 March 2026, when New York's clocks go forward at 02:00: that
    // day's class starts at 03:30 (02:30 read with the offset before the gap), for its hour.
    {
      start: '02:30',
      duration: 60,
      today: '2026-04-01',
      series: ['20260315T023000', '20260315T033000'],
      ownDay: ['20260308T033000', '20260308T043000'],
    },
    // On 1 November 2026, when they go back at 02:00: the class would be an hour longer. That
    // day's starts at the first 01:00 and ends two hours later, at 02:00 of the second hour.
    {
      start: '01:00',
      duration: 120,
      today: '2026-11-29',
      series: ['20261108T010000', '20261108T030000'],
      ownDay: ['20261101T010000', '20261101T020000'],
    },
  ])(
    'never starts a series on a day the clocks change across the class, and gives that day its own event ($start)',
    ({ start, duration, today, series, ownDay }) => {
      const sunday = { ...slot, weekday: 7, start, duration };
      const events = new ICAL.Component(ICAL.parse(buildCalendar([sunday], [], 'US/Eastern', 'example.com', today)))
        .getAllSubcomponents('vevent')
        .map((vevent) => [
          String(vevent.getFirstPropertyValue('dtstart')).replace(/[-:]/g, ''),
          String(vevent.getFirstPropertyValue('dtend')).replace(/[-:]/g, ''),
          vevent.hasProperty('rrule'),
        ]);
      expect(events).toEqual([
        [...series, true],
        [...ownDay, false],
      ]);
    },
  );

  it("names a clock-change day's own event after its class and day, and leaves it out on a holiday", () => {
    const sunday = { ...slot, weekday: 7, start: '02:30' };
    const uids = (holidays: Holiday[]) =>
      new ICAL.Component(ICAL.parse(buildCalendar([sunday], holidays, 'US/Eastern', 'example.com', '2026-04-01')))
        .getAllSubcomponents('vevent')
        .map((vevent) => vevent.getFirstPropertyValue('uid'));
    expect(uids([])).toEqual(['slot1@example.com', 'slot1-2026-03-08@example.com']);
    expect(uids([{ objectId: 'h1', title: 'Spring break', from: '2026-03-07', to: '2026-03-09' }])).toEqual([
      'slot1@example.com',
    ]);
  });

  it("stamps each event with the start of the centre's day, never a time ahead of the fetch", () => {
    // 1 December, 02:00 in Kolkata: still 30 November in UTC.
    const feed = buildCalendar([slot], [], 'Asia/Kolkata', 'example.com', '2026-12-01');
    // In UTC, as RFC 5545 asks, whatever the server's own zone.
    expect(feed).toMatch(/^DTSTAMP:20261130T183000Z\r$/m);
    const calendar = new ICAL.Component(ICAL.parse(feed));
    const stamp = calendar.getFirstSubcomponent('vevent')!.getFirstPropertyValue('dtstamp') as ICAL.Time;
    expect(stamp.toJSDate().toISOString()).toBe('2026-11-30T18:30:00.000Z');
    expect(stamp.toJSDate().getTime()).toBeLessThanOrEqual(Date.parse('2026-11-30T20:30:00Z'));
  });

  it("gives a class link as the event's URL unescaped (a URI, not text) and as its location", () => {
    const link = 'https://meet.example.com/a,b;c\\d?x=1';
    const feed = buildCalendar([{ ...slot, link }], [], 'Asia/Kolkata', 'example.com', '2026-12-01');
    const vevent = new ICAL.Component(ICAL.parse(feed)).getFirstSubcomponent('vevent')!;
    // (A backslash in an http link is a slash to every browser, the dashboard's Join button's too.)
    expect(feed).toContain('URL;VALUE=URI:https://meet.example.com/a%2Cb%3Bc/d?x=1\r\n');
    expect(vevent.getFirstPropertyValue('location')).toBe(link);
  });

  it('writes a link that is not ASCII as a URI (punycode, percent-encoded); the text keeps it as typed', () => {
    const link = 'https://bücher.example/ä?q=ü,x';
    const feed = buildCalendar([{ ...slot, link }], [], 'Asia/Kolkata', 'example.com', '2026-12-01');
    expect(feed).toContain('URL;VALUE=URI:https://xn--bcher-kva.example/%C3%A4?q=%C3%BC%2Cx\r\n');
    const vevent = new ICAL.Component(ICAL.parse(feed)).getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('location')).toBe(link);
  });

  it("puts the calendar's own properties before its time zone, as RFC 5545 orders them", () => {
    const feed = buildCalendar([slot], [], 'Asia/Kolkata', 'example.com', '2026-12-01');
    const lines = feed.split('\r\n');
    const zoneAt = lines.indexOf('BEGIN:VTIMEZONE');
    for (const property of ['X-WR-TIMEZONE:', 'REFRESH-INTERVAL', 'X-PUBLISHED-TTL:']) {
      const at = lines.findIndex((line) => line.startsWith(property));
      expect(at, property).toBeGreaterThan(0);
      expect(at, property).toBeLessThan(zoneAt);
    }
    // Not a registered property (nor an X- one).
    expect(feed).not.toMatch(/^TIMEZONE-ID/m);
    const empty = buildCalendar([], [], 'Asia/Kolkata', 'example.com', '2026-12-01').split('\r\n');
    expect(empty.findIndex((line) => line.startsWith('X-WR-TIMEZONE:'))).toBeLessThan(empty.indexOf('BEGIN:VTIMEZONE'));
  });

  it('leaves a class out once on a day that overlapping holidays share', () => {
    const holidays = [
      { objectId: 'h1', title: 'Diwali', from: '2026-12-05', to: '2026-12-12' },
      { objectId: 'h2', title: 'Same', from: '2026-12-05', to: '2026-12-05' },
      { objectId: 'h3', title: 'Overlap', from: '2026-12-10', to: '2026-12-14' },
    ];
    const feed = buildCalendar([slot], holidays, 'Asia/Kolkata', 'example.com', '2026-12-01');
    // The Saturdays 5 and 12 December, each once.
    expect(feed).toContain('EXDATE;TZID=Asia/Kolkata:20261205T170000,20261212T170000\r\n');
  });

  it('starts a class on its first day after it was added, not in the weeks before it', () => {
    const dtstart = (feed: string) => /^DTSTART;TZID=Asia\/Kolkata:(\d{8})T170000\r$/m.exec(feed)?.[1];
    // A Saturday class added on Thursday 3 December: from Saturday the 5th, and the holiday of
    // the Saturday before is no exception of it.
    const holiday = { objectId: 'h', title: 'Before', from: '2026-11-28', to: '2026-11-28' };
    const added = buildCalendar([{ ...slot, since: '2026-12-03' }], [holiday], 'Asia/Kolkata', 'x.com', '2026-12-03');
    expect(dtstart(added)).toBe('20261205');
    expect(added).not.toContain('EXDATE');
    // Added on a Saturday: that very day.
    expect(dtstart(buildCalendar([{ ...slot, since: '2026-12-05' }], [], 'Asia/Kolkata', 'x.com', '2026-12-05'))).toBe(
      '20261205',
    );
    // Added long ago (or not known): a few weeks back, the Saturday of the week of 5 November.
    for (const old of [{ ...slot, since: '2025-01-01' }, slot]) {
      const feed = buildCalendar([old], [holiday], 'Asia/Kolkata', 'x.com', '2026-12-03');
      expect(dtstart(feed)).toBe('20261107');
      expect(feed).toContain('EXDATE;TZID=Asia/Kolkata:20261128T170000');
    }
  });

  it('knows no block for a zone the library lacks, which the configuration refuses', () => {
    expect(vtimezoneOf('Europe/Kyiv')).toBeNull();
    expect(vtimezoneOf('Europe/Kiev')).toMatch(/^TZID:Europe\/Kiev$/m);
  });
});

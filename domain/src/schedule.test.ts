import { afterEach, describe, expect, it } from 'vitest';
import { followingClass, joinState, nextClass, timeUntil, weekSchedule } from './schedule.ts';
import type { Slot } from './timetable.ts';
import { addDays, timeZoneLabel, weekStartOf, weekdayOf, zonedParts, zonedToInstant } from './zoned-time.ts';

const KOLKATA = 'Asia/Kolkata';
const slot = (overrides: Partial<Slot>): Slot => ({
  objectId: 's1',
  grade: 4,
  board: 'CBSE',
  subject: 'Mathematics',
  weekday: 1,
  start: '18:00',
  duration: 60,
  teacher: 'Mrs Rao',
  link: 'https://meet.example.com/m',
  ...overrides,
});

const savedTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = savedTz;
});

describe('zoned time', () => {
  it('puts 18:00 in Asia/Kolkata at 12:30 UTC', () => {
    expect(zonedToInstant('2026-11-23', '18:00', KOLKATA).toISOString()).toBe('2026-11-23T12:30:00.000Z');
  });

  it.each(['America/Los_Angeles', 'Pacific/Kiritimati', 'UTC', 'Asia/Kolkata'])(
    'shows 18:00 Asia/Kolkata as 18:00 whatever the device zone (%s)',
    (deviceZone) => {
      process.env.TZ = deviceZone;
      const instant = zonedToInstant('2026-11-23', '18:00', KOLKATA);
      expect(zonedParts(instant, KOLKATA)).toEqual({ date: '2026-11-23', time: '18:00', weekday: 1 });
      const week = weekSchedule('2026-11-23', [slot({})], [], KOLKATA);
      expect(week[0]!.classes[0]).toMatchObject({ date: '2026-11-23', start: '18:00', end: '19:00' });
    },
  );

  it('keeps a class on its centre day across the week boundary, wherever the device is', () => {
    process.env.TZ = 'America/Los_Angeles';
    // Sunday 23:00 in Kolkata is still Sunday 09:30 in Los Angeles, and Monday 00:30 is Sunday 11:00.
    const sunday = zonedToInstant('2026-11-29', '23:00', KOLKATA);
    expect(zonedParts(sunday, KOLKATA)).toEqual({ date: '2026-11-29', time: '23:00', weekday: 7 });
    const monday = zonedToInstant('2026-11-30', '00:30', KOLKATA);
    expect(sunday.toISOString()).toBe('2026-11-29T17:30:00.000Z');
    expect(monday.toISOString()).toBe('2026-11-29T19:00:00.000Z');
    expect(zonedParts(monday, KOLKATA)).toEqual({ date: '2026-11-30', time: '00:30', weekday: 1 });
    expect(weekStartOf(zonedParts(monday, KOLKATA).date)).toBe('2026-11-30');
    expect(weekStartOf(zonedParts(sunday, KOLKATA).date)).toBe('2026-11-23');
  });

  it('gives a fresh instant on every call, the same in each zone (the remembered ones cannot be changed)', () => {
    const first = zonedToInstant('2026-11-23', '18:00', KOLKATA);
    first.setTime(0);
    expect(zonedToInstant('2026-11-23', '18:00', KOLKATA).toISOString()).toBe('2026-11-23T12:30:00.000Z');
    expect(zonedToInstant('2026-11-23', '18:00', 'Europe/London').toISOString()).toBe('2026-11-23T18:00:00.000Z');
    expect(zonedToInstant('2026-07-23', '18:00', 'Europe/London').toISOString()).toBe('2026-07-23T17:00:00.000Z');
  });

  it('does calendar maths across months, years and weeks', () => {
    expect(weekdayOf('2026-11-23')).toBe(1);
    expect(weekdayOf('2026-11-29')).toBe(7);
    expect(weekStartOf('2027-01-01')).toBe('2026-12-28');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('follows daylight saving in a zone that has it', () => {
    expect(zonedToInstant('2026-07-06', '18:00', 'Europe/London').toISOString()).toBe('2026-07-06T17:00:00.000Z');
    expect(zonedToInstant('2026-12-07', '18:00', 'Europe/London').toISOString()).toBe('2026-12-07T18:00:00.000Z');
  });

  it('reads the day before a clock change with the offset of that day, east and west of UTC', () => {
    // Sydney goes forward at 02:00 on Sunday 5 October 2025: Saturday 17:00 is still +10:00.
    expect(zonedToInstant('2025-10-04', '17:00', 'Australia/Sydney').toISOString()).toBe('2025-10-04T07:00:00.000Z');
    expect(zonedToInstant('2025-10-05', '17:00', 'Australia/Sydney').toISOString()).toBe('2025-10-05T06:00:00.000Z');
    // New York goes forward at 02:00 on Sunday 8 March 2026: Saturday 21:00 is still -05:00.
    expect(zonedToInstant('2026-03-07', '21:00', 'America/New_York').toISOString()).toBe('2026-03-08T02:00:00.000Z');
  });

  it('reads a repeated time as its first occurrence and a skipped one with the offset before the gap', () => {
    // London: 01:30 happens twice on 25 October 2026 (BST, then GMT).
    expect(zonedToInstant('2026-10-25', '01:30', 'Europe/London').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // London: 01:30 does not happen on 29 March 2026; read as GMT, it is 02:30 BST.
    expect(zonedToInstant('2026-03-29', '01:30', 'Europe/London').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(zonedToInstant('2025-10-05', '02:30', 'Australia/Sydney').toISOString()).toBe('2025-10-04T16:30:00.000Z');
  });

  it('gives back the wall time it was given, every day of two years, in zones with daylight saving', () => {
    const zones = ['Australia/Sydney', 'Pacific/Auckland', 'Europe/London', 'America/New_York', 'America/Santiago'];
    const times = ['00:30', '01:30', '02:30', '16:00', '17:00', '23:30'];
    for (const zone of zones) {
      for (let date = '2025-01-01'; date < '2027-01-01'; date = addDays(date, 1)) {
        for (const time of times) {
          const shown = zonedParts(zonedToInstant(date, time, zone), zone);
          if (shown.date === date && shown.time === time) continue;
          // Only a time the clocks skip comes out otherwise: an hour later, the same day.
          const [h, m] = time.split(':').map(Number) as [number, number];
          const later = `${String(h + 1).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
          expect({ zone, date, time, shown }).toEqual({ zone, date, time, shown: { ...shown, date, time: later } });
          expect(zonedToInstant(date, later, zone).getTime()).toBe(zonedToInstant(date, time, zone).getTime());
        }
      }
    }
  });

  it('labels the centre zone', () => {
    expect(timeZoneLabel(KOLKATA)).toBe('IST');
  });
});

describe('the week and the next class', () => {
  const slots = [
    slot({ objectId: 'mon', weekday: 1 }),
    slot({ objectId: 'wed', weekday: 3, start: '16:00', subject: 'Science' }),
    slot({ objectId: 'sun', weekday: 7, start: '23:00', subject: 'English' }),
  ];

  it('lays out Monday to Sunday with holidays marked and their classes left out', () => {
    const week = weekSchedule(
      '2026-11-23',
      slots,
      [{ title: 'Founders day', from: '2026-11-25', to: '2026-11-25' }],
      KOLKATA,
    );
    expect(week.map((d) => d.date)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(week[0]!.classes.map((c) => c.slotId)).toEqual(['mon']);
    expect(week[2]).toMatchObject({ holiday: 'Founders day', classes: [] });
    expect(week[6]!.classes[0]).toMatchObject({ slotId: 'sun', startsAt: '2026-11-29T17:30:00.000Z' });
  });

  it('shows a class from the day it was added: not in the weeks before, nor on the days of its week gone by', () => {
    // Added on Wednesday 25 November: that Monday had no class yet, that Sunday has it.
    const added = slots.map((s) => ({ ...s, since: '2026-11-25' }));
    const week = weekSchedule('2026-11-23', added, [], KOLKATA);
    expect(week.map((d) => d.classes.map((c) => c.slotId))).toEqual([[], [], ['wed'], [], [], [], ['sun']]);
    expect(weekSchedule('2026-11-16', added, [], KOLKATA).flatMap((d) => d.classes)).toEqual([]);
    expect(weekSchedule('2026-11-30', added, [], KOLKATA).map((d) => d.classes.length)).toEqual([1, 0, 1, 0, 0, 0, 1]);
    // Added long ago, or with no date known: every week.
    for (const old of [slots.map((s) => ({ ...s, since: '2025-01-01' })), slots]) {
      expect(weekSchedule('2026-11-16', old, [], KOLKATA).map((d) => d.classes.length)).toEqual([1, 0, 1, 0, 0, 0, 1]);
    }
    // The next class is never one before the day it was added.
    const next = nextClass(new Date('2026-11-23T06:00:00Z'), '2026-11-23', added, [], KOLKATA);
    expect(next).toMatchObject({ slotId: 'wed', date: '2026-11-25' });
  });

  it('names every holiday of a day when holidays overlap', () => {
    const week = weekSchedule(
      '2026-11-23',
      slots,
      [
        { title: 'Term break', from: '2026-11-24', to: '2026-11-26' },
        { title: 'Founders day', from: '2026-11-25', to: '2026-11-25' },
      ],
      KOLKATA,
    );
    expect(week.slice(0, 4).map((d) => d.holiday)).toEqual([
      '',
      'Term break',
      'Term break, Founders day',
      'Term break',
    ]);
    expect(week[2]!.classes).toEqual([]);
  });

  it('finds the class going on, then the next one, skipping holidays and crossing into next week', () => {
    const during = new Date('2026-11-23T13:00:00Z'); // Monday 18:30 IST
    expect(nextClass(during, '2026-11-23', slots, [], KOLKATA)?.slotId).toBe('mon');
    const after = new Date('2026-11-23T13:31:00Z');
    expect(nextClass(after, '2026-11-23', slots, [], KOLKATA)?.slotId).toBe('wed');
    const holidays = [{ title: 'Break', from: '2026-11-25', to: '2026-11-29' }];
    expect(nextClass(after, '2026-11-23', slots, holidays, KOLKATA)).toMatchObject({
      slotId: 'mon',
      date: '2026-11-30',
    });
    expect(nextClass(after, '2026-11-23', [], [], KOLKATA)).toBeUndefined();
  });

  it('names the class straight after the next one when its Join opens before that one ends (classes back to back)', () => {
    const maths = slot({ objectId: 'maths' });
    const science = (start: string, weekday = 1) =>
      slot({ objectId: 'science', weekday, start, subject: 'Science', duration: 45 });
    const at = (time: string) => new Date(`2026-11-23T${time}:00+05:30`);
    // The class going on stays the next one to its end (its Join is open until then).
    const next = nextClass(at('18:55'), '2026-11-23', [maths, science('19:00')], [], KOLKATA)!;
    expect(next.slotId).toBe('maths');
    expect(followingClass(next, [maths, science('19:00')], [], KOLKATA)).toMatchObject({
      slotId: 'science',
      date: '2026-11-23',
      start: '19:00',
    });
    // Nine minutes apart still; ten (its Join opens as the first ends) or more, not.
    expect(followingClass(next, [maths, science('19:09')], [], KOLKATA)?.slotId).toBe('science');
    expect(followingClass(next, [maths, science('19:10')], [], KOLKATA)).toBeUndefined();
    // Another day's class, unless it starts at midnight straight after; not on a holiday.
    expect(followingClass(next, [maths, science('19:00', 2)], [], KOLKATA)).toBeUndefined();
    const late = slot({ objectId: 'late', start: '23:00' });
    const midnight = science('00:00', 2);
    const lastOfDay = nextClass(at('23:30'), '2026-11-23', [late, midnight], [], KOLKATA)!;
    expect(followingClass(lastOfDay, [late, midnight], [], KOLKATA)).toMatchObject({
      slotId: 'science',
      date: '2026-11-24',
    });
    const holiday = [{ title: 'Break', from: '2026-11-24', to: '2026-11-24' }];
    expect(followingClass(lastOfDay, [late, midnight], holiday, KOLKATA)).toBeUndefined();
  });

  it('finds the next class after holidays that follow one another, however long together', () => {
    const after = new Date('2026-11-23T13:31:00Z');
    // The longest holiday (120 days), then another: 135 days without a class.
    const holidays = [
      { title: 'Long break', from: '2026-11-24', to: '2027-03-23' },
      { title: 'Spring break', from: '2027-03-24', to: '2027-04-07' },
    ];
    // Back on Thursday 8 April; the first class after that is Sunday's, on the 11th.
    expect(nextClass(after, '2026-11-23', slots, holidays, KOLKATA)).toMatchObject({
      slotId: 'sun',
      date: '2027-04-11',
    });
    // Holidays for more than a year (the horizon): no next class.
    const closed = [
      ...holidays,
      { title: 'Closed', from: '2027-04-08', to: '2027-08-05' },
      { title: 'Closed', from: '2027-08-06', to: '2027-12-03' },
    ];
    expect(nextClass(after, '2026-11-23', slots, closed, KOLKATA)).toBeUndefined();
  });

  it('opens Join class 10 minutes before the start until the end', () => {
    const c = { startsAt: '2026-11-23T12:30:00.000Z', endsAt: '2026-11-23T13:30:00.000Z' };
    expect(joinState(c, new Date('2026-11-23T12:19:59Z'))).toBe('early');
    expect(joinState(c, new Date('2026-11-23T12:20:00Z'))).toBe('open');
    expect(joinState(c, new Date('2026-11-23T13:29:59Z'))).toBe('open');
    expect(joinState(c, new Date('2026-11-23T13:30:00Z'))).toBe('over');
  });

  it('says how long until a class', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(timeUntil('2026-11-23T12:30:00Z', now)).toBe('in 30 min');
    expect(timeUntil('2026-11-23T14:15:00Z', now)).toBe('in 2 h 15 min');
    expect(timeUntil('2026-11-25T15:00:00Z', now)).toBe('in 2 days 3 h');
    expect(timeUntil('2026-11-23T11:00:00Z', now)).toBe('now');
  });
});

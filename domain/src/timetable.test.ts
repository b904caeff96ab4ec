import { describe, expect, it } from 'vitest';
import { TimetableMessage as M } from './timetable-messages.ts';
import { clashMessage, findClash, validateHoliday, validateSlot, type Slot, type SlotFields } from './timetable.ts';

const good: SlotFields = {
  grade: 4,
  board: 'CBSE',
  subject: 'Mathematics',
  weekday: 1,
  start: '18:00',
  duration: 60,
  teacher: 'Mrs Rao',
  link: 'https://meet.example.com/abc',
};

const slot = (overrides: Partial<Slot>): Slot => ({ ...good, objectId: 'x', ...overrides });

describe('validateSlot', () => {
  it('accepts a good slot, from form strings too', () => {
    expect(validateSlot(good)).toEqual({ ok: true, value: good });
    expect(validateSlot({ ...good, grade: '4', weekday: '1', duration: '60', board: 'cbse' })).toEqual({
      ok: true,
      value: good,
    });
    expect(validateSlot({ ...good, link: '' })).toEqual({ ok: true, value: { ...good, link: '' } });
    expect(validateSlot({ ...good, board: 'All' })).toMatchObject({ ok: true, value: { board: 'All' } });
  });

  it.each([
    'https://us02web.zoom.us/j/81234567890?pwd=aBcD1234eFgH',
    'https://meet.google.com/abc-defg-hij',
    'https://teams.microsoft.com/l/meetup-join/19%3ameeting_NzQ%40thread.v2/0?context=%7b%22Tid%22%3a%22a%22%7d',
    'HTTPS://Meet.Example.com/Room#start',
    'https://vidyālaya.example.in/कक्षा/5',
    'https://meet.example.com:8443/abc',
    'https://meet.example.com',
    'https://192.0.2.10/room?id=5',
    'https://meet.jit.si/GuidedLearning-Grade5',
    'https://example.webex.com/meet/teacher.rao',
  ])('takes the class link %s as it was typed', (link) => {
    expect(validateSlot({ ...good, link })).toEqual({ ok: true, value: { ...good, link } });
  });

  it.each([
    [{ grade: 0 }, 'grade', M.gradeRequired],
    [{ grade: 10 }, 'grade', M.gradeRequired],
    [{ board: 'IB' }, 'board', M.boardInvalid],
    [{ subject: 'Art' }, 'subject', M.subjectInvalid],
    [{ weekday: 0 }, 'weekday', M.weekdayInvalid],
    [{ weekday: 8 }, 'weekday', M.weekdayInvalid],
    [{ start: '6pm' }, 'start', M.startInvalid],
    [{ start: '24:00' }, 'start', M.startInvalid],
    [{ start: '9:00' }, 'start', M.startInvalid],
    [{ duration: 14 }, 'duration', M.durationInvalid],
    [{ duration: 181 }, 'duration', M.durationInvalid],
    [{ duration: 30.5 }, 'duration', M.durationInvalid],
    [{ start: '23:30', duration: 45 }, 'duration', M.endsAfterMidnight],
    [{ teacher: '  ' }, 'teacher', M.teacherRequired],
    [{ teacher: '\u200b' }, 'teacher', M.teacherRequired],
    [{ teacher: ' \u200d\u0301 ' }, 'teacher', M.teacherRequired],
    [{ teacher: '\u3164\u2800' }, 'teacher', M.teacherRequired],
    [{ teacher: 'x'.repeat(61) }, 'teacher', M.teacherTooLong],
    [{ teacher: 'Mrs \u202eoaR' }, 'teacher', M.teacherControlCharacters],
    [{ teacher: 'Mrs\u0007Rao' }, 'teacher', M.teacherControlCharacters],
    [{ link: 'https://meet.example.com/a\r\nb' }, 'link', M.linkInvalid],
    [{ link: 'https://meet.example.com/a b' }, 'link', M.linkInvalid],
    [{ link: 'http://meet.example.com' }, 'link', M.linkInvalid],
    [{ link: 'javascript:alert(1)' }, 'link', M.linkInvalid],
    [{ link: 'https://user:pw@example.com' }, 'link', M.linkInvalid],
    [{ link: 42 }, 'link', M.linkInvalid],
    // Typos the URL parser would mend into another address, and what a link never holds.
    [{ link: 'https:/meet.example.com/abc' }, 'link', M.linkInvalid],
    [{ link: 'https:\\\\meet.example.com/abc' }, 'link', M.linkInvalid],
    [{ link: 'https://meet.example.com"onmouseover="a' }, 'link', M.linkInvalid],
    [{ link: 'https://meet.example.com/<b>' }, 'link', M.linkInvalid],
    [{ link: 'https://meet.example.com/\u202eabc' }, 'link', M.linkInvalid],
    [{ link: 'https://meet.example.com/a\u200bb' }, 'link', M.linkInvalid],
    [{ link: 'https://meet_example.com/abc' }, 'link', M.linkInvalid],
    [{ link: 'https://[::1]/abc' }, 'link', M.linkInvalid],
    [{ link: 'https://@evil.example.com/x' }, 'link', M.linkInvalid],
    [{ link: 'https://exa%6Dple.com/' }, 'link', M.linkInvalid],
    [{ link: 'https://0x7f.1/' }, 'link', M.linkInvalid],
    [{ link: 'https://meet.example.com:99999/' }, 'link', M.linkInvalid],
  ])('refuses %o on %s', (change, field, message) => {
    expect(validateSlot({ ...good, ...change })).toEqual({ ok: false, field, message, problems: { [field]: message } });
  });

  it("names every field's problem at once, the first in the form's order", () => {
    expect(validateSlot({ ...good, start: '25:00', duration: 10, teacher: ' ', link: 'http://x.example' })).toEqual({
      ok: false,
      field: 'start',
      message: M.startInvalid,
      problems: {
        start: M.startInvalid,
        duration: M.durationInvalid,
        teacher: M.teacherRequired,
        link: M.linkInvalid,
      },
    });
    expect(validateSlot({ board: 'IB', subject: 'Physics', weekday: 8 })).toMatchObject({
      field: 'grade',
      problems: { grade: M.gradeRequired, board: M.boardInvalid, subject: M.subjectInvalid, weekday: M.weekdayInvalid },
    });
  });

  it('checks the end against midnight only with a good start and duration', () => {
    expect(validateSlot({ ...good, start: '23:30', duration: 60 })).toMatchObject({
      problems: { duration: M.endsAfterMidnight },
    });
    expect(validateSlot({ ...good, start: '24:30', duration: 60 })).toMatchObject({
      problems: { start: M.startInvalid },
    });
    expect(validateSlot({ ...good, start: '24:30', duration: 60 })).not.toHaveProperty('problems.duration');
  });

  it('accepts the edges: 15 and 180 minutes, a class ending at midnight, 60 characters', () => {
    expect(validateSlot({ ...good, duration: 15 }).ok).toBe(true);
    expect(validateSlot({ ...good, duration: 180 }).ok).toBe(true);
    expect(validateSlot({ ...good, start: '23:00', duration: 60 }).ok).toBe(true);
    expect(validateSlot({ ...good, teacher: 'x'.repeat(60) }).ok).toBe(true);
  });
});

describe('findClash', () => {
  it('finds an overlap in the same batch and names the slot', () => {
    const other = slot({ objectId: 'a', start: '18:30', subject: 'Science', teacher: 'Mr Iyer' });
    expect(findClash(good, [other])).toBe(other);
    expect(clashMessage(other)).toBe('This slot overlaps Science on Monday 18:30-19:30 (CBSE, Mr Iyer)');
  });

  it('lets touching slots, other days, other grades and other boards be', () => {
    const others = [
      slot({ objectId: 'a', start: '19:00' }),
      slot({ objectId: 'b', start: '17:00' }),
      slot({ objectId: 'c', weekday: 2 }),
      slot({ objectId: 'd', grade: 5 }),
      slot({ objectId: 'e', board: 'ICSE' }),
    ];
    expect(findClash(good, others)).toBeUndefined();
  });

  it('makes a slot for all boards clash with any board of its grade, both ways', () => {
    expect(findClash({ ...good, board: 'All' }, [slot({ objectId: 'a', board: 'State' })])?.objectId).toBe('a');
    expect(findClash(good, [slot({ objectId: 'a', board: 'All' })])?.objectId).toBe('a');
  });

  it('does not clash with itself when edited', () => {
    expect(findClash({ ...good, objectId: 'me' }, [slot({ objectId: 'me' })])).toBeUndefined();
  });
});

describe('validateHoliday', () => {
  it('accepts a day or a range', () => {
    expect(validateHoliday({ title: ' Diwali ', from: '2026-11-08' })).toEqual({
      ok: true,
      value: { title: 'Diwali', from: '2026-11-08', to: '2026-11-08' },
    });
    expect(validateHoliday({ title: 'Winter break', from: '2026-12-24', to: '2027-01-01' }).ok).toBe(true);
  });

  it("names the title's and the days' problems at once", () => {
    expect(validateHoliday({ title: ' ', from: '2026-02-30', to: 'soon' })).toEqual({
      ok: false,
      field: 'title',
      message: M.holidayTitleRequired,
      problems: { title: M.holidayTitleRequired, from: M.holidayFromInvalid, to: M.holidayToInvalid },
    });
    // The last day is measured from a good first day only; a blank one is the first day's.
    expect(validateHoliday({ title: 'a', from: 'soon', to: '2026-11-07' })).toEqual({
      ok: false,
      field: 'from',
      message: M.holidayFromInvalid,
      problems: { from: M.holidayFromInvalid },
    });
    expect(validateHoliday({ title: '', from: 'soon' })).toMatchObject({
      problems: { title: M.holidayTitleRequired, from: M.holidayFromInvalid },
    });
    expect(validateHoliday({ title: '', from: 'soon' })).not.toHaveProperty('problems.to');
  });

  it("counts an accent typed apart from its letter once, in a holiday's title and a teacher's name", () => {
    expect(validateHoliday({ title: 'e\u0301'.repeat(80), from: '2026-11-08' })).toMatchObject({
      ok: true,
      value: { title: '\u00e9'.repeat(80) },
    });
    expect(validateSlot({ ...good, teacher: 'Ms Re\u0301nee '.repeat(5).trim() })).toMatchObject({
      ok: true,
      value: { teacher: 'Ms R\u00e9nee '.repeat(5).trim() },
    });
  });

  it.each([
    [{ title: '', from: '2026-11-08' }, 'title', M.holidayTitleRequired],
    [{ title: '\u200b\u200b', from: '2026-11-08' }, 'title', M.holidayTitleRequired],
    [{ title: 'x'.repeat(81), from: '2026-11-08' }, 'title', M.holidayTitleTooLong],
    [{ title: 'Diwali\u2066 break', from: '2026-11-08' }, 'title', M.holidayTitleControlCharacters],
    [{ title: 'a', from: '2026-02-30' }, 'from', M.holidayFromInvalid],
    [{ title: 'a', from: '2026-11-08', to: 'soon' }, 'to', M.holidayToInvalid],
    [{ title: 'a', from: '2026-11-08', to: '2026-11-07' }, 'to', M.holidayToBeforeFrom],
    [{ title: 'a', from: '2026-01-01', to: '2026-06-01' }, 'to', M.holidayTooLong],
    [{ title: 'a', from: '9999-12-30' }, 'from', M.holidayFromInvalid],
    [{ title: 'a', from: '2099-12-30', to: '2100-01-02' }, 'to', M.holidayToInvalid],
  ])('refuses %o on %s', (input, field, message) => {
    expect(validateHoliday(input)).toEqual({ ok: false, field, message, problems: { [field]: message } });
  });
});

import { describe, expect, it } from 'vitest';
import {
  AssessmentMessage as M,
  averageShownToStudents,
  isInBatch,
  markText,
  parseMarkValue,
  MarksText,
  averagePercentage,
  percentage,
  validateAssessment,
} from './assessments.ts';
import { marksPublishedEmail } from './notifications.ts';

const valid = {
  grade: 4,
  board: 'CBSE',
  subject: 'Mathematics',
  title: ' Unit  Test 3 ',
  date: '2026-11-20',
  maxMarks: 20,
};

describe('validateAssessment', () => {
  it('accepts and tidies a valid assessment', () => {
    expect(validateAssessment(valid)).toEqual({
      ok: true,
      value: {
        grade: 4,
        board: 'CBSE',
        subject: 'Mathematics',
        title: 'Unit Test 3',
        date: '2026-11-20',
        maxMarks: 20,
      },
    });
    expect(validateAssessment({ ...valid, board: 'All', grade: '9', maxMarks: '1000' }).ok).toBe(true);
    // A board in any case, stored in its own spelling, as a timetable slot's.
    expect(validateAssessment({ ...valid, board: ' icse' })).toMatchObject({ ok: true, value: { board: 'ICSE' } });
    expect(validateAssessment({ ...valid, board: 'all' })).toMatchObject({ ok: true, value: { board: 'All' } });
    // The joiners Indian scripts use are letters' business, not control characters.
    expect(validateAssessment({ ...valid, title: 'हिन्\u200dदी test \u200c1' }).ok).toBe(true);
  });

  it.each([
    [{ grade: '' }, 'grade', M.gradeRequired],
    [{ grade: undefined }, 'grade', M.gradeRequired],
    [{ grade: 0 }, 'grade', M.gradeInvalid],
    [{ grade: 10 }, 'grade', M.gradeInvalid],
    [{ grade: 'x' }, 'grade', M.gradeInvalid],
    [{ board: 'IB' }, 'board', M.boardInvalid],
    [{ board: undefined }, 'board', M.boardInvalid],
    [{ subject: 'Physics' }, 'subject', M.subjectInvalid],
    [{ title: '   ' }, 'title', M.titleRequired],
    [{ title: 5 }, 'title', M.titleRequired],
    [{ title: '\u200b' }, 'title', M.titleRequired],
    [{ title: 'x'.repeat(81) }, 'title', M.titleTooLong],
    [{ title: 'Unit Test \u202e3' }, 'title', M.titleControlCharacters],
    [{ date: '2026-02-30' }, 'date', M.dateInvalid],
    [{ date: '20/11/2026' }, 'date', M.dateInvalid],
    [{ maxMarks: 0 }, 'maxMarks', M.maxMarksInvalid],
    [{ maxMarks: 1001 }, 'maxMarks', M.maxMarksInvalid],
    [{ maxMarks: 10.5 }, 'maxMarks', M.maxMarksInvalid],
    [{ maxMarks: '' }, 'maxMarks', M.maxMarksInvalid],
    // Only digits: Number() would read these as 16, 1000 and 5.
    [{ maxMarks: '0x10' }, 'maxMarks', M.maxMarksInvalid],
    [{ maxMarks: '1e3' }, 'maxMarks', M.maxMarksInvalid],
    [{ grade: '0b101' }, 'grade', M.gradeInvalid],
    // The date pickers' years (an assessment of 9999 would head the progress page for ever).
    [{ date: '9999-12-31' }, 'date', M.dateInvalid],
    [{ date: '2100-01-01' }, 'date', M.dateInvalid],
    [{ date: '0100-01-01' }, 'date', M.dateInvalid],
  ])('refuses %j', (change, field, message) => {
    expect(validateAssessment({ ...valid, ...change })).toEqual({
      ok: false,
      field,
      message,
      problems: { [field]: message },
    });
  });

  it("names every field's problem at once, the first in the form's order", () => {
    expect(validateAssessment({ title: ' ', date: '2026-02-30', maxMarks: 0 })).toEqual({
      ok: false,
      field: 'grade',
      message: M.gradeRequired,
      problems: {
        grade: M.gradeRequired,
        board: M.boardInvalid,
        subject: M.subjectInvalid,
        title: M.titleRequired,
        date: M.dateInvalid,
        maxMarks: M.maxMarksInvalid,
      },
    });
    expect(validateAssessment({ ...valid, grade: 10, subject: 'Physics' })).toEqual({
      ok: false,
      field: 'grade',
      message: M.gradeInvalid,
      problems: { grade: M.gradeInvalid, subject: M.subjectInvalid },
    });
  });

  it('takes titles of exactly 1 and 80 characters', () => {
    expect(validateAssessment({ ...valid, title: 'x' }).ok).toBe(true);
    expect(validateAssessment({ ...valid, title: 'x'.repeat(80) }).ok).toBe(true);
  });

  it('counts an accent typed apart from its letter as the one character it shows, and stores it composed', () => {
    const decomposed = 'e\u0301'.repeat(80);
    expect(validateAssessment({ ...valid, title: decomposed })).toMatchObject({
      ok: true,
      value: { title: '\u00e9'.repeat(80) },
    });
    expect(validateAssessment({ ...valid, title: decomposed + 'e\u0301' })).toMatchObject({
      ok: false,
      field: 'title',
    });
  });
});

describe('parseMarkValue', () => {
  it('reads marks in steps of 0.5 from 0 to the maximum', () => {
    expect(parseMarkValue('0', 20)).toEqual({ ok: true, value: { marks: 0, absent: false } });
    expect(parseMarkValue(' 17.5 ', 20)).toEqual({ ok: true, value: { marks: 17.5, absent: false } });
    expect(parseMarkValue(20, 20)).toEqual({ ok: true, value: { marks: 20, absent: false } });
    expect(parseMarkValue('17.50', 20)).toEqual({ ok: true, value: { marks: 17.5, absent: false } });
    expect(parseMarkValue('18.0', 20)).toEqual({ ok: true, value: { marks: 18, absent: false } });
  });

  it('reads absent and an empty cell', () => {
    for (const text of ['absent', 'Absent', 'AB', 'a']) {
      expect(parseMarkValue(text, 20)).toEqual({ ok: true, value: { marks: null, absent: true } });
    }
    expect(parseMarkValue('', 20)).toEqual({ ok: true, value: null });
  });

  // The last two would round to 20 as numbers: no mark anybody typed.
  it.each(['20.5', '-1', '17.25', '1e1', 'ten', '0x10', ' . ', '17.', '19.999999999999999999', '20.00000000000000001'])(
    'refuses %s',
    (text) => {
      expect(parseMarkValue(text, 20)).toEqual({ ok: false, field: 'value', message: M.marksInvalid(20) });
    },
  );

  it('refuses what is neither text nor number', () => {
    expect(parseMarkValue(null, 20).ok).toBe(false);
    expect(parseMarkValue({}, 20).ok).toBe(false);
  });

  it('writes back what it read', () => {
    expect(markText({ marks: 17.5, absent: false })).toBe('17.5');
    expect(markText({ marks: null, absent: true })).toBe('absent');
    expect(markText(null)).toBe('');
  });
});

describe('batches and figures', () => {
  it('shows students an average taken over 5 marks or more, while 5 students have marks', () => {
    expect(averageShownToStudents(5, 5)).toBe(true);
    expect(averageShownToStudents(6, 12)).toBe(true);
    // Taken over four: too few, however many have marks since.
    expect(averageShownToStudents(4, 9)).toBe(false);
    // Taken over five, and one of them cleared or marked absent since.
    expect(averageShownToStudents(5, 4)).toBe(false);
    expect(averageShownToStudents(null, 5)).toBe(false);
    expect(averageShownToStudents(undefined, undefined)).toBe(false);
  });

  it('matches a board, or every board', () => {
    expect(isInBatch({ grade: 4, board: 'CBSE' }, { grade: 4, board: 'CBSE' })).toBe(true);
    expect(isInBatch({ grade: 4, board: 'All' }, { grade: 4, board: 'State' })).toBe(true);
    expect(isInBatch({ grade: 4, board: 'ICSE' }, { grade: 4, board: 'CBSE' })).toBe(false);
    expect(isInBatch({ grade: 5, board: 'All' }, { grade: 4, board: 'CBSE' })).toBe(false);
  });

  it('counts in the singular for one', () => {
    expect(MarksText.marks(1)).toBe('1 mark');
    expect(MarksText.marks(0)).toBe('0 marks');
    expect(MarksText.marks(200)).toBe('200 marks');
    expect(MarksText.changes(1)).toBe('1 change');
    expect(MarksText.unsaved(1)).toBe('1 changed mark is not saved yet.');
    expect(MarksText.unsaved(2)).toBe('2 changed marks are not saved yet.');
    expect(MarksText.needAttention(1)).toBe('1 row needs attention');
    expect(MarksText.needAttention(4)).toBe('4 rows need attention');
    expect(MarksText.allGood(1)).toBe('The row is good.');
    expect(MarksText.allGood(3)).toBe('All 3 rows are good.');
    expect(MarksText.leftAsTheyAre(1)).toBe('1 with no marks is left as it is.');
    expect(MarksText.leftAsTheyAre(2)).toBe('2 with no marks are left as they are.');
    expect(MarksText.rowsWithErrors(1, 1)).toBe('1 of 1 row has an error. Fix it in the file and choose it again.');
    expect(MarksText.rowsWithErrors(2, 5)).toBe('2 of 5 rows have errors. Fix them in the file and choose it again.');
    expect(M.csvHasErrors(1)).toBe('1 row has an error: nothing was saved. Preview the file to see them.');
  });

  it('rounds percentages to one decimal, a half tenth up, for every mark a test can have', () => {
    expect(percentage(18, 20)).toBe(90);
    expect(percentage(1, 3)).toBe(33.3);
    // 50.25% and 50.05%: divided first, they came out a hair under and went down.
    expect(percentage(100.5, 200)).toBe(50.3);
    expect(percentage(500.5, 1000)).toBe(50.1);
    expect(averagePercentage([{ marks: 100.5, maxMarks: 200 }])).toBe(50.3);
    expect(
      averagePercentage([
        { marks: 1, maxMarks: 7 },
        { marks: 2, maxMarks: 7 },
      ]),
    ).toBe(21.4);
    // Every mark (0 to the maximum in halves) of every maximum (1 to 1000), beside whole-number
    // arithmetic: tenths of a percent = floor((halves × 1000 + max) / (2 × max)).
    const wrong: string[] = [];
    for (let max = 1; max <= 1000; max++) {
      for (let halves = 0; halves <= 2 * max; halves++) {
        const [a, b] = [halves * 1000 + max, 2 * max];
        const tenths = (a - (a % b)) / b;
        if (percentage(halves / 2, max) !== tenths / 10) wrong.push(`${halves / 2} / ${max}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('writes the publication mail as promised', () => {
    const mail = marksPublishedEmail(
      'Asha',
      { subject: 'Mathematics', title: 'Unit Test 3', marks: 18, maxMarks: 20 },
      'http://x/dashboard/progress',
    );
    expect(mail.subject).toBe('New marks in Mathematics: Unit Test 3, 18 / 20');
    expect(mail.text).toContain('http://x/dashboard/progress');
  });
});

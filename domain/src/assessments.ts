// Assessments and marks: the rules an admin's input must pass, shared by the
// admin screens (instant feedback) and the cloud code (enforcement).

import { ALL_BOARDS, GRADES, type BoardOrAll, type Grade } from './constants.ts';
import { parseBoardOrAll } from './registration.ts';
import { isEnteredDate } from './dates.ts';
import { ProblemList, unknownFieldProblem, type Checked } from './field-problems.ts';
import { RegistrationMessage, UiMessage } from './messages.ts';
import { wholeNumber } from './whole-number.ts';
import { hasControlCharacters, showsNothing, typedText } from './plain-text.ts';
import { SUBJECTS } from './subjects.ts';

export type Subject = (typeof SUBJECTS)[number];

export const ASSESSMENT_STATUSES = ['draft', 'published'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

export const TITLE_MAX_LENGTH = 80;
export const MAX_MARKS_MIN = 1;
export const MAX_MARKS_MAX = 1000;
/** Marks go in steps of half a mark. */
export const MARKS_STEP = 0.5;
/**
 * The batch average is shown to students only when at least this many students
 * have marks: with fewer, one child's mark could be worked out from it.
 */
export const AVERAGE_MIN_STUDENTS = 5;

/**
 * Whether students see the average they are shown (`shownAverage`): it was taken over at
 * least AVERAGE_MIN_STUDENTS marks (`shownCount`), and that many students have marks now
 * (`markedCount`: a mark cleared or changed to Absent can take the batch below it).
 */
export function averageShownToStudents(shownCount: unknown, markedCount: unknown): boolean {
  return Number(shownCount ?? 0) >= AVERAGE_MIN_STUDENTS && Number(markedCount ?? 0) >= AVERAGE_MIN_STUDENTS;
}

/** What a marks cell or a CSV row says for a student who missed the test. */
export const ABSENT = 'absent';
/** Rows in one CSV file. */
export const MARKS_MAX_ROWS = 5000;
/**
 * Rows in one save from the marks grid (the changed rows of the pages an admin has
 * typed in): 2,000 rows of the longest kind ({"id":1234567,"value":"absent"}) fit in
 * the 100 kB any call may send, with room to spare.
 */
export const MARKS_SAVE_MAX_ROWS = 2000;

export const AssessmentMessage = {
  /** The student's progress page, when its data did not come. */
  progressNotLoaded: 'Your results could not be loaded.',
  gradeRequired: RegistrationMessage.gradeRequired,
  gradeInvalid: 'Grade must be between 1 to 9',
  boardInvalid: 'Choose a board, or all boards',
  statusInvalid: 'Status must be draft or published',
  statusByPublishing: 'The status changes only by publishing (POST /api/assessments/{objectId}/publish)',
  subjectInvalid: 'Choose a subject from the list',
  titleRequired: 'Please enter a title',
  titleControlCharacters: 'The title must not contain control characters or direction marks',
  titleTooLong: `Title must be at most ${TITLE_MAX_LENGTH} characters`,
  dateInvalid: 'Please enter a valid date',
  maxMarksInvalid: `Maximum marks must be a whole number from ${MAX_MARKS_MIN} to ${MAX_MARKS_MAX}`,
  maxMarksBelowMarks: 'Maximum marks cannot be less than marks already entered',
  batchFixedOnceMarked: 'The grade and board cannot change once marks are entered',
  changedMeanwhile: 'Someone has just changed this assessment: nothing was saved. Reload it and try again',
  batchChangedMeanwhile: "The assessment's grade or board has just changed: nothing was saved. Reload it and try again",
  studentChangedMeanwhile:
    'A student has just moved to another batch or been deactivated: nothing was saved. Try again to see which',
  /** A grid row whose mark another admin saved since the grid showed it (`now`: the stored value, '' for none). */
  markChangedMeanwhile: (now: string) =>
    `Someone else has just ${now === '' ? 'cleared these marks' : now === ABSENT ? 'marked this student absent' : `saved ${now}`}: yours was not saved. Check it and save again`,
  beforeInvalid: 'before must be the marks the table showed as saved: a number, "absent" or ""',
  notFound: 'Assessment not found',
  publishedCannotBeDeleted: 'A published assessment cannot be deleted: its marks are part of the record',
  alreadyPublished: 'This assessment is already published',
  marksInvalid: (max: number) => `Marks must be from 0 to ${max} in steps of 0.5, or absent`,
  unknownStudent: 'No student has this enrollment id',
  otherBatch: 'This student is not in the batch of this assessment',
  studentDeactivated: 'This student is deactivated: reactivate them to give marks',
  studentErased: "This student's personal data has been erased: they get no new marks",
  duplicateRow: 'This enrollment id appears more than once',
  malformedLine: 'Expected two columns: enrollment id, marks (or absent)',
  thousandsSeparator: 'Write the marks without a thousands separator, as 1000 or 7.5 (or 7,5)',
  enrollmentIdInvalid: 'The enrollment id must be a whole number',
  quoteBroken: 'A quote (") on this line or above is not closed, or has other characters after it',
  controlCharacter:
    'This line has an invisible control character (shown as �): type the line again in your spreadsheet',
  notCsv: 'This is not a CSV file: save it from your spreadsheet as "CSV UTF-8" and choose that file',
  csvTooLarge:
    'The file is larger than the 100 kB the site takes at once (about 5,000 rows): split it into smaller files, or check it is the right file',
  csvUnreadable: 'The file could not be read. Choose it again',
  emptyFile: 'The file has no rows',
  csvHasErrors: (count: number) =>
    `${countOf(count, 'row')} ${count === 1 ? 'has an error' : 'have errors'}: nothing was saved. Preview the file to see them.`,
  tooManyRows: `At most ${MARKS_MAX_ROWS} rows at once`,
  tooManyRowsToSave: `Save at most ${MARKS_SAVE_MAX_ROWS} changed rows at once`,
  rowIdInvalid: "Each row needs the student's enrollment id, a whole number from 1",
} as const;

export interface AssessmentInput {
  grade?: unknown;
  board?: unknown;
  subject?: unknown;
  title?: unknown;
  date?: unknown;
  maxMarks?: unknown;
}

export interface ValidAssessment {
  grade: Grade;
  board: BoardOrAll;
  subject: Subject;
  title: string;
  date: string;
  maxMarks: number;
}

export type AssessmentField = keyof AssessmentInput;
export type Check<T, F extends string = string> = { ok: true; value: T } | { ok: false; field: F; message: string };

/** Checks a whole assessment, field by field in the form's order, and names every field's problem. */
export function validateAssessment(input: AssessmentInput): Checked<ValidAssessment, AssessmentField> {
  const M = AssessmentMessage;
  const problems = new ProblemList<AssessmentField>();

  // Not chosen (the form's empty field) is said as such, as on the registration form.
  const grade = wholeNumber(input.grade);
  if (input.grade === undefined || input.grade === null || input.grade === '') problems.add('grade', M.gradeRequired);
  else if (grade === null || !(GRADES as readonly number[]).includes(grade)) problems.add('grade', M.gradeInvalid);
  const board = parseBoardOrAll(input.board);
  if (!board) problems.add('board', M.boardInvalid);
  const subject = SUBJECTS.find((s) => s === input.subject);
  if (!subject) problems.add('subject', M.subjectInvalid);
  const title = typedText(input.title).replace(/\s+/g, ' ');
  if (showsNothing(title)) problems.add('title', M.titleRequired);
  else if (hasControlCharacters(title)) problems.add('title', M.titleControlCharacters);
  else if ([...title].length > TITLE_MAX_LENGTH) problems.add('title', M.titleTooLong);
  const date = isEnteredDate(input.date) ? input.date : null;
  if (date === null) problems.add('date', M.dateInvalid);
  const maxMarks = wholeNumber(input.maxMarks);
  if (maxMarks === null || maxMarks < MAX_MARKS_MIN || maxMarks > MAX_MARKS_MAX) {
    problems.add('maxMarks', M.maxMarksInvalid);
  }
  return problems.result(() => ({
    grade: grade as Grade,
    board: board!,
    subject: subject!,
    title,
    date: date!,
    maxMarks: maxMarks!,
  }));
}

/** The fields of an assessment a client writes (and the activity log records). */
export const ASSESSMENT_FIELDS = ['grade', 'board', 'subject', 'title', 'date', 'maxMarks'] as const;
/**
 * The fields of an assessment's record that an edit does not write: worked out by the site,
 * and ignored when a client sends a listed record back; the status only as it is stored.
 */
const RECORD_ONLY_FIELDS = ['status', 'publishedAt', 'average', 'markedCount', 'shownAverage'];

/**
 * Why a request to create (no `stored`) or edit an assessment names a field it cannot
 * write, or undefined: an unknown field is refused rather than ignored, and so is another
 * status than the stored one (it changes by publishing only).
 */
export function otherFieldProblem(
  params: Record<string, unknown>,
  stored?: { status: AssessmentStatus },
): { field?: 'status'; message: string } | undefined {
  if (stored && 'status' in params && params.status !== stored.status) {
    return { field: 'status', message: AssessmentMessage.statusByPublishing };
  }
  // An edit's id comes from its path; a listed record's worked-out fields are ignored.
  const known = stored ? [...ASSESSMENT_FIELDS, 'objectId', ...RECORD_ONLY_FIELDS] : ASSESSMENT_FIELDS;
  const unknown = unknownFieldProblem(params, known);
  return unknown === undefined ? undefined : { message: unknown };
}

/** A student's result: marks, absent, or nothing entered (null). */
export type MarkValue = { marks: number; absent: false } | { marks: null; absent: true } | null;

/**
 * A marks cell or CSV value: "18", "17.5", "absent" (any case, or "A"/"AB"), or
 * empty for no mark. Marks run from 0 to the maximum in steps of 0.5.
 */
export function parseMarkValue(value: unknown, maxMarks: number): Check<MarkValue, 'value'> {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null) return { ok: false, field: 'value', message: AssessmentMessage.marksInvalid(maxMarks) };
  if (text === '') return { ok: true, value: null };
  if (/^(absent|a|ab)$/i.test(text)) return { ok: true, value: { marks: null, absent: true } };
  // Written in halves ("17", "17.5", "17.50"): digits past the half would be rounded away by
  // Number() ("19.999999999999999999" is 20), and taken for a mark nobody typed.
  const marks = /^\d+(\.(0+|50*))?$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(marks) || marks < 0 || marks > maxMarks || !Number.isInteger(marks / MARKS_STEP)) {
    return { ok: false, field: 'value', message: AssessmentMessage.marksInvalid(maxMarks) };
  }
  return { ok: true, value: { marks, absent: false } };
}

/** The text a marks cell shows for a stored value: "18", "absent" or "". */
export function markText(value: MarkValue): string {
  if (!value) return '';
  return value.absent ? ABSENT : String(value.marks);
}

/** Does an assessment of this grade and board concern a student of that grade and board? */
export function isInBatch(assessment: { grade: number; board: string }, student: { grade: number; board: string }) {
  return assessment.grade === student.grade && (assessment.board === ALL_BOARDS || assessment.board === student.board);
}

/** A count with its noun, in the singular for one: "1 row", "3 rows". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** The texts of the marks screens (grid and CSV import) that count something, right for one and for many. */
export const MarksText = {
  /** "Saved 1 mark", "Save 3 marks". */
  marks: (count: number) => countOf(count, 'mark'),
  /** The grid's Save button: "Save 1 change". */
  changes: (count: number) => countOf(count, 'change'),
  /** The question before leaving the grid. */
  /** The marks grid's students did not load: with none on screen, or with those of before. */
  studentsNotLoaded: UiMessage.studentsNotLoaded,
  studentsNotLoadedShowingBefore: UiMessage.studentsNotLoadedShowingBefore,
  unsaved: (count: number) => `${countOf(count, 'changed mark')} ${count === 1 ? 'is' : 'are'} not saved yet.`,
  /** Rows of the grid the cell or the server refused. */
  needAttention: (rows: number) => `${countOf(rows, 'row')} ${rows === 1 ? 'needs' : 'need'} attention`,
  /** A CSV preview with no error. */
  allGood: (rows: number) => (rows === 1 ? 'The row is good.' : `All ${rows} rows are good.`),
  /** A CSV preview's rows with no marks, which change nothing. */
  leftAsTheyAre: (rows: number) => `${rows} with no marks ${rows === 1 ? 'is left as it is' : 'are left as they are'}.`,
  /** A student listed with an assessment of the batch they have left: "Now in 8th ICSE". */
  movedTo: (batch: string) => `Now in ${batch}`,
  /** A deactivated (or erased) student listed with the marks given before. */
  deactivated: 'Deactivated: keeps the marks given here',
  /** The same, under the student's name on a phone (the grid's note column is off the screen). */
  deactivatedShort: 'Deactivated',
  /**
   * The question before publishing: who sees it and gets mail (`marked`: students
   * with marks so far), and the grid's unsaved cells it leaves out.
   */
  publish: (title: string, marked: number, unsaved: number) =>
    (unsaved
      ? `${MarksText.unsaved(unsaved)} Publishing leaves ${unsaved === 1 ? 'it' : 'them'} out until saved. `
      : '') +
    (marked === 0
      ? `No student has marks on “${title}” yet: each student sees it, and gets an e-mail, when their marks are saved.`
      : `Students will see “${title}”, and each active student with marks gets an e-mail ` +
        `(${countOf(marked, 'student')} with marks so far). Marks can still be corrected afterwards.`),
  /** A CSV preview with errors. */
  rowsWithErrors: (errors: number, rows: number) =>
    `${errors} of ${countOf(rows, 'row')} ${errors === 1 ? 'has an error' : 'have errors'}. ` +
    `Fix ${errors === 1 ? 'it' : 'them'} in the file and choose it again.`,
} as const;

/** A figure to one decimal, as students see averages: 14.25 is 14.3. */
export function toOneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * A percentage with one decimal, as students see it. Multiplied before it is divided: marks
 * in halves times 1000 are whole, so a percentage ending in half a tenth (100.5 / 200 is
 * 50.25%) stays exact and goes up, where dividing first left it a hair under (50.2%).
 */
export function percentage(marks: number, maxMarks: number): number {
  return Math.round((marks * 1000) / maxMarks) / 10;
}

/**
 * The average percentage of several results, with one decimal: of the exact percentages,
 * rounded once (1/7 and 2/7 are 21.4%, not 21.5% from the rounded 14.3% and 28.6%).
 */
export function averagePercentage(results: readonly { marks: number; maxMarks: number }[]): number {
  return toOneDecimal(results.reduce((sum, r) => sum + (r.marks * 100) / r.maxMarks, 0) / results.length);
}

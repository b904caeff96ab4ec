// JSON Schemas of what travels on the wire. They are the documentation (the
// OpenAPI document embeds them as they are) and, through json-schema-to-ts, the
// TypeScript types of the client: one declaration for both. They describe; the
// cloud code's rules in domain/ decide what is accepted.

import {
  ASSESSMENT_STATUSES,
  MARKS_SAVE_MAX_ROWS,
  MAX_MARKS_MAX,
  MAX_MARKS_MIN,
  TITLE_MAX_LENGTH,
} from '../assessments.ts';
import { BOARDS, GENDERS, GRADES, LIST_MAX_LIMIT, LIST_SORT_FIELDS, BOARDS_OR_ALL } from '../constants.ts';
import { SUBJECTS } from '../subjects.ts';
import { SLOT_FIELDS } from '../timetable.ts';

export const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;

/** A 6-digit code, as text or as a whole number ("123456" or 123456). */
export const oneTimeCode = (description: string) => ({ description, oneOf: [str, int] }) as const;
const bool = { type: 'boolean' } as const;

/** Builds `{type: 'object', properties, required}` keeping the literal types. */
export function object<const P extends Record<string, unknown>, const R extends readonly (keyof P & string)[] = []>(
  properties: P,
  required?: R,
) {
  return {
    type: 'object',
    properties,
    required: (required ?? []) as unknown as R,
    additionalProperties: false,
  } as const;
}

export const success = object({ success: { const: true } }, ['success']);

const grade = { type: 'integer', enum: GRADES } as const;
const board = { type: 'string', enum: BOARDS } as const;
const gender = { type: 'string', enum: GENDERS } as const;
const isoDate = { type: 'string', format: 'date', description: 'YYYY-MM-DD' } as const;

export const studentProfile = object(
  {
    fullname: str,
    email: str,
    mobile: { type: 'string', description: '10 digits' },
    board,
    grade,
    gender,
    dob: isoDate,
    id: { type: 'integer', description: 'The enrollment number' },
  },
  ['fullname', 'email', 'mobile', 'board', 'grade', 'gender', 'dob', 'id'],
);

/** The profile's fields an erasure removes from a student's record. */
const ERASED_FIELDS: readonly string[] = ['mobile', 'dob', 'gender'];

export const studentRecord = object(
  {
    ...studentProfile.properties,
    objectId: str,
    createdAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['active', 'deactivated'], description: 'Missing means active' },
    erased: {
      type: 'boolean',
      description:
        'The personal data has been erased: mobile, dob and gender are then absent, fullname and email placeholders',
    },
    erasureUnfinished: {
      type: 'boolean',
      description: "Erased, but a fault stopped the erasure's last steps: erasing again finishes them",
    },
  },
  // Every field of the profile but those an erasure removes (see `erased`).
  [...studentProfile.required.filter((name) => !ERASED_FIELDS.includes(name)), 'objectId', 'createdAt'],
);

export const registration = object(
  {
    fullname: str,
    email: str,
    mobile: { type: 'string', description: 'An Indian mobile number: 9876543210, 09876543210 or +91 98765 43210' },
    password: { type: 'string', minLength: 8, maxLength: 64 },
    cnfpassword: str,
    dob: isoDate,
    gender,
    grade: { description: 'A number 1-9, or "3rd"', oneOf: [grade, str] },
    board,
    tmc: { const: true, description: 'The terms and conditions were accepted' },
    otp: oneTimeCode('The 6-digit code texted by send-sms'),
  },
  ['fullname', 'email', 'mobile', 'password', 'cnfpassword', 'dob', 'gender', 'grade', 'board', 'tmc', 'otp'],
);

export const studentListQuery = object({
  skip: { ...int, minimum: 0, default: 0 },
  limit: { ...int, minimum: 1, maximum: LIST_MAX_LIMIT, default: 50 },
  q: { type: 'string', description: 'Name, e-mail or mobile contains' },
  sort: {
    type: 'string',
    description: `One of ${LIST_SORT_FIELDS.join(', ')}; a leading - sorts descending`,
  },
  grade,
  board,
  status: {
    type: 'string',
    enum: ['active', 'deactivated', 'all'],
    description: 'active (the default), deactivated or all',
  },
});

const keptAsStored = 'Read-only: taken only with the value stored, which changes nothing';
export const studentChanges = object({
  objectId: { type: 'string', description: 'In the path' },
  gender,
  mobile: str,
  email: str,
  dob: isoDate,
  board,
  grade,
  fullname: { type: 'string', description: keptAsStored },
  id: { type: 'integer', description: keptAsStored },
  status: { type: 'string', enum: ['active', 'deactivated'], description: `${keptAsStored} (its own call changes it)` },
  createdAt: { type: 'string', format: 'date-time', description: 'Ignored' },
  updatedAt: { type: 'string', format: 'date-time', description: 'Ignored' },
  before: {
    type: 'object',
    description:
      'Optional: the fields to change as they were shown (e.g. {"grade": 3}); a field another admin has changed since is refused (400) rather than overwritten',
    properties: { gender, mobile: str, email: str, dob: isoDate, board, grade },
    additionalProperties: false,
  },
});

export const exists = object({ exists: bool }, ['exists']);
export const messageId = object({ messageId: str }, ['messageId']);

/** A solved ALTCHA challenge (base64 JSON), sent with a login after a 3052 answer. */
export const altcha = {
  type: 'string',
  description: "The ALTCHA widget's solution, when the login asked for one",
} as const;

export const altchaChallenge = object(
  { algorithm: str, challenge: str, maxnumber: { type: 'integer' }, salt: str, signature: str },
  ['algorithm', 'challenge', 'salt', 'signature'],
);

const backupRun = object({ startedAt: str, finishedAt: str, ok: bool, file: str, bytes: int, error: str }, [
  'startedAt',
  'ok',
]);
export const operationsStatus = object(
  {
    backups: object(
      {
        schedule: str,
        timezone: str,
        keep: int,
        directory: str,
        nextRun: str,
        last: backupRun,
        lastSuccess: backupRun,
      },
      ['schedule', 'timezone', 'keep', 'directory'],
    ),
  },
  ['backups'],
);

// Assessments and progress.
const num = { type: 'number' } as const;
const assessmentBoard = {
  type: 'string',
  enum: BOARDS_OR_ALL,
  description: 'A board, or All for every board',
} as const;
const subject = { type: 'string', enum: SUBJECTS } as const;

export const assessmentFields = {
  grade,
  board: assessmentBoard,
  subject,
  title: { type: 'string', minLength: 1, maxLength: TITLE_MAX_LENGTH },
  date: isoDate,
  maxMarks: { type: 'integer', minimum: MAX_MARKS_MIN, maximum: MAX_MARKS_MAX },
} as const;

export const assessmentInput = object(assessmentFields, ['grade', 'board', 'subject', 'title', 'date', 'maxMarks']);
export const assessmentChanges = object({
  objectId: { type: 'string', description: 'In the path' },
  ...assessmentFields,
  status: { type: 'string', enum: ASSESSMENT_STATUSES, description: `${keptAsStored} (publishing changes it)` },
  publishedAt: { type: 'string', format: 'date-time', description: 'Ignored' },
  average: { type: 'number', description: 'Ignored' },
  markedCount: { type: 'integer', description: 'Ignored' },
  shownAverage: { type: 'number', description: 'Ignored' },
});
/** The request of a call whose only input is the record's id, in its path. */
export const objectIdParam = object({ objectId: { type: 'string', description: 'In the path' } }, ['objectId']);

export const assessmentRecord = object(
  {
    objectId: str,
    ...assessmentFields,
    status: { type: 'string', enum: ASSESSMENT_STATUSES },
    publishedAt: { type: 'string', format: 'date-time' },
    average: { ...num, description: 'Mean marks of the students with marks (absent left out), to one decimal' },
    markedCount: { ...int, description: 'Students with marks (not absent)' },
    shownAverage: {
      ...num,
      description:
        "The average students see, to one decimal, when they see one: taken at publishing, then again once 5 students' marks have changed",
    },
  },
  ['objectId', 'grade', 'board', 'subject', 'title', 'date', 'maxMarks', 'status', 'markedCount'],
);

export const assessmentListQuery = object({
  skip: { ...int, minimum: 0, default: 0 },
  limit: { ...int, minimum: 1, maximum: 500, default: 50 },
  grade,
  board: {
    ...assessmentBoard,
    description:
      'A board lists its own assessments and those for all boards (its batches sit both); "All" lists only the latter',
  },
  status: { type: 'string', enum: ASSESSMENT_STATUSES },
});

const markValue = {
  type: 'string',
  description: 'Marks from 0 to the maximum in steps of 0.5 ("17.5"), "absent", or "" for no mark',
} as const;

export const markListQuery = object(
  {
    objectId: { type: 'string', description: 'In the path' },
    skip: { ...int, minimum: 0, default: 0 },
    limit: { ...int, minimum: 1, maximum: 500, default: 50 },
    q: { type: 'string', description: 'Name contains, or the enrollment id' },
  },
  ['objectId'],
);

export const markRow = object(
  {
    studentId: str,
    id: { ...int, description: 'The enrollment number' },
    fullname: str,
    grade: { ...int, description: "The student's grade now (one who has moved batch keeps the marks given here)" },
    board,
    status: {
      type: 'string',
      enum: ['active', 'deactivated'],
      description: 'A deactivated (or erased) student is listed only with the marks given here',
    },
    value: markValue,
  },
  ['studentId', 'id', 'fullname', 'grade', 'board', 'status', 'value'],
);

export const marksChanges = object(
  {
    objectId: { type: 'string', description: 'In the path' },
    rows: {
      type: 'array',
      maxItems: MARKS_SAVE_MAX_ROWS,
      items: object(
        {
          id: { ...int, description: 'The enrollment number' },
          value: markValue,
          before: {
            ...markValue,
            description:
              'Optional: the marks the client showed as saved. When someone else has saved other marks since, the row is not saved and comes back in `errors` with `now`',
          },
        },
        ['id', 'value'],
      ),
    },
  },
  ['objectId', 'rows'],
);

export const marksSaved = object(
  {
    saved: int,
    errors: {
      type: 'array',
      items: object(
        {
          id: int,
          message: str,
          now: {
            type: 'string',
            description: "The marks stored now ('' for none), when someone else saved them since `before`",
          },
        },
        ['id', 'message'],
      ),
    },
  },
  ['saved', 'errors'],
);

export const marksCsv = object(
  {
    objectId: { type: 'string', description: 'In the path' },
    csv: {
      type: 'string',
      description:
        "Lines of `enrollment id,marks` (or `absent`); a header line is skipped; a blank marks cell leaves the student's marks as they are",
    },
  },
  ['objectId', 'csv'],
);

export const marksCsvPreview = object(
  {
    rows: {
      type: 'array',
      items: object(
        {
          line: int,
          id: int,
          fullname: str,
          value: str,
          error: { type: 'string', description: 'Why the row cannot be saved' },
          unchanged: { type: 'boolean', description: "The marks cell is blank: the student's marks stay as they are" },
        },
        ['line', 'value'],
      ),
    },
    errorCount: int,
    unchangedCount: { ...int, description: 'Rows with a blank marks cell, left as they are' },
  },
  ['rows', 'errorCount', 'unchangedCount'],
);

export const progress = object(
  {
    assessments: {
      type: 'array',
      description: 'Published assessments with a result of the student, newest first',
      items: object(
        {
          objectId: str,
          subject: str,
          title: str,
          date: isoDate,
          maxMarks: int,
          absent: bool,
          marks: num,
          percentage: num,
          batchAverage: {
            ...num,
            description:
              "Only when at least 5 students of the batch have marks. Taken at publishing, then again once 5 students' marks have changed",
          },
          batchAveragePercentage: num,
        },
        ['objectId', 'subject', 'title', 'date', 'maxMarks', 'absent'],
      ),
    },
    subjects: {
      type: 'array',
      items: object(
        {
          subject: str,
          averagePercentage: num,
          points: {
            type: 'array',
            description: 'Oldest first',
            items: object({ date: isoDate, title: str, percentage: num }, ['date', 'title', 'percentage']),
          },
        },
        ['subject', 'averagePercentage', 'points'],
      ),
    },
  },
  ['assessments', 'subjects'],
);

// The study schedule.

const slotBoard = { type: 'string', enum: BOARDS_OR_ALL, description: '"All" for every board of the grade' } as const;
const weekday = { type: 'integer', minimum: 1, maximum: 7, description: '1 is Monday, 7 is Sunday' } as const;
const hhmm = { type: 'string', description: 'HH:mm, 24 h, in the centre time zone' } as const;

const slotProperties = {
  grade,
  board: slotBoard,
  subject,
  weekday,
  start: hhmm,
  duration: { type: 'integer', minimum: 15, maximum: 180, description: 'Minutes' },
  teacher: { type: 'string', minLength: 1, maxLength: 60 },
  link: { type: 'string', description: 'An https:// online-class link, or "" for none' },
} as const;

// Every field but the link, which may be left out.
export const slotInput = object(
  slotProperties,
  SLOT_FIELDS.filter((field) => field !== 'link'),
);
export const slotChanges = object({
  objectId: { type: 'string', description: 'In the path' },
  ...slotProperties,
  end: { type: 'string', description: 'Ignored (worked out from the start and duration)' },
});
export const slot = object({ objectId: str, ...slotProperties, end: hhmm }, [
  'objectId',
  'grade',
  'board',
  'subject',
  'weekday',
  'start',
  'end',
  'duration',
  'teacher',
  'link',
]);
export const slotQuery = object({ grade, board: slotBoard }, ['grade']);

export const holidayInput = object(
  {
    title: { type: 'string', minLength: 1, maxLength: 80 },
    from: isoDate,
    to: { ...isoDate, description: 'The last day, YYYY-MM-DD; leave out for one day' },
  },
  ['title', 'from'],
);
export const holiday = object({ objectId: str, title: str, from: isoDate, to: isoDate }, [
  'objectId',
  'title',
  'from',
  'to',
]);

const scheduledClass = object(
  {
    slotId: str,
    subject,
    teacher: str,
    board: slotBoard,
    link: { type: 'string', description: '"" when the class has no online link' },
    date: isoDate,
    start: hhmm,
    end: hhmm,
    startsAt: { type: 'string', format: 'date-time' },
    endsAt: { type: 'string', format: 'date-time' },
  },
  ['slotId', 'subject', 'teacher', 'board', 'link', 'date', 'start', 'end', 'startsAt', 'endsAt'],
);

export const scheduleQuery = object({
  week: { ...isoDate, description: 'Any day of the wanted week (Monday to Sunday); this week when left out' },
});
export const schedule = object(
  {
    timeZone: { type: 'string', description: 'The centre time zone every time is in, e.g. Asia/Kolkata' },
    today: isoDate,
    weekStart: isoDate,
    grade,
    board,
    hasTimetable: { type: 'boolean', description: 'Whether the batch has any class at all' },
    next: { ...scheduledClass, description: 'The class going on now or the next one; absent when none' },
    following: {
      ...scheduledClass,
      description:
        'The class straight after `next` on its day when its Join opens before `next` ends (classes back to back, or under 10 minutes apart); absent otherwise',
    },
    days: {
      type: 'array',
      items: object(
        {
          date: isoDate,
          weekday,
          holiday: { type: 'string', description: 'The holiday title; "" on an ordinary day' },
          classes: { type: 'array', items: scheduledClass },
        },
        ['date', 'weekday', 'holiday', 'classes'],
      ),
    },
  },
  ['timeZone', 'today', 'weekStart', 'grade', 'board', 'hasTimetable', 'days'],
);

export const calendarFeed = object(
  {
    url: { type: 'string', description: 'The private .ics address (no login needed: keep it secret)' },
    webcalUrl: { type: 'string', description: 'The same as webcal://, which calendar apps open to subscribe' },
  },
  ['url', 'webcalUrl'],
);

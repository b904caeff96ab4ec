// Fills the database with realistic students through a fast path: one bcrypt
// hash for all, enrollment numbers from the sequence, bulk INSERTs of rows in
// Parse's own column layout (issue: benchmarks and scale).

import { randomBytes, randomInt } from 'node:crypto';
import { hash } from '@node-rs/bcrypt';
import { BOARDS, GENDERS, GRADES, MAX_AGE_YEARS, MIN_AGE_YEARS, ALL_BOARDS } from '@tc/domain/constants';
import {
  describeSlot,
  findClash,
  validateHoliday,
  validateSlot,
  type Slot,
  type SlotFields,
  type Subject,
} from '@tc/domain/timetable';
import { HASHED_PASSWORD_COLUMN } from '@tc/cloud/parse-storage';
import { SUBJECTS } from '@tc/domain/subjects';
import { addDays } from '@tc/domain/zoned-time';
import type { Sql } from './sql.ts';

export const SEED_PASSWORD = 'Student-pass-1';

const FIRST_NAMES = [
  'Aarav',
  'Vivaan',
  'Aditya',
  'Vihaan',
  'Arjun',
  'Sai',
  'Reyansh',
  'Ayaan',
  'Krishna',
  'Ishaan',
  'Rohan',
  'Kabir',
  'Dhruv',
  'Aryan',
  'Atharv',
  'Ananya',
  'Diya',
  'Aadhya',
  'Saanvi',
  'Pari',
  'Anika',
  'Navya',
  'Myra',
  'Sara',
  'Ira',
  'Riya',
  'Kiara',
  'Meera',
  'Tara',
  'Zoya',
  'Priya',
  'Neha',
  'Kavya',
  'Isha',
  'Nisha',
  'Rahul',
  'Karan',
  'Yash',
  'Dev',
  'Nikhil',
];
const LAST_NAMES = [
  'Sharma',
  'Verma',
  'Gupta',
  'Singh',
  'Kumar',
  'Patel',
  'Reddy',
  'Rao',
  'Nair',
  'Iyer',
  'Menon',
  'Das',
  'Bose',
  'Chatterjee',
  'Mukherjee',
  'Joshi',
  'Kulkarni',
  'Deshpande',
  'Pillai',
  'Shah',
  'Mehta',
  'Agarwal',
  'Banerjee',
  'Ghosh',
  'Khan',
  'Ali',
  'Fernandes',
  'DSouza',
  'Mishra',
  'Pandey',
];

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function objectId(): string {
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
}

function pick<T>(list: readonly T[]): T {
  return list[randomInt(list.length)]!;
}

function isoDaysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

const BATCH = 5_000;

/** Inserts `count` students; returns how many and how long it took. */
export async function seedStudents(sql: Sql, count: number): Promise<{ inserted: number; ms: number }> {
  const started = performance.now();
  const passwordHash = await hash(SEED_PASSWORD, 10);
  let inserted = 0;
  while (inserted < count) {
    const size = Math.min(BATCH, count - inserted);
    const { rows } = await sql.query<{ id: string }>(
      `SELECT nextval('student_enrollment_seq') AS id FROM generate_series(1, $1)`,
      [size],
    );
    const cols = {
      objectId: [] as string[],
      email: [] as string[],
      fullname: [] as string[],
      mobile: [] as string[],
      dob: [] as string[],
      gender: [] as string[],
      grade: [] as number[],
      board: [] as string[],
      enrollmentId: [] as number[],
    };
    for (const row of rows) {
      const id = Number(row.id);
      const first = pick(FIRST_NAMES);
      const last = pick(LAST_NAMES);
      const ageDays = randomInt(Math.ceil((MIN_AGE_YEARS + 0.1) * 365.25), Math.floor((MAX_AGE_YEARS - 3) * 365.25));
      cols.objectId.push(objectId());
      cols.email.push(`${first}.${last}.${id}@students.example.com`.toLowerCase());
      cols.fullname.push(`${first} ${last}`);
      cols.mobile.push(String(6_000_000_000 + id));
      cols.dob.push(isoDaysAgo(ageDays));
      cols.gender.push(pick(GENDERS));
      cols.grade.push(Math.min(9, Math.max(1, Math.floor(ageDays / 365.25) - 4)));
      cols.board.push(pick(BOARDS));
      cols.enrollmentId.push(id);
    }
    await sql.query(
      `INSERT INTO "_User" ("objectId", username, email, "${HASHED_PASSWORD_COLUMN}", fullname, mobile, dob, gender,
         grade, board, tmc, "enrollmentId", "_rperm", "_wperm", "createdAt", "updatedAt")
       SELECT o, e, e, $10, f, m, d, g, gr, b, true, eid, ARRAY[o], '{}'::text[], now(), now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                   $7::float8[], $8::text[], $9::float8[]) AS t(o, e, f, m, d, g, gr, b, eid)`,
      [
        cols.objectId,
        cols.email,
        cols.fullname,
        cols.mobile,
        cols.dob,
        cols.gender,
        cols.grade,
        cols.board,
        cols.enrollmentId,
        passwordHash,
      ],
    );
    inserted += size;
  }
  await sql.query('VACUUM ANALYZE "_User"');
  return { inserted, ms: performance.now() - started };
}

/**
 * A year of published assessments for every batch (grade and board), with marks
 * for every student of the batch (about 3 % absent): a few statements, however
 * many students. Rows go straight into Parse's tables, as the students do.
 */
export async function seedAssessments(
  sql: Sql,
  perBatch = 20,
): Promise<{ assessments: number; marks: number; ms: number }> {
  const started = performance.now();
  const { rows: made } = await sql.query<{ objectId: string }>(
    `INSERT INTO "Assessment" ("objectId", grade, board, subject, title, date, "maxMarks", status, "publishedAt",
       "markedCount", "shownCount", "changedSinceShown", "createdAt", "updatedAt", "_rperm", "_wperm")
     SELECT md5(random()::text || clock_timestamp()::text || g || b || n), g, b,
       ($3::text[])[1 + n % array_length($3::text[], 1)], 'Unit Test ' || n,
       to_char(current_date - (365 - n * (360 / $2)), 'YYYY-MM-DD'), (ARRAY[20, 25, 50, 100])[1 + n % 4],
       'published', now(), 0, 0, '[]'::jsonb, now(), now(), '{}', '{}'
     FROM generate_series(1, 9) AS g, unnest($1::text[]) AS b, generate_series(1, $2) AS n
     RETURNING "objectId"`,
    [BOARDS, perBatch, SUBJECTS],
  );
  const ids = made.map((row) => row.objectId);
  let marks = 0;
  // One grade at a time keeps each statement's memory modest.
  for (let grade = 1; grade <= 9; grade++) {
    const result = await sql.query(
      `INSERT INTO "Mark" ("objectId", "assessmentId", "studentId", marks, absent, "createdAt", "updatedAt", "_rperm", "_wperm")
       SELECT md5(a."objectId" || u."objectId"), a."objectId", u."objectId",
         CASE WHEN r < 0.03 THEN NULL ELSE round((a."maxMarks" * (0.35 + 0.65 * random()) * 2)::numeric) / 2 END,
         r < 0.03, now(), now(), '{}', '{}'
       FROM (SELECT *, random() AS r FROM "_User" WHERE "enrollmentId" IS NOT NULL AND grade = $2) AS u
       JOIN "Assessment" a ON a.grade = u.grade AND a.board = u.board AND a."objectId" = ANY($1::text[])
       ON CONFLICT DO NOTHING`,
      [ids, grade],
    );
    marks += result.rowCount ?? 0;
  }
  await sql.query(
    `UPDATE "Assessment" a SET average = s.average, "markedCount" = s.n, "shownAverage" = s.average, "shownCount" = s.n
     FROM (SELECT "assessmentId", avg(marks) AS average, count(marks)::int AS n FROM "Mark"
           WHERE "assessmentId" = ANY($1::text[]) AND absent IS NOT TRUE GROUP BY 1) s
     WHERE a."objectId" = s."assessmentId"`,
    [ids],
  );
  await sql.query('VACUUM ANALYZE "Assessment"');
  await sql.query('VACUUM ANALYZE "Mark"');
  return { assessments: ids.length, marks, ms: performance.now() - started };
}

const TEACHERS = [
  'Mrs Lakshmi Rao',
  'Mr Arvind Iyer',
  'Ms Farah Khan',
  'Mr Suresh Nair',
  'Mrs Kavita Joshi',
  'Mr Rahul Mehta',
  'Ms Priya Das',
  'Mrs Neha Kulkarni',
];
const JUNIOR_SUBJECTS: Subject[] = ['Mathematics', 'English', 'Hindi', 'Environmental Studies', 'Computer Science'];
const SENIOR_SUBJECTS: Subject[] = ['Mathematics', 'Science', 'English', 'Hindi', 'Social Studies', 'Computer Science'];

/**
 * A full week for every batch: two classes each weekday afternoon per grade and
 * board, and a Saturday class for all boards of each grade, in place for a year.
 * Every slot passes the domain rules, the clash rule included. Holidays: the centre's fixed ones from
 * today on. Kept as they are when the database has a timetable already.
 */
export async function seedTimetable(
  sql: Sql,
  today: string = new Date().toISOString().slice(0, 10),
): Promise<{ slots: number; holidays: number }> {
  const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "TimetableSlot"`);
  if (rows[0]!.n > 0) return { slots: 0, holidays: 0 };

  const slots: Slot[] = [];
  const add = (fields: SlotFields) => {
    const checked = validateSlot(fields);
    if (!checked.ok) throw new Error(`seed slot ${JSON.stringify(fields)}: ${checked.message}`);
    const clash = findClash(checked.value, slots);
    if (clash) throw new Error(`seed slot ${describeSlot(checked.value)} clashes with ${describeSlot(clash)}`);
    slots.push({ ...checked.value, objectId: objectId() });
  };
  for (const grade of GRADES) {
    const subjects = grade <= 5 ? JUNIOR_SUBJECTS : SENIOR_SUBJECTS;
    BOARDS.forEach((board, b) => {
      for (let weekday = 1; weekday <= 5; weekday++) {
        [
          { start: '16:00', duration: 60 },
          { start: '17:15', duration: 45 },
        ].forEach(({ start, duration }, n) => {
          const subject = subjects[(weekday * 2 + n + b + grade) % subjects.length]!;
          add({
            grade,
            board,
            subject,
            weekday,
            start,
            duration,
            teacher: TEACHERS[(grade + b * 3 + weekday + n) % TEACHERS.length]!,
            link: `https://meet.example.com/g${grade}-${board.toLowerCase()}-${weekday}${n}`,
          });
        });
      }
    });
    add({
      grade,
      board: ALL_BOARDS,
      subject: 'Mathematics',
      weekday: 6,
      start: '10:00',
      duration: 90,
      teacher: TEACHERS[grade % TEACHERS.length]!,
      link: '',
    });
  }
  await sql.query(
    `INSERT INTO "TimetableSlot" ("objectId", grade, board, subject, weekday, start, duration, teacher, link,
       "createdAt", "updatedAt")
     SELECT o, g, b, s, w, st, d, t, l, $10::timestamptz, $10::timestamptz
     FROM unnest($1::text[], $2::float8[], $3::text[], $4::text[], $5::float8[], $6::text[], $7::float8[],
                 $8::text[], $9::text[]) AS x(o, g, b, s, w, st, d, t, l)`,
    [
      slots.map((s) => s.objectId),
      slots.map((s) => s.grade),
      slots.map((s) => s.board),
      slots.map((s) => s.subject),
      slots.map((s) => s.weekday),
      slots.map((s) => s.start),
      slots.map((s) => s.duration),
      slots.map((s) => s.teacher),
      slots.map((s) => s.link),
      // Added a year back: a student's past weeks show the classes (none before the date added).
      `${addDays(today, -365)}T00:00:00Z`,
    ],
  );

  const year = Number(today.slice(0, 4));
  const holidays = [year, year + 1]
    .flatMap((y) => [
      { title: 'Republic Day', from: `${y}-01-26`, to: `${y}-01-26` },
      { title: 'Independence Day', from: `${y}-08-15`, to: `${y}-08-15` },
      { title: 'Gandhi Jayanti', from: `${y}-10-02`, to: `${y}-10-02` },
      { title: 'Winter break', from: `${y}-12-25`, to: `${y + 1}-01-01` },
    ])
    .filter((h) => h.to >= today && validateHoliday(h).ok);
  await sql.query(
    `INSERT INTO "Holiday" ("objectId", title, "from", "to", "createdAt", "updatedAt")
     SELECT o, t, f, e, now(), now() FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(o, t, f, e)`,
    [
      holidays.map(() => objectId()),
      holidays.map((h) => h.title),
      holidays.map((h) => h.from),
      holidays.map((h) => h.to),
    ],
  );
  return { slots: slots.length, holidays: holidays.length };
}

// Students for tests: unique e-mail and mobile on every call, every field valid, so
// each test owns its data. Used by the Vitest tests, the Playwright specs and the bench.

import { randomBytes, randomInt } from 'node:crypto';

export type Board = 'CBSE' | 'ICSE' | 'State';

/** A registration's fields (the body of POST /api/register, without the code). */
export interface NewStudent {
  fullname: string;
  email: string;
  mobile: string;
  password: string;
  cnfpassword: string;
  /** YYYY-MM-DD */
  dob: string;
  gender: 'Son' | 'Daughter';
  grade: number;
  board: Board;
  tmc: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as YYYY-MM-DD in local time. */
export function isoDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The date `years` years and `extraDays` days before today (local time), as YYYY-MM-DD. */
export function yearsAgo(years: number, extraDays = 0): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() - years);
  date.setDate(date.getDate() - extraDays);
  return isoDate(date);
}

/** A short text unique to this call: time and randomness, so parallel workers differ too. */
export function tag(): string {
  for (;;) {
    const made = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    // Never six digits in a row: a mail's code is its only such run (an invitation leaves
    // out an address that has one).
    if (!/\d{6}/.test(made)) return made;
  }
}

/** A 10-digit mobile starting with 9, different on every call of this process (random across processes). */
const usedMobiles = new Set<string>();
export function uniqueMobile(): string {
  for (;;) {
    const mobile = `9${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
    if (!usedMobiles.has(mobile)) {
      usedMobiles.add(mobile);
      return mobile;
    }
  }
}

/**
 * A unique student that passes every rule. Overrides may break a rule on purpose
 * (`newStudent({ grade: 10 })`): their types then win over the valid ones. The
 * confirmation follows an overridden password unless it is overridden too.
 */
export function newStudent<const O extends { [K in keyof NewStudent]?: unknown } = object>(
  overrides: O = {} as O,
): Omit<NewStudent, keyof O> & O {
  const t = tag();
  const password = typeof overrides.password === 'string' ? overrides.password : `Pass-${t}-9`;
  return {
    fullname: `Student ${t}`,
    email: `student-${t}@example.com`,
    mobile: uniqueMobile(),
    password,
    cnfpassword: password,
    dob: yearsAgo(10),
    gender: 'Son',
    grade: 4,
    board: 'CBSE',
    tmc: true,
    ...overrides,
  };
}

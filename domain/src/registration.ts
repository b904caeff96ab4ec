// The registration rules, in the original specification's order, each with its
// message. The client runs them for instant feedback; the cloud code runs
// them again to enforce them.

import {
  BOARDS,
  EMAIL_MAX_LENGTH,
  FULLNAME_MAX_LENGTH,
  GENDERS,
  GRADES,
  MAX_AGE_YEARS,
  MIN_AGE_YEARS,
  PASSWORD_MAX_BYTES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type Board,
  type Gender,
  type Grade,
  BOARDS_OR_ALL,
  type BoardOrAll,
} from './constants.ts';
import { ageInYears, isValidIsoDate, todayIso } from './dates.ts';
import { RegistrationMessage as M } from './messages.ts';
import { BLANK_LETTERS } from './plain-text.ts';

/** What the form (or an API caller) sends; anything may be missing or mistyped. */
export interface RegistrationInput {
  fullname?: unknown;
  email?: unknown;
  mobile?: unknown;
  password?: unknown;
  cnfpassword?: unknown;
  dob?: unknown;
  gender?: unknown;
  grade?: unknown;
  board?: unknown;
  tmc?: unknown;
}

/** A registration that passed every rule, normalised for storage. */
export interface ValidRegistration {
  fullname: string;
  email: string;
  mobile: string;
  password: string;
  dob: string;
  gender: Gender;
  grade: Grade;
  board: Board;
  tmc: true;
}

/** The fields of the registration form, as the API names them. */
export type RegistrationField = keyof RegistrationInput | 'otp';

export type RegistrationResult =
  { ok: true; value: ValidRegistration } | { ok: false; field: RegistrationField; message: string };

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Characters that show nothing or nothing of their own: controls, format
 * characters (zero-width space and joiners, soft hyphen, byte-order mark,
 * direction marks), private-use and unassigned code points, and the Hangul
 * fillers. `vic\u200btim@example.com` would otherwise register as a look-alike.
 */
const INVISIBLE = new RegExp(`[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}${BLANK_LETTERS}]`, 'u');

export function hasInvisibleCharacters(value: string): boolean {
  return INVISIBLE.test(value);
}

/**
 * The zero-width joiner and non-joiner after a letter or a sign of an Indian script (or of
 * Urdu's): how those scripts write some letters (Malayalam's chillu, Marathi's eyelash ra,
 * Bengali's khanda ta), which keyboards type. A name may hold them there; after a Latin
 * letter, or anywhere else, they are as invisible as any.
 */
const JOINING_SCRIPTS = [
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Arabic',
]
  .map((script) => `\\p{Script=${script}}`)
  .join('');
const SCRIPT_JOINER = new RegExp(`(?<=[${JOINING_SCRIPTS}])[\\u200C\\u200D]`, 'gu');

/** One spelling for what looks the same (NFKC: full-width letters, ligatures, composed accents). */
export function normalizeText(value: string): string {
  return value.normalize('NFKC').trim();
}

/** A person's name as it is checked and stored: one spelling (NFKC), one space between words. */
export function normalizeFullname(value: string): string {
  return normalizeText(value).replace(/\s+/g, ' ');
}

/**
 * What is wrong with a non-empty name (normalized), or null: a student's full name and an
 * administrator's name follow one rule, each told in its own field's words.
 */
export function fullnameProblem(name: string, words: { tooLong: string; invisible: string }): string | null {
  if (name.length > FULLNAME_MAX_LENGTH) return words.tooLong;
  if (hasInvisibleCharacters(name.replace(SCRIPT_JOINER, ''))) return words.invisible;
  return null;
}

export function normalizeEmail(value: string): string {
  return normalizeText(value).toLowerCase();
}

/**
 * The top-level domain that never resolves (RFC 2606): no mail reaches it, and an erased
 * account's address is in it (ERASED_DOMAIN, admin-tools.ts). A live account given one would
 * get no mail, and could take the address an erasure gives another.
 */
const NEVER_DELIVERED = '.invalid';

export function isValidEmail(value: string): boolean {
  const email = normalizeEmail(value);
  return (
    email.length <= EMAIL_MAX_LENGTH &&
    EMAIL_PATTERN.test(email) &&
    !hasInvisibleCharacters(email) &&
    !email.endsWith(NEVER_DELIVERED)
  );
}

/**
 * An Indian mobile number as its 10 digits: "+91 98765 43210",
 * "09876543210" and "9876543210" are one number. Null when it is not one.
 */
export function normalizeMobile(value: string): string | null {
  const compact = value.trim().replace(/[\s\-().]/g, '');
  if (!/^\+?\d+$/.test(compact)) return null;
  let digits = compact.replace(/^\+/, '');
  if (compact.startsWith('+')) {
    if (!digits.startsWith('91')) return null;
    digits = digits.slice(2);
  } else if (digits.length === 12 && digits.startsWith('91')) {
    digits = digits.slice(2);
  } else if (digits.length === 11 && digits.startsWith('0')) {
    digits = digits.slice(1);
  }
  return /^[1-9]\d{9}$/.test(digits) ? digits : null;
}

/**
 * What a search for a mobile number looks for among the stored mobiles (10
 * digits), or null when the search is not written like a number: a number
 * written in full in any form ("+91 98765 43210", "09876543210") as stored, and
 * the country code dropped from the start of a part ("+91 98765"). The admin's
 * table and its CSV export search alike.
 */
export function mobileSearchDigits(q: string): string | null {
  if (!/^[\d\s+\-()]+$/.test(q)) return null;
  const full = normalizeMobile(q);
  if (full) return full;
  const compact = q.replace(/[\s\-().]/g, '');
  const digits = (compact.startsWith('+91') ? compact.slice(3) : compact).replace(/\D/g, '');
  return digits || null;
}

/**
 * Passwords lose surrounding spaces everywhere (registration, reset, login), as
 * the seed's login form trims what it sends: a password typed with
 * a trailing space still works.
 */
export function normalizePassword(value: string): string {
  return value.trim();
}

/** The first password rule broken, or null. */
export function passwordProblem(password: string): string | null {
  if (!password) return M.passwordRequired;
  if ([...password].length < PASSWORD_MIN_LENGTH) return M.passwordTooShort;
  if ([...password].length > PASSWORD_MAX_LENGTH || new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES) {
    return M.passwordTooLong;
  }
  return null;
}

/** A grade as a number 1-9 from 3, "3" or "3rd"; null when it is none of them. */
export function parseGrade(value: unknown): Grade | null {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*\d+(st|nd|rd|th)?\s*$/i.test(value)) n = parseInt(value, 10);
  else return null;
  return (GRADES as readonly number[]).includes(n) ? (n as Grade) : null;
}

/** "1st" … "9th". */
export function gradeLabel(grade: number): string {
  const suffix = grade === 1 ? 'st' : grade === 2 ? 'nd' : grade === 3 ? 'rd' : 'th';
  return `${grade}${suffix}`;
}

/** The entry of `names` that `value` spells in any case (spaces around it aside), or null. */
function inAnyCase<T extends string>(names: readonly T[], value: unknown): T | null {
  if (typeof value !== 'string') return null;
  const wanted = value.trim().toUpperCase();
  return names.find((name) => name.toUpperCase() === wanted) ?? null;
}

/** The board in its stored spelling, matched case-insensitively, or null. */
export function parseBoard(value: unknown): Board | null {
  return inAnyCase(BOARDS, value);
}

/** A slot's or an assessment's board (CBSE, ICSE, State or All) in any case, or null. */
export function parseBoardOrAll(value: unknown): BoardOrAll | null {
  return inAnyCase(BOARDS_OR_ALL, value);
}

export function parseGender(value: unknown): Gender | null {
  return GENDERS.find((gender) => gender === value) ?? null;
}

/** Date-of-birth rules 6-9; null when the date is acceptable. */
export function dobProblem(dob: unknown, today: string): string | null {
  if (dob === null || dob === undefined || dob === '') return M.dobRequired;
  if (typeof dob !== 'string' || !isValidIsoDate(dob)) return M.dobInvalid;
  const age = ageInYears(dob, today);
  if (age < 0) return M.dobInFuture;
  if (age < MIN_AGE_YEARS) return M.tooYoung;
  if (age > MAX_AGE_YEARS) return M.dobInvalid;
  return null;
}

/**
 * Checks a registration in the seed's order and stops at the first broken rule.
 * `today` is YYYY-MM-DD; it defaults to the local date.
 */
export function validateRegistration(input: RegistrationInput, today: string = todayIso()): RegistrationResult {
  const fail = (field: RegistrationField, message: string): RegistrationResult => ({ ok: false, field, message });

  const fullname = normalizeFullname(text(input.fullname));
  if (!fullname) return fail('fullname', M.fullnameRequired);
  const badName = fullnameProblem(fullname, { tooLong: M.fullnameTooLong, invisible: M.fullnameInvisible });
  if (badName) return fail('fullname', badName);

  const email = normalizeEmail(text(input.email));
  if (!email) return fail('email', M.emailRequired);
  if (!isValidEmail(email)) return fail('email', M.emailInvalid);

  const mobileText = text(input.mobile).trim();
  if (!mobileText) return fail('mobile', M.mobileRequired);
  const mobile = normalizeMobile(mobileText);
  if (!mobile) return fail('mobile', M.mobileInvalid);

  const password = normalizePassword(text(input.password));
  const badPassword = passwordProblem(password);
  if (badPassword) return fail('password', badPassword);
  if (password !== normalizePassword(text(input.cnfpassword))) return fail('cnfpassword', M.passwordsDoNotMatch);

  const badDob = dobProblem(input.dob, today);
  if (badDob) return fail('dob', badDob);

  if (isBlank(input.grade)) return fail('grade', M.gradeRequired);
  const grade = parseGrade(input.grade);
  if (grade === null) return fail('grade', M.gradeOutOfRange);

  if (isBlank(input.board)) return fail('board', M.boardRequired);
  const board = parseBoard(input.board);
  if (!board) return fail('board', M.boardInvalid);

  if (input.tmc !== true) return fail('tmc', M.termsRequired);

  const gender = parseGender(input.gender);
  if (!gender) return fail('gender', M.genderInvalid);

  return {
    ok: true,
    value: { fullname, email, mobile, password, dob: input.dob as string, gender, grade, board, tmc: true },
  };
}

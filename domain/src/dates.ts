// Calendar maths on plain YYYY-MM-DD strings, free of time zones.

import { DAYS_PER_YEAR } from './constants.ts';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a valid YYYY-MM-DD date, or null. */
export function isoDateToDayNumber(value: string): number | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return time / MS_PER_DAY;
}

export function isValidIsoDate(value: string): boolean {
  return isoDateToDayNumber(value) !== null;
}

/**
 * The years a date asked about (a schedule's week, the Activity page's filters)
 * may be in: a week or a day after one of them stays within four-digit years,
 * which the date maths and PostgreSQL both need.
 */
export const QUERY_YEARS = { first: 1900, last: 9998 } as const;

/** A real YYYY-MM-DD date of these years. */
function isDateOfYears(value: unknown, years: { first: number; last: number }): value is string {
  if (typeof value !== 'string' || !isValidIsoDate(value)) return false;
  const year = Number(value.slice(0, 4));
  return year >= years.first && year <= years.last;
}

/** A real YYYY-MM-DD date of QUERY_YEARS. */
export const isQueryDate = (value: unknown): value is string => isDateOfYears(value, QUERY_YEARS);

/**
 * The years of a date an admin enters (an assessment's, a holiday's): the date pickers'
 * own range. An assessment dated 9999 would head every student's progress for ever.
 */
export const ENTERED_YEARS = { first: 1900, last: 2099 } as const;

/** A real YYYY-MM-DD date of ENTERED_YEARS. */
export const isEnteredDate = (value: unknown): value is string => isDateOfYears(value, ENTERED_YEARS);

/** Today's date as YYYY-MM-DD in the local calendar of `now`. */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Age in 365.25-day years between two YYYY-MM-DD dates (the age rule). */
export function ageInYears(dob: string, today: string): number {
  const from = isoDateToDayNumber(dob);
  const to = isoDateToDayNumber(today);
  if (from === null || to === null) return Number.NaN;
  return (to - from) / DAYS_PER_YEAR;
}

/** DD/MM/YYYY as typed (day and month may have one digit) to YYYY-MM-DD, or null. */
export function displayToIsoDate(value: string): string | null {
  const match = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(value);
  if (!match) return null;
  const iso = `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
  return isValidIsoDate(iso) ? iso : null;
}

/** YYYY-MM-DD to DD/MM/YYYY for display. */
export function isoToDisplayDate(value: string): string {
  const match = ISO_DATE.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : value;
}

/**
 * Short labels for a chart's dates (YYYY-MM-DD, oldest first): DD/MM while they all fall in
 * one year, DD/MM/YY when they span two or more, so that no two years read alike.
 */
export function chartDateLabels(isoDates: readonly string[]): string[] {
  const spansYears = new Set(isoDates.map((iso) => iso.slice(0, 4))).size > 1;
  return isoDates.map((iso) => {
    const [year, month, day] = iso.split('-');
    return spansYears ? `${day}/${month}/${year?.slice(2)}` : `${day}/${month}`;
  });
}

import { isoToDisplayDate } from '@tc/domain/dates';
import { timeZoneLabel, zonedParts } from '@tc/domain/zoned-time';

/** The zone this browser runs in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** An instant as the clock in `zone` shows it, labelled: "26/11/2026 14:05 IST" (DD/MM/YYYY, as every date on the site). */
export function dateTimeIn(iso: string, zone: string): string {
  const instant = new Date(iso);
  const { date, time } = zonedParts(instant, zone);
  return `${isoToDisplayDate(date)} ${time} ${timeZoneLabel(zone, instant)}`;
}

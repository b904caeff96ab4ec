// What an activity entry is about, named as the admin screens name it, for the
// Activity page: an entry of marks or of a class otherwise says only "Marks
// entered". Read when the log is read, from the thing as it is now; one deleted
// since has no name here (its entry's changes hold what it was).

import { isoToDisplayDate } from '@tc/domain/dates';
import { WEEKDAYS, batchLabel } from '@tc/domain/timetable';
import type { Sql } from '../deps.ts';
import { HOLIDAY_CLASS, SLOT_CLASS } from '../timetable/store.ts';

interface Target {
  targetClass: string;
  targetId: string;
}

/** Each class's names: "Mathematics: Unit Test 3 (5th CBSE)", "Science, 6th all boards, Monday 17:00", "Diwali (01/11/2026-03/11/2026)". */
const NAMERS: Record<string, { columns: string; name: (row: Record<string, unknown>) => string }> = {
  Assessment: {
    columns: 'subject, title, grade, board',
    name: (r) => `${String(r.subject)}: ${String(r.title)} (${batchLabel(Number(r.grade), String(r.board))})`,
  },
  [SLOT_CLASS]: {
    columns: 'subject, grade, board, weekday, start',
    name: (r) =>
      `${String(r.subject)}, ${batchLabel(Number(r.grade), String(r.board))}, ${WEEKDAYS[Number(r.weekday) - 1] ?? ''} ${String(r.start)}`,
  },
  [HOLIDAY_CLASS]: {
    columns: 'title, "from", "to"',
    name: (r) => `${String(r.title)} (${isoToDisplayDate(String(r.from))}-${isoToDisplayDate(String(r.to))})`,
  },
};

/** The names of the entries' targets that still exist, by target id. */
export async function targetNames(sql: Sql, entries: readonly Target[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [className, namer] of Object.entries(NAMERS)) {
    const ids = [...new Set(entries.filter((e) => e.targetClass === className).map((e) => e.targetId))];
    if (!ids.length) continue;
    const rows = await sql<Record<string, unknown>>(
      `SELECT "objectId", ${namer.columns} FROM "${className}" WHERE "objectId" = ANY($1)`,
      [ids],
    );
    for (const row of rows) names.set(String(row.objectId), namer.name(row));
  }
  return names;
}

// What an activity entry is about, named as the admin screens name it, for the
// Activity page: an entry of marks or of a class otherwise says only "Marks
// entered". Read when the log is read, from the thing as it is now; one deleted
// since is named as its deletion's entry says it was.

import { isoToDisplayDate } from '@tc/domain/dates';
import { WEEKDAYS, batchLabel } from '@tc/domain/timetable';
import type { ActivityKind } from '@tc/domain/admin-tools';
import type { Sql } from '../deps.ts';
import { HOLIDAY_CLASS, SLOT_CLASS } from '../timetable/store.ts';
import { ACTIVITY_CLASS, type Change } from './log.ts';

interface Target {
  targetClass: string;
  targetId: string;
}

/** Each class's names: "Mathematics: Unit Test 3 (5th CBSE)", "Science, 6th all boards, Monday 17:00", "Diwali (01/11/2026-03/11/2026)". */
const NAMERS: Record<
  string,
  { columns: string; name: (row: Record<string, unknown>) => string; deletedBy: ActivityKind }
> = {
  Assessment: {
    deletedBy: 'assessment.delete',
    columns: 'subject, title, grade, board',
    name: (r) => `${String(r.subject)}: ${String(r.title)} (${batchLabel(Number(r.grade), String(r.board))})`,
  },
  [SLOT_CLASS]: {
    deletedBy: 'timetable.delete',
    columns: 'subject, grade, board, weekday, start',
    name: (r) =>
      `${String(r.subject)}, ${batchLabel(Number(r.grade), String(r.board))}, ${WEEKDAYS[Number(r.weekday) - 1] ?? ''} ${String(r.start)}`,
  },
  [HOLIDAY_CLASS]: {
    deletedBy: 'holiday.delete',
    columns: 'title, "from", "to"',
    name: (r) => `${String(r.title)} (${isoToDisplayDate(String(r.from))}-${isoToDisplayDate(String(r.to))})`,
  },
};

/** The names of the entries' targets, by target id: as they are, or as their deletion left them. */
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
    const deleted = ids.filter((id) => !names.has(id));
    if (!deleted.length) continue;
    // A deletion's entry holds each field's value before it.
    const deletions = await sql<{ targetId: string; changes: Change[] }>(
      `SELECT "targetId", changes FROM "${ACTIVITY_CLASS}" WHERE kind = $1 AND state = 'applied' AND "targetId" = ANY($2)`,
      [namer.deletedBy, deleted],
    );
    for (const { targetId, changes } of deletions) {
      names.set(targetId, namer.name(Object.fromEntries(changes.map((change) => [change.field, change.before]))));
    }
  }
  return names;
}

// A student's progress: their own marks of published assessments, newest
// first, and per subject the average percentage and the series over time. The
// batch average is given only when at least AVERAGE_MIN_STUDENTS students have
// marks (averageShownToStudents), so that no child's mark can be worked out from
// it; it is the average as students see it, which a single late mark or
// correction does not move (refreshAverage in store.ts).

import { averagePercentage, averageShownToStudents, percentage, toOneDecimal } from '@tc/domain/assessments';
import { SUBJECTS } from '@tc/domain/subjects';
import type { CloudDeps } from '../deps.ts';
import { defineFunction } from '../errors.ts';
import { requireStudentAndRead } from '../users/accounts.ts';
import type { OwnRead } from '../users/sessions.ts';

interface Row {
  objectId: string;
  subject: string;
  title: string;
  date: string;
  maxMarks: number;
  average: number | null;
  shownCount: number | null;
  markedCount: number | null;
  publishedAt: string;
  marks: number | null;
  absent: boolean | null;
}

/** The student's marks of published assessments, newest first (the bench measures it beside the call). */
export const PROGRESS_READ: OwnRead = {
  name: 'progress',
  select: `SELECT a."objectId", a.subject, a.title, a.date, a."maxMarks", a."shownAverage" AS average,
             a."shownCount", a."markedCount", a."publishedAt",
             m.marks, m.absent
           FROM "Mark" m JOIN "Assessment" a ON a."objectId" = m."assessmentId"
           WHERE m."studentId" = $2 AND a.status = 'published'`,
  // The id last: two tests of one date published in one moment keep one order from read to read.
  orderBy: `date DESC, "publishedAt" DESC, "objectId"`,
};

export function defineProgressFunctions(deps: CloudDeps): void {
  defineFunction(deps, 'getMyProgress', async (request) => {
    // The student's session is checked in the same statement (one round trip).
    const rows = await requireStudentAndRead<Row>(request, deps, PROGRESS_READ);
    const assessments = rows.map((row) => {
      const maxMarks = Number(row.maxMarks);
      const absent = row.absent === true || row.marks === null;
      const showAverage = row.average !== null && averageShownToStudents(row.shownCount, row.markedCount);
      // The percentage from the exact average, not from the rounded one shown beside it.
      const average = showAverage ? Number(row.average) : undefined;
      return {
        objectId: row.objectId,
        subject: row.subject,
        title: row.title,
        date: row.date,
        maxMarks,
        absent,
        ...(absent ? {} : { marks: Number(row.marks), percentage: percentage(Number(row.marks), maxMarks) }),
        ...(average !== undefined
          ? { batchAverage: toOneDecimal(average), batchAveragePercentage: percentage(average, maxMarks) }
          : {}),
      };
    });

    type Result = { marks: number; maxMarks: number; date: string; title: string; percentage: number };
    const bySubject = new Map<string, Result[]>();
    for (const a of [...assessments].reverse()) {
      if (a.marks === undefined || a.percentage === undefined) continue;
      const results = bySubject.get(a.subject) ?? [];
      results.push({ marks: a.marks, maxMarks: a.maxMarks, date: a.date, title: a.title, percentage: a.percentage });
      bySubject.set(a.subject, results);
    }
    // In the centre's order of subjects (the timetable's), not in the order they came: a page
    // read every few weeks keeps its cards where they were.
    const place = (subject: string) => {
      const at = (SUBJECTS as readonly string[]).indexOf(subject);
      return at === -1 ? SUBJECTS.length : at;
    };
    const ordered = [...bySubject].sort(([a], [b]) => place(a) - place(b) || a.localeCompare(b));
    const subjects = ordered.map(([subject, results]) => ({
      subject,
      averagePercentage: averagePercentage(results),
      points: results.map(({ date, title, percentage }) => ({ date, title, percentage })),
    }));
    return { assessments, subjects };
  });
}

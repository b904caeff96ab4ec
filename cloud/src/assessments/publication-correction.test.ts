// A correction after publishing sends nothing, and a publication mail still waiting
// for the mail server does not tell the old mark: it goes with the mark, title and
// maximum as they are when it is sent, or not at all when the student has no mark now.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchOf, marksMails as mailsOf, untilPublicationQueued } from '../../../testing/publication.ts';
import { loginAdmin, startTestSite, type TestSite } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ MAIL_RETRY_DELAY_S: '1' });
});
afterAll(async () => {
  await t?.stop();
});

const marksMails = (email: string) => mailsOf(t, email);

describe('a correction while the publication mails wait', () => {
  it('sends the corrected mark, the new title and maximum, nothing to a student with no mark now, and a mail to one marked again', async () => {
    const admin = await loginAdmin(t);
    const students = await batchOf(t, 4, 6, 'ICSE');
    const made = await t.api(
      'POST',
      '/api/assessments',
      { grade: 6, board: 'ICSE', subject: 'Science', title: 'Before', date: '2026-11-20', maxMarks: 20 },
      admin,
    );
    const id = made.body.objectId as string;
    const rows = students.map((s, i) => ({ id: s.id, value: String(18 - 3 * i) }));
    expect((await t.api('PUT', `/api/assessments/${id}/marks`, { rows }, admin)).status).toBe(200);

    t.captures.failMail = true;
    expect((await t.api('POST', `/api/assessments/${id}/publish`, {}, admin)).status).toBe(200);
    await untilPublicationQueued(t, id, 4);

    // Corrected while the mails wait: a mark, an absence, the title and the maximum.
    const corrected = await t.api(
      'PUT',
      `/api/assessments/${id}/marks`,
      {
        rows: [
          { id: students[0]!.id, value: '8' },
          { id: students[1]!.id, value: 'absent' },
        ],
      },
      admin,
    );
    expect(corrected.status).toBe(200);
    // Absent, then marked after all: the mail goes, with the mark it has now.
    const absentThenMarked = async (value: string) =>
      (await t.api('PUT', `/api/assessments/${id}/marks`, { rows: [{ id: students[3]!.id, value }] }, admin)).status;
    expect(await absentThenMarked('absent')).toBe(200);
    expect(await absentThenMarked('9')).toBe(200);
    const edited = await t.api('PUT', `/api/assessments/${id}`, { title: 'After', maxMarks: 25 }, admin);
    expect(edited.status).toBe(200);

    t.captures.failMail = false;
    await until(() => [0, 2, 3].every((i) => marksMails(students[i]!.email).length > 0), 45_000);
    await t.site.drainMail();
    expect(marksMails(students[0]!.email)).toEqual([expect.stringContaining('New marks in Science: After, 8 / 25')]);
    expect(marksMails(students[2]!.email)).toEqual([expect.stringContaining('New marks in Science: After, 12 / 25')]);
    expect(marksMails(students[3]!.email)).toEqual([expect.stringContaining('New marks in Science: After, 9 / 25')]);
    expect(marksMails(students[1]!.email)).toEqual([]);
    // Nothing else went: one mail each, and none about the old mark anywhere.
    expect(t.captures.mails.filter((m) => m.raw.includes('Before'))).toEqual([]);
  });
});

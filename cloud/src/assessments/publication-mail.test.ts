// Publishing marks with the mail server down: the admin's answer does not depend on it,
// the mails wait in the durable queue across a restart of the site, and each
// student gets exactly one; a correction afterwards sends nothing.

import { describe, expect, it } from 'vitest';
import { restartingSites } from '../../../testing/restarting-sites.ts';
import { batchOf, draftWithMarks, marksMails, untilPublicationQueued } from '../../../testing/publication.ts';
import { loginAdmin } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';

const { start, restart } = restartingSites();

describe('publishing while the mail server is down', () => {
  it('answers with a success, keeps the mails across a restart, and sends each student exactly one', async () => {
    const first = await start();
    const admin = await loginAdmin(first);
    const students = await batchOf(first, 2, 7, 'State');
    const id = await draftWithMarks(
      first,
      admin,
      { grade: 7, board: 'State', subject: 'Science', title: 'Queued test', date: '2026-11-20', maxMarks: 20 },
      students.map((s, i) => ({ id: s.id, value: String(15 + i) })),
    );

    // The answer does not depend on the mail server: a success while it refuses every mail.
    first.captures.failMail = true;
    const published = await first.api('POST', `/api/assessments/${id}/publish`, {}, admin);
    expect(published.status).toBe(200);

    // Refused and retried, never lost: queued, and nobody has a marks mail yet.
    await untilPublicationQueued(first, id, 2);
    for (const s of students) expect(marksMails(first, s.email)).toHaveLength(0);

    // The site stops while the mail server is still down, and starts again on the same database.
    const second = await restart(first);
    await until(() => students.every((s) => marksMails(second, s.email).length > 0), 45_000);
    await second.site.drainMail();
    for (const s of students) {
      const mails = marksMails(second, s.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain('New marks in Science: Queued test');
    }

    // A correction after publishing updates the average and sends nothing.
    const secondAdmin = await loginAdmin(second);
    const corrected = await second.api(
      'PUT',
      `/api/assessments/${id}/marks`,
      { rows: [{ id: students[0]!.id, value: '19' }] },
      secondAdmin,
    );
    expect(corrected.status).toBe(200);
    await second.site.drainMail();
    for (const s of students) expect(marksMails(second, s.email)).toHaveLength(1);
  }, 150_000); // a restart and a wait of up to 45 s for the retried mails: more than the default minute
});

// A correction after publishing sends nothing, and a publication mail still waiting
// for the mail server does not tell the old mark: it goes with the mark, title and
// maximum as they are when it is sent, or not at all when the student has no mark now.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchOf,
  draftWithMarks,
  marksMails as mailsOf,
  untilPublicationQueued,
} from '../../../testing/publication.ts';
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
    const id = await draftWithMarks(
      t,
      admin,
      { grade: 6, board: 'ICSE', subject: 'Science', title: 'Before', date: '2026-11-20', maxMarks: 20 },
      students.map((s, i) => ({ id: s.id, value: String(18 - 3 * i) })),
    );

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

describe('a publication mail waiting while the student changes', () => {
  /** A published assessment of a new batch, its mails refused by the mail server for now. */
  async function publishedWhileMailWaits(count: number, grade: number) {
    const admin = await loginAdmin(t);
    const students = await batchOf(t, count, grade, 'CBSE');
    const id = await draftWithMarks(
      t,
      admin,
      { grade, board: 'CBSE', subject: 'English', title: `Waiting ${grade}`, date: '2026-11-20', maxMarks: 20 },
      students.map((s) => ({ id: s.id, value: '15' })),
    );
    t.captures.failMail = true;
    expect((await t.api('POST', `/api/assessments/${id}/publish`, {}, admin)).status).toBe(200);
    await untilPublicationQueued(t, id, count);
    const objectIds = await Promise.all(
      students.map(
        async (s) =>
          (await t.sql.query<{ objectId: string }>(`SELECT "objectId" FROM "_User" WHERE "enrollmentId" = $1`, [s.id]))
            .rows[0]!.objectId,
      ),
    );
    return { admin, id, students, objectIds };
  }

  const mailRow = async (id: string, objectId: string) =>
    (
      await t.sql.query(`SELECT state, message, last_error FROM mail_delivery WHERE key = $1`, [
        `marks-published:${id}:${objectId}`,
      ])
    ).rows[0];

  it('goes to the address an admin corrected meanwhile, not to the old one', async () => {
    const { admin, students, objectIds, id } = await publishedWhileMailWaits(1, 7);
    const corrected = `corrected-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    expect((await t.api('PUT', `/api/users/${objectIds[0]}`, { email: corrected }, admin)).status).toBe(200);
    t.captures.failMail = false;
    await until(() => marksMails(corrected).length > 0, 45_000);
    await t.site.drainMail();
    expect(marksMails(corrected)).toEqual([expect.stringContaining('New marks in English: Waiting 7, 15 / 20')]);
    expect(marksMails(students[0]!.email)).toEqual([]);
    expect(await mailRow(id, objectIds[0]!)).toMatchObject({ state: 'sent', message: null });
  });

  it('is not sent once the student is deactivated', async () => {
    const { admin, students, objectIds, id } = await publishedWhileMailWaits(2, 8);
    const status = await t.api('PUT', `/api/users/${objectIds[0]}/status`, { status: 'deactivated' }, admin);
    expect(status.status).toBe(200);
    t.captures.failMail = false;
    await until(() => marksMails(students[1]!.email).length > 0, 45_000);
    await t.site.drainMail();
    expect(marksMails(students[0]!.email)).toEqual([]);
    expect(await mailRow(id, objectIds[0]!)).toEqual({
      state: 'failed',
      message: null,
      last_error: 'recipient deactivated',
    });
  });

  /** Whether the mail's send is under way: claimed by a job that is running. */
  const sending = async (key: string) =>
    (
      await t.sql.query(
        `SELECT 1 FROM mail_delivery d JOIN pgboss.job j ON j.id = d.claimed_by::uuid
         WHERE d.key = $1 AND j.state = 'active'`,
        [key],
      )
    ).rows.length > 0;
  const untilSending = (key: string) => until(() => sending(key), 30_000);

  it('goes with the mark given again while its send was under way, after that send fails', async () => {
    const { admin, students, objectIds, id } = await publishedWhileMailWaits(1, 2);
    const key = `marks-published:${id}:${objectIds[0]}`;
    t.captures.refuseDelayMs = 4_000;
    try {
      await untilSending(key);
      for (const value of ['absent', '11']) {
        const saved = await t.api(
          'PUT',
          `/api/assessments/${id}/marks`,
          { rows: [{ id: students[0]!.id, value }] },
          admin,
        );
        expect(saved.status).toBe(200);
      }
      // Still under way: the saves came during the send, as this test means them to.
      expect(await sending(key)).toBe(true);
    } finally {
      t.captures.refuseDelayMs = 0;
    }
    t.captures.failMail = false;
    await until(() => marksMails(students[0]!.email).length > 0, 45_000);
    await t.site.drainMail();
    expect(marksMails(students[0]!.email)).toEqual([
      expect.stringContaining('New marks in English: Waiting 2, 11 / 20'),
    ]);
  });

  it('goes, key and all, when withdrawn during a send whose sender is gone', async () => {
    const key = `test:stranded-${Date.now()}`;
    // A withdrawal marked the mail while a sender had it; that sender died without settling it.
    await t.sql.query(
      `INSERT INTO mail_delivery (key, state, message, withdrawn, claimed_by) VALUES ($1, 'queued', NULL, true, $2)`,
      [key, randomUUID()],
    );
    await until(
      async () => (await t.sql.query(`SELECT 1 FROM mail_delivery WHERE key = $1`, [key])).rows.length === 0,
      30_000,
    );
    await t.site.drainMail();
  });

  it('is sent when left queued without a job (its sender gone on its last try, say)', async () => {
    const to = `jobless-${Date.now()}@example.com`;
    await t.sql.query(`INSERT INTO mail_delivery (key, state, message) VALUES ($1, 'queued', $2)`, [
      `test:${to}`,
      { to, subject: 'Left without a job', text: 'Sent all the same' },
    ]);
    await until(() => t.captures.mails.some((m) => m.to.includes(to)), 30_000);
    await t.site.drainMail();
    expect(t.captures.mails.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it('is not sent when the student is marked absent while its send is under way and then fails', async () => {
    const { admin, students, objectIds, id } = await publishedWhileMailWaits(1, 9);
    const key = `marks-published:${id}:${objectIds[0]}`;
    // The next try is slow to be refused: caught while its send is under way.
    t.captures.refuseDelayMs = 3_000;
    try {
      await untilSending(key);
      const absent = await t.api(
        'PUT',
        `/api/assessments/${id}/marks`,
        { rows: [{ id: students[0]!.id, value: 'absent' }] },
        admin,
      );
      expect(absent.status).toBe(200);
      expect(await sending(key)).toBe(true);
    } finally {
      t.captures.refuseDelayMs = 0;
    }
    // That try is refused; the mail server then takes mail again.
    await until(async () => (await mailRow(id, objectIds[0]!)) === undefined, 30_000);
    t.captures.failMail = false;
    await t.site.drainMail();
    expect(marksMails(students[0]!.email)).toEqual([]);
  });
});

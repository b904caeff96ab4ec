// A stop lets the mails under way finish and starts no more: the rest of the batch the
// worker fetched is handed back to be tried again, not sent one round after another
// past the time a stop is given (and left claimed until the claim expires).

import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';
import { MAIL_QUEUE_SCHEMA } from './mail-queue.ts';

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  // The site is stopped by the test; its pool and captures are left to close.
  await site?.sql.end();
  await site?.captures.close();
});

describe('a stop during a batch of mail', () => {
  it('finishes the mails under way, starts no more, and hands the rest back to be tried again', async () => {
    // Each mail takes a second and a half at the mail server: a batch of 20 would take four rounds.
    site.captures.mailDelayMs = 1_500;
    const run = Date.now();
    const recipients = Array.from({ length: 20 }, (_, i) => `stop-${run}-${i}@example.com`);
    const mails = recipients.map((to) => ({
      key: `test:${to}`,
      message: { to, subject: 'Stop', text: 'During a stop' },
    }));
    const keys = mails.map((mail) => mail.key);
    // Queued as the site's own code queues them: each mail's row, and a job the site's worker takes.
    for (const { key, message } of mails) {
      await site.sql.query(`INSERT INTO mail_delivery (key, message) VALUES ($1, $2)`, [key, message]);
    }
    const boss = new PgBoss({ connectionString: site.site.databaseUri, schema: MAIL_QUEUE_SCHEMA, max: 1 });
    await boss.start();
    try {
      await boss.insert(mails.map((data) => ({ name: 'mail', data })));
    } finally {
      await boss.stop({ graceful: false });
    }
    const begun = () => site.captures.mailsBegun.filter((to) => recipients.includes(to[0]!)).length;
    await until(() => begun() > 0, 20_000);
    await site.site.stop();
    // The first round (five at once) at most, not the whole batch.
    expect(begun()).toBeLessThanOrEqual(5);
    const { rows } = await site.sql.query<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM ${MAIL_QUEUE_SCHEMA}.job WHERE data->>'key' = ANY($1) GROUP BY state`,
      [keys],
    );
    const states = Object.fromEntries(rows.map((row) => [row.state, row.n]));
    // None left claimed by a stopped worker: the rest wait to be tried again.
    expect(states.active).toBeUndefined();
    expect(states.retry).toBe(20 - begun());
  });
});

// A mail is sent once even when two jobs carry its key and are under way at once
// (a start queueing 'queued' rows again while a retry was queueing them): the job
// that claims the row sends it, the other leaves it.

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
  await site?.stop();
});

describe('one mail per key', () => {
  it('sends a mail once when two jobs carry its key at the same moment', async () => {
    // Each mail takes a while at the mail server, so the two jobs are both under way.
    site.captures.mailDelayMs = 1_000;
    const to = `twice-${Date.now()}@example.com`;
    const key = `test:${to}`;
    const message = { to, subject: 'Once', text: 'Only once' };
    // The mail's row, and two jobs for its key that the site's worker fetches together: as
    // a start queueing 'queued' rows again while a retry was queueing them would leave.
    await site.sql.query(`INSERT INTO mail_delivery (key, message) VALUES ($1, $2)`, [key, message]);
    const boss = new PgBoss({ connectionString: site.site.databaseUri, schema: MAIL_QUEUE_SCHEMA, max: 1 });
    await boss.start();
    try {
      await boss.insert([
        { name: 'mail', data: { key, message } },
        { name: 'mail', data: { key, message } },
      ]);
    } finally {
      await boss.stop({ graceful: false });
    }
    await until(() => site.captures.mails.some((m) => m.to.includes(to)), 20_000);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(site.captures.mailsBegun.filter((recipients) => recipients.includes(to))).toHaveLength(1);
    expect(site.captures.mails.filter((m) => m.to.includes(to))).toHaveLength(1);
  });
});

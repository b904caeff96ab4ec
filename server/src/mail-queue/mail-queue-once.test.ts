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
  // A failed send is tried again a second later (the default is 10 s).
  site = await startTestSite({ MAIL_RETRY_DELAY_S: '1' });
});
afterAll(async () => {
  await site?.stop();
});

/** Queues a mail for `key` as the site's own code would: its row, and a job that the site's worker takes. */
async function queue(key: string, message: object, jobs = 1): Promise<void> {
  await site.sql.query(`INSERT INTO mail_delivery (key, message) VALUES ($1, $2)`, [key, message]);
  const boss = new PgBoss({ connectionString: site.site.databaseUri, schema: MAIL_QUEUE_SCHEMA, max: 1 });
  await boss.start();
  try {
    await boss.insert(Array.from({ length: jobs }, () => ({ name: 'mail', data: { key, message } })));
  } finally {
    await boss.stop({ graceful: false });
  }
}

describe('one mail per key', () => {
  it('sends a mail once when two jobs carry its key at the same moment', async () => {
    // Each mail takes a while at the mail server, so the two jobs are both under way.
    site.captures.mailDelayMs = 1_000;
    const to = `twice-${Date.now()}@example.com`;
    const key = `test:${to}`;
    const message = { to, subject: 'Once', text: 'Only once' };
    // The mail's row, and two jobs for its key that the site's worker fetches together: as
    // a start queueing 'queued' rows again while a retry was queueing them would leave.
    await queue(key, message, 2);
    await until(() => site.captures.mails.some((m) => m.to.includes(to)), 20_000);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(site.captures.mailsBegun.filter((recipients) => recipients.includes(to))).toHaveLength(1);
    expect(site.captures.mails.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it('sends a mail once when the database refuses, for a moment, to record that it went', async () => {
    const to = `recorded-${Date.now()}@example.com`;
    const key = `test:${to}`;
    // The database refuses the first two writes of this mail's 'sent' (a sequence: a refused
    // statement undoes every change it made, but not a sequence's).
    const name = `refuse_${Date.now()}`;
    await site.sql.query(`CREATE SEQUENCE ${name}`);
    await site.sql.query(`
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Nested: nextval counts only this mail's writes of 'sent' (AND may evaluate both sides).
        IF NEW.key = '${key}' AND NEW.state = 'sent' THEN
          IF nextval('${name}') <= 2 THEN
            RAISE EXCEPTION 'refused for the test';
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
    await site.sql.query(
      `CREATE TRIGGER ${name} BEFORE UPDATE ON mail_delivery FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
    try {
      await queue(key, { to, subject: 'Recorded', text: 'Sent once' });
      await until(async () => {
        const { rows } = await site.sql.query(`SELECT state FROM mail_delivery WHERE key = $1`, [key]);
        return rows[0]?.state === 'sent';
      }, 20_000);
      // Time for a retry (a second after a failure) to have sent it again, had the refusal
      // been taken for a failed send.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(site.captures.mailsBegun.filter((recipients) => recipients.includes(to))).toHaveLength(1);
      expect(site.captures.mails.filter((m) => m.to.includes(to))).toHaveLength(1);
      expect((await site.sql.query(`SELECT last_value FROM ${name}`)).rows[0].last_value).toBe('3');
    } finally {
      await site.sql.query(`DROP TRIGGER ${name} ON mail_delivery`);
      await site.sql.query(`DROP FUNCTION ${name}()`);
      await site.sql.query(`DROP SEQUENCE ${name}`);
    }
  });
});

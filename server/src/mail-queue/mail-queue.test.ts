// The durable mail queue (issue 12 item 5) with the real SMTP capture: a mail
// server that refuses mail delays the welcome mail, never loses it, even across
// a restart of the site, and it is delivered once; operators see the counts.

import { describe, expect, it } from 'vitest';
import { restartingSites } from '../../../testing/restarting-sites.ts';
import { loginAdmin, loginStudent, register } from '../../../testing/site.ts';
import { until } from '../../../testing/until.ts';

const { start, restart } = restartingSites();

describe('the durable mail queue', () => {
  it('delays the welcome mail while the mail server is down, keeps it across a restart, and sends it once', async () => {
    const first = await start();
    first.captures.failMail = true;
    const { student, result } = await register(first);
    expect(result.status).toBe(201);
    const email = student.email.toLowerCase();

    // Refused, retried, not lost: still queued.
    await until(async () => (await first.site.mailQueue.status()).queued === 1, 5_000);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(first.captures.mails.filter((m) => m.to.includes(email))).toHaveLength(0);
    const { rows } = await first.sql.query(`SELECT state, attempts FROM mail_delivery WHERE key = $1`, [
      `welcome:${result.body.objectId}`,
    ]);
    expect(rows[0].state).toBe('queued');
    expect(rows[0].attempts).toBeGreaterThanOrEqual(1);

    // The site stops while the mail server is still down, and starts again on the
    // same database with a mail server that works.
    const second = await restart(first);
    await until(() => second.captures.mails.some((m) => m.to.includes(email)), 45_000);
    const welcome = second.captures.mails.filter((m) => m.to.includes(email));
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.raw).toContain('Welcome');

    // Queueing the same purpose again sends nothing more.
    await second.site.mailQueue.enqueue(
      { to: email, subject: 'Welcome again', text: 'x' },
      `welcome:${result.body.objectId}`,
    );
    await new Promise((r) => setTimeout(r, 2_500));
    expect(second.captures.mails.filter((m) => m.to.includes(email))).toHaveLength(1);

    // Operators see the counts; students may not.
    const admin = await loginAdmin(second);
    const status = await second.api('GET', '/api/admin/mail-status', undefined, admin);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ queued: 0, failed: 0, sent: 1 });
    const token = await loginStudent(second, student.email, student.password);
    expect((await second.api('GET', '/api/admin/mail-status', undefined, token)).status).toBe(403);

    // With its retries spent, a mail counts as failed. (One Parse Server per process:
    // the site starts again on the same database, now allowing a single retry, and
    // keeping no failed mail to try again.)
    const third = await restart(second, { MAIL_RETRY_LIMIT: '1', MAIL_KEEP_TRYING_H: '0' });
    third.captures.failMail = true;
    const late = `late-${Date.now()}@example.com`;
    const old = `old-${Date.now()}@example.com`;
    await third.site.mailQueue.enqueue({ to: late, subject: 'S', text: 'T' }, `test:${late}`);
    await third.site.mailQueue.enqueue({ to: old, subject: 'S', text: 'T' }, `test:${old}`);
    await until(async () => (await third.site.mailQueue.status()).failed === 2, 20_000);
    expect(await third.site.mailQueue.status()).toEqual({ queued: 0, failed: 2, sent: 1 });
    // Their jobs, whose data is the whole mail, are not kept for pg-boss's retention days.
    await until(async () => {
      const { rows } = await third.sql.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'key' = ANY($1)`, [
        [`test:${late}`, `test:${old}`],
      ]);
      return rows[0].n === 0;
      // A batch's jobs are deleted once the whole batch is through: a send of another job in it
      // may wait for its SMTP timeout on a loaded machine.
    }, 30_000);
    // Past MAIL_KEEP_TRYING_H, a failed mail is given up: it keeps its key, not its text.
    const givenUp = async () =>
      (
        await third.sql.query(`SELECT message, last_error FROM mail_delivery WHERE key = ANY($1) ORDER BY key`, [
          [`test:${late}`, `test:${old}`],
        ])
      ).rows;
    await until(async () => (await givenUp()).every((row) => row.message === null), 20_000);
    expect(await givenUp()).toEqual([
      { message: null, last_error: expect.stringMatching(/^given up: .*busy/) },
      { message: null, last_error: expect.stringMatching(/^given up: .*busy/) },
    ]);

    // Within MAIL_KEEP_TRYING_H (7 days) of being queued, a failed mail is tried again,
    // at the pace of its last retries: a mail server back after days gets it.
    const fourth = await restart(third, { MAIL_RETRY_LIMIT: '1' });
    fourth.captures.failMail = true;
    const retried = `retried-${Date.now()}@example.com`;
    await fourth.site.mailQueue.enqueue({ to: retried, subject: 'S', text: 'T' }, `test:${retried}`);
    await until(async () => (await fourth.site.mailQueue.status()).failed === 3, 20_000);
    fourth.captures.failMail = false;
    await until(() => fourth.captures.mails.some((m) => m.to.includes(retried)), 20_000);
    await new Promise((r) => setTimeout(r, 3_000));
    // The mails given up are not.
    expect(fourth.captures.mails.filter((m) => m.to.includes(old) || m.to.includes(late))).toHaveLength(0);
    expect(await fourth.site.mailQueue.status()).toEqual({ queued: 0, failed: 2, sent: 2 });
    // No row keeps an address in its error.
    const errors = await fourth.sql.query(`SELECT last_error FROM mail_delivery WHERE last_error LIKE '%@%'`);
    expect(errors.rows).toEqual([]);
  }, 240_000); // four starts of the site and waits of up to 45 s each: more than the default minute
});

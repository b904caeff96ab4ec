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
    // the site starts again on the same database, now allowing a single retry.)
    const third = await restart(second, { MAIL_RETRY_LIMIT: '1' });
    third.captures.failMail = true;
    await third.site.mailQueue.enqueue({ to: 'nobody@example.com', subject: 'S', text: 'T' }, `test:${Date.now()}`);
    await until(async () => (await third.site.mailQueue.status()).failed === 1, 20_000);
    expect(await third.site.mailQueue.status()).toEqual({ queued: 0, failed: 1, sent: 1 });
  });
});

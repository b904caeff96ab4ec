// TEMPORARY stand-in for the durable mail queue (pg-boss, from the reliability
// work): it remembers each idempotency key in PostgreSQL under a unique key, so
// a key is mailed at most once, and sends the new ones in the background with
// the mailer. Unlike the queue it does not retry: a mail the server refuses is
// logged and lost. The lead replaces this file with the queue.

import type { MailJob } from '@tc/cloud/deps';
import type { Sql } from '../database/sql.ts';
import type { SendMail } from './mail.ts';

const PARALLEL_SENDS = 4;

export async function createDirectMailQueue(sql: Sql, send: SendMail) {
  await sql.query(
    `CREATE TABLE IF NOT EXISTS mail_idempotency_keys (key text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())`,
  );
  const sending = new Set<Promise<void>>();

  async function deliver(jobs: MailJob[]): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        await send(job.message).catch((error: unknown) =>
          console.error(`mail ${job.idempotencyKey} failed:`, error instanceof Error ? error.message : error),
        );
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_SENDS }, worker));
  }

  async function enqueueMails(jobs: readonly MailJob[]): Promise<void> {
    if (!jobs.length) return;
    const { rows } = await sql.query<{ key: string }>(
      `INSERT INTO mail_idempotency_keys (key) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING RETURNING key`,
      [jobs.map((job) => job.idempotencyKey)],
    );
    const fresh = new Set(rows.map((row) => row.key));
    const todo = jobs.filter((job) => fresh.delete(job.idempotencyKey));
    const run = deliver(todo).finally(() => sending.delete(run));
    sending.add(run);
  }

  return {
    enqueueMails,
    enqueueMail: (message: MailJob['message'], idempotencyKey: string) => enqueueMails([{ message, idempotencyKey }]),
    /** Waits for the mails being sent (at shutdown, and in tests). */
    drain: async () => {
      while (sending.size) await Promise.all([...sending]);
    },
  };
}

// The durable mail queue (issue 12 item 5): mails that nobody waits for (the
// welcome mail, later the notices) go through pg-boss on the site's own
// PostgreSQL, so a mail server that is down delays them and never loses them,
// across restarts and crashes. One row per idempotency key in `mail_delivery`
// makes each purpose send at most one job and counts what is queued, sent, failed.

import PgBoss from 'pg-boss';
import type { MailMessage } from '@tc/cloud/deps';
import type { SendMail } from '../delivery/mail.ts';
import type pg from 'pg';
import { inTransaction, type Sql } from '../database/sql.ts';
import { mailFailureReason } from '@tc/cloud/mail-failure';

const QUEUE = 'mail';
/** How often an idle queue looks for mails nobody is sending (dropWithdrawn, requeueUnsent). */
const SWEEP_MS = 10_000;
/** How long a stop still tries to record a mail the mail server has taken. */
const STOP_RECORD_MS = 5_000;
/** pg-boss's own schema: the queue's working state (backups leave it out: see requeueUnsent). */
export const MAIL_QUEUE_SCHEMA = 'pgboss';
/** A mail's last_error when its recipient was erased before it went: never sent, no text kept. */
export const RECIPIENT_ERASED = 'recipient erased';
/** A mail's last_error when its recipient's account was deactivated before it went: never sent, no text kept. */
export const RECIPIENT_DEACTIVATED = 'recipient deactivated';

export interface MailQueueStatus {
  queued: number;
  failed: number;
  sent: number;
}

export interface MailQueue {
  /**
   * Queues a mail once per key: a second call with the same key does nothing. A mail
   * about an account (`accountId`, a student's `_User` objectId) is not sent once
   * that account is erased or deactivated (and goes to its address as it is then).
   */
  enqueue(message: MailMessage, idempotencyKey: string, accountId?: string): Promise<void>;
  /**
   * Many at once (a publication's 4,000 mails): the keys and the jobs in one
   * transaction, the caller's when given (then they are queued only if it commits).
   */
  enqueueMany(jobs: ReadonlyArray<EnqueuedMail>, transaction?: pg.PoolClient): Promise<void>;
  /**
   * Mails not sent yet get a new text (what they tell changed: a mark corrected after
   * publishing), or none and are not sent (`message: null`); one sent, or being sent,
   * stays as it went. Nothing is queued by it.
   */
  reviseQueued(revisions: ReadonlyArray<MailRevision>, transaction: pg.PoolClient): Promise<void>;
  status(): Promise<MailQueueStatus>;
  /**
   * Drops the queued mails to these addresses or about this account, and every
   * kept copy of such a mail (an erasure).
   */
  forgetMail(addresses: readonly string[], accountId?: string): Promise<void>;
  /** Resolves once no mail queued so far waits to be sent (tests, the benchmark). */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface MailQueueOptions {
  databaseUri: string;
  sql: Sql;
  send: SendMail;
  retryLimit: number;
  retryDelaySeconds: number;
  /**
   * How long after it was queued a mail the server keeps refusing is still tried:
   * once its retries are spent it counts as failed, and is tried again at the pace
   * of its last retries (at most an hour apart) until then.
   */
  keepTryingHours: number;
  pollingIntervalSeconds?: number;
  /** Mails handed to the mail server at once (default 5; the mailer's pool should keep as many connections). */
  sendConcurrency?: number;
}

interface EnqueuedMail {
  message: MailMessage;
  idempotencyKey: string;
  /** The student's account the mail is about: sent to its address as it is then; not sent once it is erased or deactivated. */
  accountId?: string;
}

interface MailJob {
  key: string;
  message: MailMessage;
}

export interface MailRevision {
  idempotencyKey: string;
  message: MailMessage | null;
}

export async function startMailQueue(options: MailQueueOptions): Promise<MailQueue> {
  const { sql } = options;
  await sql.query(`
    CREATE TABLE IF NOT EXISTS mail_delivery (
      key text PRIMARY KEY,
      state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      message_id text,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  // The message itself, so that a mail still queued can be queued again on a database
  // restored from a backup (which holds this table but not pg-boss's jobs).
  await sql.query(`ALTER TABLE mail_delivery ADD COLUMN IF NOT EXISTS message jsonb`);
  // The account a mail is about (a student's _User objectId), checked just before its send.
  await sql.query(`ALTER TABLE mail_delivery ADD COLUMN IF NOT EXISTS account_id text`);
  // The job sending the mail now: a second job for one key (queued again by a start
  // while a retry was queueing it) leaves it to the first.
  await sql.query(`ALTER TABLE mail_delivery ADD COLUMN IF NOT EXISTS claimed_by text`);
  // Withdrawn (reviseQueued) while its send was under way: gone if that send fails.
  await sql.query(`ALTER TABLE mail_delivery ADD COLUMN IF NOT EXISTS withdrawn boolean`);
  // What the idle queue looks for every few seconds (dropWithdrawn, requeueUnsent), among
  // the keys of every mail ever sent (two million after a year of publications).
  await sql.query(`CREATE INDEX IF NOT EXISTS mail_delivery_withdrawn ON mail_delivery (key) WHERE withdrawn`);
  await sql.query(`CREATE INDEX IF NOT EXISTS mail_delivery_queued ON mail_delivery (key) WHERE state = 'queued'`);

  const boss = new PgBoss({ connectionString: options.databaseUri, max: 3, schema: MAIL_QUEUE_SCHEMA });
  // A lost connection is retried by pg-boss itself; say so once per error, never crash.
  boss.on('error', (error: Error) => console.error('mail queue:', error.message));
  await boss.start();
  const queueOptions = {
    retryLimit: options.retryLimit,
    retryDelay: options.retryDelaySeconds,
    retryBackoff: true,
    // A send has its own SMTP timeouts; this only frees a job whose worker died.
    expireInSeconds: 15 * 60,
    retentionDays: 14,
  };
  if (!(await boss.getQueue(QUEUE))) await boss.createQueue(QUEUE, { name: QUEUE, ...queueOptions });
  // Changed settings apply from the next start on (to mails queued from then on).
  else await boss.updateQueue(QUEUE, { name: QUEUE, ...queueOptions });

  await requeueUnsent();
  await forgetGivenUp();
  await dropWithdrawn();

  /**
   * Mails withdrawn while their send was under way whose sender is gone without
   * settling them (it died, or its failure and the withdrawal crossed): nobody will
   * send them, so they go as the withdrawal meant, key and all.
   */
  async function dropWithdrawn(): Promise<void> {
    await sql.query(
      `DELETE FROM mail_delivery d WHERE d.withdrawn AND d.state = 'queued'
         AND NOT EXISTS (SELECT 1 FROM ${MAIL_QUEUE_SCHEMA}.job j
                         WHERE j.name = $1 AND j.id = d.claimed_by::uuid AND j.state = 'active')`,
      [QUEUE],
    );
  }

  /**
   * Mails recorded as queued that have no job (a database restored from a backup, a
   * sender gone on its last try, a withdrawn mail given its text back): queued again.
   * A spare job is harmless: only one sender claims a mail.
   */
  async function requeueUnsent(): Promise<void> {
    const { rows } = await sql.query<{ key: string; message: MailMessage }>(
      `SELECT key, message FROM mail_delivery d WHERE state = 'queued' AND message IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM ${MAIL_QUEUE_SCHEMA}.job j
                         WHERE j.name = $1 AND j.data->>'key' = d.key AND j.state < 'completed')`,
      [QUEUE],
    );
    for (const row of rows) await boss.send(QUEUE, { key: row.key, message: row.message } satisfies MailJob);
  }

  /**
   * Failed mails still within `keepTryingHours` of being queued, whose last try is
   * a pause ago: one more try each (a mail server down for days delays mail and
   * loses none). Several instances may run this at once: each row is taken by one.
   */
  const retryPauseSeconds = Math.min(3600, options.retryDelaySeconds * 2 ** options.retryLimit);
  async function retryFailed(): Promise<void> {
    // The rows and their jobs in one transaction: a database gone between the two
    // leaves no row queued without a job (which only a restart would queue again).
    const retried = await inTransaction(sql, async (client) => {
      const { rows } = await client.query<{ key: string; message: MailMessage }>(
        `UPDATE mail_delivery SET state = 'queued', updated_at = now()
         WHERE state = 'failed' AND message IS NOT NULL
           AND created_at > now() - make_interval(hours => $1) AND updated_at < now() - make_interval(secs => $2)
         RETURNING key, message`,
        [options.keepTryingHours, retryPauseSeconds],
      );
      if (rows.length) {
        await boss.insert(
          rows.map((row) => ({
            name: QUEUE,
            data: { key: row.key, message: row.message } satisfies MailJob,
            retryLimit: 0,
            expireInSeconds: queueOptions.expireInSeconds,
          })),
          { db: { executeSql: (text, values) => client.query(text, values) } },
        );
      }
      return rows.length;
    });
    if (retried) wake?.();
    await forgetGivenUp();
  }

  /**
   * Failed mails past `keepTryingHours` are never tried again: their text (a child's name,
   * marks) is not kept either. The key stays, so the mail is still never sent twice.
   */
  async function forgetGivenUp(): Promise<void> {
    await sql.query(
      `UPDATE mail_delivery SET message = NULL, last_error = left('given up: ' || coalesce(last_error, 'not sent'), 500),
         updated_at = now()
       WHERE state = 'failed' AND message IS NOT NULL AND created_at <= now() - make_interval(hours => $1)`,
      [options.keepTryingHours],
    );
  }
  const retrying = setInterval(
    () => void retryFailed().catch((error: unknown) => console.error('mail queue:', (error as Error).message)),
    Math.max(1, retryPauseSeconds / 2) * 1000,
  );
  retrying.unref();

  /**
   * Sends one mail unless its key says it went already or was dropped; the state
   * is read just before the send (not with the batch: a recipient erased or
   * deactivated while the mails before theirs go out gets nothing, and a corrected
   * address is used) and written as soon as the server takes it.
   */
  const deliver = async (job: PgBoss.JobWithMetadata<MailJob>) => {
    const { key } = job.data;
    // Claimed by this job, in one row update, if it is still to be sent (not sent
    // already by a worker that died after the mail server took it, not dropped for an
    // erased recipient) and no other job for its key is sending it right now: only one
    // of two such jobs wins. This job's own retry claims it again; so does any job
    // once the claimer is gone. Its account's e-mail and state as they are now come with it.
    const claimed = await sql.query<{
      message: MailMessage;
      email: string | null;
      state: 'erased' | 'deactivated' | null;
    }>(
      `UPDATE mail_delivery d SET claimed_by = $2
       WHERE d.key = $1 AND d.state = 'queued' AND d.message IS NOT NULL
         AND (d.claimed_by IS NULL OR d.claimed_by = $2 OR NOT EXISTS (
               SELECT 1 FROM ${MAIL_QUEUE_SCHEMA}.job j
               WHERE j.name = $3 AND j.id = d.claimed_by::uuid AND j.state = 'active'))
       RETURNING d.message,
         (SELECT u.email FROM "_User" u WHERE u."objectId" = d.account_id) AS email,
         (SELECT CASE WHEN u."erasedAt" IS NOT NULL THEN 'erased' WHEN u.status = 'deactivated' THEN 'deactivated' END
          FROM "_User" u WHERE u."objectId" = d.account_id) AS state`,
      [key, job.id, QUEUE],
    );
    const row = claimed.rows[0];
    if (!row) return;
    // About an account erased or deactivated since it was queued (the change may not
    // have reached the queue yet, or missed it): never, and no copy kept.
    if (row.state) {
      await sql.query(
        `UPDATE mail_delivery SET state = 'failed', message = NULL, last_error = $2, updated_at = now() WHERE key = $1`,
        [key, row.state === 'erased' ? RECIPIENT_ERASED : RECIPIENT_DEACTIVATED],
      );
      return;
    }
    let messageId: string;
    try {
      // The text as the row has it now (reviseQueued), not as the job was made with, to
      // the account's address as it is now (an admin may have corrected a mistyped one).
      ({ messageId } = await options.send({ ...row.message, to: row.email ?? row.message.to }));
    } catch (error) {
      // The server's reason without the recipient's address (it often quotes it).
      const reason = mailFailureReason(error);
      const last = job.retryCount >= job.retryLimit;
      // Settled on the row as it is once a revision under way has committed (its lock):
      // withdrawn while it was being sent, it goes, key and all (a mark given later brings
      // a mail of its own); dropped meanwhile (an erasure), it stays dropped; else it waits
      // for its retry, claimable again (by this job's retry, or any other for its key).
      await inTransaction(sql, async (client) => {
        const [row] = (
          await client.query<{ withdrawn: boolean | null; kept: boolean }>(
            `SELECT withdrawn, message IS NOT NULL AS kept FROM mail_delivery WHERE key = $1 FOR UPDATE`,
            [key],
          )
        ).rows;
        if (row?.withdrawn) await client.query(`DELETE FROM mail_delivery WHERE key = $1`, [key]);
        else if (row?.kept) {
          await client.query(
            `UPDATE mail_delivery SET state = $2, attempts = attempts + 1, last_error = $3, claimed_by = NULL,
               updated_at = now()
             WHERE key = $1`,
            [key, last ? 'failed' : 'queued', reason],
          );
        }
      });
      console.error(`Mail delivery failed (${last ? 'retries spent: tried again later' : 'will retry'}): ${reason}`);
      throw error;
    }
    await recordSent(key, messageId);
  };

  /**
   * Sent: no copy of its text is kept (an admin's invitation holds a live code, a marks
   * mail a child's marks); the key stays, so it is never sent twice. Written until it is
   * (the database restarting, say): the mail server has the mail, and a failure here
   * taken for a failed send would queue it again, to be sent a second time.
   */
  const recordSent = async (key: string, messageId: string) => {
    // Short pauses: a stop waits for this, and a long outage must not outlive the job's expiry.
    for (let pause = 250; ; pause = Math.min(pause * 2, 2_000)) {
      try {
        await sql.query(
          `UPDATE mail_delivery SET state = 'sent', message_id = $2, attempts = attempts + 1, last_error = NULL,
             message = NULL, updated_at = now() WHERE key = $1`,
          [key, messageId],
        );
        return;
      } catch (error) {
        // Stopping, and still refused a few seconds on: the row stays claimed by this job, whose
        // retry after a restart sends the mail again.
        if (!running && Date.now() - stoppedAt > STOP_RECORD_MS) throw error;
        console.error(`mail queue: a sent mail could not be marked sent, trying again: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  };

  /**
   * A batch of jobs, `sendConcurrency` mails in flight at once (the mailer keeps
   * that many SMTP connections open): a publication's 4,000 mails no longer wait
   * for one SMTP conversation after the other. Each mail's state is still read
   * before and written right after its own send, so each key is sent once.
   */
  const deliverBatch = async (jobs: PgBoss.JobWithMetadata<MailJob>[]) => {
    const done: string[] = [];
    const failed: Array<{ id: string; message: string; last: boolean }> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(sendConcurrency, jobs.length) }, async () => {
        // A stop lets the mails under way finish, and starts no more of the batch.
        while (running && next < jobs.length) {
          const job = jobs[next++]!;
          try {
            await deliver(job);
            done.push(job.id);
          } catch (error) {
            failed.push({ id: job.id, message: mailFailureReason(error), last: job.retryCount >= job.retryLimit });
          }
        }
      }),
    );
    // Done jobs go at once with their data (the mail's text), not kept for pg-boss's retention
    // days; so do jobs whose retries are spent (the mail's row keeps what retryFailed needs).
    const spent = failed.filter((f) => f.last).map((f) => f.id);
    if (done.length || spent.length) await boss.deleteJob(QUEUE, [...done, ...spent]);
    for (const { id, message } of failed.filter((f) => !f.last)) await boss.fail(QUEUE, id, { message });
    // Not started before a stop: handed back, to be tried again (by any instance) after the
    // retry delay rather than once their claim expires. One on its last try would end failed
    // with its text kept: it goes, and its row (still queued) gets a new job at the next sweep.
    const notStarted = jobs.slice(next);
    const lastTry = notStarted.filter((job) => job.retryCount >= job.retryLimit).map((job) => job.id);
    const again = notStarted.filter((job) => job.retryCount < job.retryLimit).map((job) => job.id);
    if (lastTry.length) await boss.deleteJob(QUEUE, lastTry);
    if (again.length) await boss.fail(QUEUE, again);
  };

  // Our own loop rather than boss.work(): pg-boss 10's worker does not await its
  // complete/fail calls, whose rejections (the database restarting) would crash the app.
  const pollMs = (options.pollingIntervalSeconds ?? 1) * 1000;
  const sendConcurrency = options.sendConcurrency ?? 5;
  let running = true;
  let stoppedAt = 0;
  let lastSweep = Date.now();
  let wake: (() => void) | undefined;
  const pause = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, pollMs).unref();
    });
  const loop = (async () => {
    while (running) {
      try {
        const jobs = await boss.fetch<MailJob>(QUEUE, { batchSize: sendConcurrency * 4, includeMetadata: true });
        if (!jobs.length) {
          // Idle: now and then, the withdrawn mails nobody is sending go, and a mail left
          // queued without a job (its sender died on its last try, say) gets one.
          if (Date.now() - lastSweep >= SWEEP_MS) {
            lastSweep = Date.now();
            await dropWithdrawn();
            await requeueUnsent();
          }
          await pause();
          continue;
        }
        await deliverBatch(jobs);
      } catch (error) {
        // The database is away (restarting, frozen): try again later.
        console.error('mail queue:', error instanceof Error ? error.message : error);
        await pause();
      }
    }
  })();

  /** The keys, then a job per key not queued before, on the caller's transaction. */
  const insertJobs = async (client: pg.PoolClient, jobs: ReadonlyArray<EnqueuedMail>) => {
    const inserted = await client.query<{ key: string }>(
      `INSERT INTO mail_delivery (key, message, account_id) SELECT * FROM unnest($1::text[], $2::jsonb[], $3::text[])
       ON CONFLICT (key) DO NOTHING RETURNING key`,
      [
        jobs.map((job) => job.idempotencyKey),
        jobs.map((job) => JSON.stringify(job.message)),
        jobs.map((job) => job.accountId ?? null),
      ],
    );
    const fresh = new Set(inserted.rows.map((row) => row.key));
    const toSend = jobs.filter((job) => fresh.delete(job.idempotencyKey));
    if (!toSend.length) return;
    await boss.insert(
      toSend.map((job) => ({
        name: QUEUE,
        data: { key: job.idempotencyKey, message: job.message } satisfies MailJob,
        retryLimit: options.retryLimit,
        retryDelay: options.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: queueOptions.expireInSeconds,
      })),
      { db: { executeSql: (text, values) => client.query(text, values) } },
    );
  };

  /** The key and the job in one transaction (the caller's, or one of their own): both or neither. */
  const enqueueMany = async (jobs: ReadonlyArray<EnqueuedMail>, transaction?: pg.PoolClient) => {
    if (!jobs.length) return;
    if (transaction) await insertJobs(transaction, jobs);
    else await inTransaction(sql, (client) => insertJobs(client, jobs));
    // Seen at once when committed by now, else at the next poll.
    wake?.();
  };

  return {
    enqueue: (message, idempotencyKey, accountId) => enqueueMany([{ message, idempotencyKey, accountId }]),
    enqueueMany,
    reviseQueued: async (revisions, transaction) => {
      const revised = revisions.filter((revision) => revision.message !== null);
      const withdrawn = revisions.filter((revision) => revision.message === null).map((r) => r.idempotencyKey);
      // The rows first, in one order: a send failing meanwhile settles them before this
      // or after it commits, never between two of its statements.
      await transaction.query(`SELECT 1 FROM mail_delivery WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE`, [
        revisions.map((revision) => revision.idempotencyKey),
      ]);
      // A mail being sent right now goes as its sender read it (in its claim); should that
      // send fail, its retry tells the new text. One withdrawn during that send is given its
      // text back (a mark given again at once): its retry sends it.
      if (revised.length) {
        await transaction.query(
          `UPDATE mail_delivery d SET message = r.message, withdrawn = NULL, updated_at = now()
           FROM unnest($1::text[], $2::jsonb[]) AS r(key, message)
           WHERE d.key = r.key AND ((d.state IN ('queued', 'failed') AND d.message IS NOT NULL)
             OR (d.state = 'queued' AND d.withdrawn))`,
          [
            revised.map((revision) => revision.idempotencyKey),
            revised.map((revision) => JSON.stringify(revision.message)),
          ],
        );
      }
      // Withdrawn: its key goes too, so that a mark given later brings a mail of its own
      // (its job, should it run, finds no row and sends nothing). One being sent right now
      // is marked: it goes if that send succeeds (too late to stop), and is gone if it fails.
      if (withdrawn.length) {
        await transaction.query(
          `DELETE FROM mail_delivery d
           WHERE d.key = ANY($1::text[]) AND d.state IN ('queued', 'failed') AND d.message IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM ${MAIL_QUEUE_SCHEMA}.job j
                             WHERE j.name = $2 AND j.id = d.claimed_by::uuid AND j.state = 'active')`,
          [withdrawn, QUEUE],
        );
        await transaction.query(
          `UPDATE mail_delivery SET withdrawn = true, message = NULL, updated_at = now()
           WHERE key = ANY($1::text[]) AND state = 'queued' AND message IS NOT NULL`,
          [withdrawn],
        );
      }
    },
    forgetMail: async (addresses, accountId) => {
      if (!addresses.length && !accountId) return;
      const lower = addresses.map((address) => address.toLowerCase());
      // (A sent mail keeps no copy, only its key, which names its job below.)
      const { rows } = await sql.query<{ key: string }>(
        `WITH about AS (
           SELECT key FROM mail_delivery WHERE lower(message->>'to') = ANY($1) OR account_id = $2
         ), forgotten AS (
           UPDATE mail_delivery d SET message = NULL,
             state = CASE WHEN state = 'queued' THEN 'failed' ELSE state END,
             last_error = '${RECIPIENT_ERASED}', updated_at = now()
           FROM about WHERE d.key = about.key AND (d.message IS NOT NULL OR d.last_error IS NOT NULL)
         )
         SELECT key FROM about`,
        [lower, accountId ?? null],
      );
      const keys = rows.map((row) => row.key);
      for (const table of ['job', 'archive']) {
        await sql
          .query(
            `DELETE FROM ${MAIL_QUEUE_SCHEMA}.${table}
             WHERE name = $1 AND (lower(data->'message'->>'to') = ANY($2) OR data->>'key' = ANY($3))`,
            [QUEUE, lower, keys],
          )
          .catch((error: unknown) => {
            // pg-boss 10 has no archive table in some layouts: nothing to forget there.
            if ((error as { code?: string }).code !== '42P01') throw error;
          });
      }
    },
    drain: async (timeoutMs = 120_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const { rows } = await sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM mail_delivery WHERE state = 'queued'`,
        );
        if (Number(rows[0]?.n ?? 0) === 0) return;
        if (Date.now() > until) throw new Error('mail queue: still sending after the drain timeout');
        wake?.();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    status: async () => {
      const { rows } = await sql.query<{ state: keyof MailQueueStatus; n: string }>(
        `SELECT state, count(*) AS n FROM mail_delivery GROUP BY state`,
      );
      const status: MailQueueStatus = { queued: 0, failed: 0, sent: 0 };
      for (const row of rows) status[row.state] = Number(row.n);
      return status;
    },
    stop: async () => {
      running = false;
      stoppedAt = Date.now();
      clearInterval(retrying);
      wake?.();
      // A send in progress finishes (within the SMTP timeouts).
      await loop;
      await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
    },
  };
}

// What the cloud code needs from its host (the server wires these in at start-up).

import type { LimitGroup } from '@tc/domain/api/contract';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SmsMessage {
  to: string;
  message: string;
}

export interface MailQueueStatus {
  queued: number;
  failed: number;
  sent: number;
}

export interface MailJob {
  message: MailMessage;
  /** A job with a key already queued is dropped: one mail per key, ever. */
  idempotencyKey: string;
  /** The student's account the mail is about: sent to its address as it is then, and not sent once that account is erased or deactivated. */
  accountId?: string;
}

/**
 * Runs one SQL statement and gives its rows. With a `prepared` name, the statement
 * is prepared once per connection and its plan kept: for the statements every
 * signed-in call runs (a name stands for one text only).
 */
export type Sql = <Row extends object = Record<string, unknown>>(
  text: string,
  values?: readonly unknown[],
  prepared?: string,
) => Promise<Row[]>;

export interface Transaction {
  sql: Sql;
  /** Queues many e-mails at once, with the rule per key of `enqueueMail`, in the transaction. */
  enqueueMails(jobs: readonly MailJob[]): Promise<void>;
  /**
   * Gives mails not sent yet a new text, or none (`message: null`: not sent), in the
   * transaction; a mail sent or being sent stays as it went.
   */
  reviseQueuedMails(revisions: readonly { idempotencyKey: string; message: MailMessage | null }[]): Promise<void>;
}

export interface CloudDeps {
  /**
   * Counts one call of a limit group for a client address; rejects with an
   * AppError(TooManyRequests) once the address has used up its window.
   */
  countCall(group: Exclude<LimitGroup, 'none'>, clientAddress: string): Promise<void>;
  /**
   * Counts one fetch of a calendar feed, by its token (not by address: calendar services fetch
   * every subscriber's feed from a few addresses); rejects with an AppError(TooManyRequests)
   * past FEED_FETCHES_PER_HOUR.
   */
  countFeedFetch(token: string): Promise<void>;
  /** Sends an e-mail now (one-time codes: the parent is waiting); resolves with the transport's message id. */
  sendMail(message: MailMessage): Promise<{ messageId: string }>;
  /**
   * Queues an e-mail on the durable queue (retried while the mail server is down,
   * kept across restarts); sent once per idempotency key, e.g. `welcome:<objectId>`.
   */
  enqueueMail(message: MailMessage, idempotencyKey: string, accountId?: string): Promise<void>;
  /** Counts of the durable mail queue. */
  mailQueueStatus(): Promise<MailQueueStatus>;
  /**
   * Drops the mails to these addresses or about this account still queued, and
   * every kept copy of such a mail (erasure).
   */
  forgetMail(addresses: readonly string[], accountId?: string): Promise<void>;
  /**
   * Writes an account's erasure into the ledger kept beside the backups, so that a
   * restore of an older backup erases the child again, onto an empty database too.
   * Never rejects: a failure is logged, and the next start writes what the ledger lacks.
   */
  noteErasure(accountId: string): Promise<void>;
  /**
   * The site's PostgreSQL, for the bulk statements Parse cannot express (thousands
   * of marks in one INSERT); the classes are Parse's tables.
   */
  sql: Sql;
  /**
   * Runs `work` in one database transaction, on one connection: what it writes and
   * the mails it queues are kept together or not at all (committed when `work`
   * resolves, rolled back when it throws). Its locks last until then.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Sends a text message to a 10-digit mobile number. */
  sendSms(message: SmsMessage): Promise<void>;
  /** Secret that keys the hashes of one-time codes. */
  codeSecret: string;
  /** The next enrollment number, from a database sequence (never reused). */
  nextEnrollmentId(): Promise<number>;
  /** Failed-login counters and the proof-of-work challenge. */
  loginGuard: LoginGuard;
  /** Idle timeout and absolute lifetime of sessions, by role. */
  sessions: { student: SessionPolicy; admin: SessionPolicy };
  /** Where the site is reached, for links in mails. */
  publicUrl: string;
  /** Display name of the bootstrapped administrator. */
  adminName: string;
  /** The bootstrapped administrator's address (ADMIN_EMAIL): its account is never an invitation's to delete. */
  adminEmail: string;
  /** The IANA time zone every class time is in (CENTRE_TIMEZONE), e.g. Asia/Kolkata. */
  centreTimeZone: string;
}

/** 'busy': as many tries of this account from this address are being checked as may still fail; none is locked. */
export type LoginCheck = 'ok' | 'locked' | 'challenge' | 'busy';

export interface LoginGuard {
  /**
   * Whether this address may try a password on this account now (`proof`: a
   * solved challenge). The try is counted already, unless 'locked': failed() or
   * succeeded() follows once the password has been checked, release() when it
   * is not checked after all (refused for a missing proof, a fault).
   */
  check(account: string, address: string, proof?: unknown): Promise<{ verdict: LoginCheck }>;
  /** The try check() let through had a wrong password. */
  failed(account: string, address: string): Promise<void>;
  /** The try check() let through had the right password: its counts are taken back. */
  succeeded(account: string, address: string): Promise<void>;
  /** The try check() counted was never made: its counts are taken back. */
  release(account: string, address: string): Promise<void>;
  /** The owner proved who they are otherwise (a reset by e-mailed code): this address's failures go. */
  forgive(account: string, address: string): Promise<void>;
  /** A new ALTCHA challenge, as the widget fetches it. */
  challenge(): Promise<object>;
}

export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
}

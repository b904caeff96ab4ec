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

export interface CloudDeps {
  /**
   * Counts one call of a limit group for a client address; rejects with an
   * AppError(TooManyRequests) once the address has used up its window.
   */
  countCall(group: Exclude<LimitGroup, 'none'>, clientAddress: string): Promise<void>;
  /** Sends an e-mail; resolves with the transport's message id. */
  sendMail(message: MailMessage): Promise<{ messageId: string }>;
  /** Sends a text message to a 10-digit mobile number. */
  sendSms(message: SmsMessage): Promise<void>;
  /** Secret that keys the hashes of one-time codes. */
  codeSecret: string;
  /** The next enrollment number, from a database sequence (never reused). */
  nextEnrollmentId(): Promise<number>;
  /** Clears the failed-login counter and lockout of an account. */
  unlockAccount(username: string): Promise<void>;
  /** Where the site is reached, for links in mails. */
  publicUrl: string;
  /** Display name of the bootstrapped administrator. */
  adminName: string;
  /** The IANA time zone every class time is in (CENTRE_TIMEZONE), e.g. Asia/Kolkata. */
  centreTimeZone: string;
}

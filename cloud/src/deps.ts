// What the cloud code needs from its host (the server wires these in at start-up).

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
  /** Sends an e-mail; resolves with the transport's message id. */
  sendMail(message: MailMessage): Promise<{ messageId: string }>;
  /** Sends a text message to a 10-digit mobile number. */
  sendSms(message: SmsMessage): Promise<void>;
  /** Secret that keys the hashes of one-time codes. */
  codeSecret: string;
  /** The next enrollment number, from a database sequence (never reused). */
  nextEnrollmentId(): Promise<number>;
  /** Failed-login counters and the proof-of-work challenge (product.md §10). */
  loginGuard: LoginGuard;
  /** Idle timeout and absolute lifetime of sessions, by role. */
  sessions: { student: SessionPolicy; admin: SessionPolicy };
  /** Where the site is reached, for links in mails. */
  publicUrl: string;
  /** Display name of the bootstrapped administrator. */
  adminName: string;
}

export type LoginCheck = 'ok' | 'locked' | 'challenge';

export interface LoginGuard {
  /** Whether this address may try a password on this account now (`proof`: a solved challenge). */
  check(account: string, address: string, proof?: unknown): Promise<LoginCheck>;
  failed(account: string, address: string): Promise<void>;
  succeeded(account: string, address: string): Promise<void>;
  /** A new ALTCHA challenge, as the widget fetches it. */
  challenge(): Promise<object>;
}

export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
}

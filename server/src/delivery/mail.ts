// E-mail through nodemailer over SMTP_URL, or the development outbox.

import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { MailMessage } from '@tc/cloud/deps';
import type { Outbox } from './outbox.ts';

export type SendMail = (message: MailMessage) => Promise<{ messageId: string }>;

export function createMailer(
  smtpUrl: string | undefined,
  from: string,
  outbox: Outbox,
  timeoutMs = 10_000,
  /** Keep up to this many SMTP connections open and reuse them (the mail queue's many mails); 0: one per mail. */
  poolConnections = 0,
): { send: SendMail; close(): void } {
  if (!smtpUrl) {
    return {
      send: async (message) => {
        const messageId = `<${randomUUID()}@outbox.local>`;
        await outbox.write('E-MAIL', message.to, `Subject: ${message.subject}\n\n${message.text}`);
        return { messageId };
      },
      close: () => undefined,
    };
  }
  // nodemailer waits minutes by default; a stalled mail server must not hold a parent's request.
  const transport = nodemailer.createTransport(
    {
      url: smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      ...(poolConnections > 0 ? { pool: true, maxConnections: poolConnections } : {}),
    },
    { from },
  );
  return {
    send: async (message) => {
      const info = await transport.sendMail({ from, ...message });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

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
  const transport = nodemailer.createTransport(smtpUrl, { from });
  return {
    send: async (message) => {
      const info = await transport.sendMail({ from, ...message });
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

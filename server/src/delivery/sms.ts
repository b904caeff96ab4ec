// SMS as `POST SMS_WEBHOOK_URL` with JSON {to, message}, or the development outbox.

import type { SmsMessage } from '@tc/cloud/deps';
import type { Outbox } from './outbox.ts';

export type SendSms = (message: SmsMessage) => Promise<void>;

export function createSmsSender(webhookUrl: string | undefined, outbox: Outbox, timeoutMs = 10_000): SendSms {
  if (!webhookUrl) return (sms) => outbox.write('SMS', sms.to, sms.message);
  return async (sms) => {
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: sms.to, message: sms.message }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
  };
}

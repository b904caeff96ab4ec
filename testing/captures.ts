// Local captures of what the site sends: an SMTP server (smtp-server) and an
// HTTP endpoint standing in for the SMS gateway.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  raw: string;
}

export interface CapturedSms {
  to: string;
  message: string;
}

export interface Captures {
  smtpUrl: string;
  smsUrl: string;
  mails: CapturedMail[];
  sms: CapturedSms[];
  /** Makes the SMS gateway fail (status 500) while true. */
  failSms: boolean;
  /** The SMS gateway answers (and records the message) only after this long. */
  smsDelayMs: number;
  /** The mail server refuses every mail (451, try again later) while true. */
  failMail: boolean;
  /** With failMail, the mail server refuses each recipient only after this long (a slow refusal). */
  refuseDelayMs: number;
  /** The mail server takes the message and never answers it while true. */
  stallMail: boolean;
  /** The mail server answers (and records) each message only after this long. */
  mailDelayMs: number;
  /** The recipients of each message whose text the mail server has begun to receive (recorded or not). */
  mailsBegun: string[][];
  close(): Promise<void>;
}

export async function startCaptures(): Promise<Captures> {
  const mails: CapturedMail[] = [];
  const sms: CapturedSms[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Refused as real servers do, quoting the recipient's address (which the site must not log or keep).
    onRcptTo(address, _session, callback) {
      if (!captures.failMail) return callback();
      const refused = new Error(`<${address.address}>: Mail server busy, try again later`) as Error & {
        responseCode: number;
      };
      refused.responseCode = 451;
      setTimeout(() => callback(refused), captures.refuseDelayMs);
    },
    onData(stream, session, callback) {
      captures.mailsBegun.push(session.envelope.rcptTo.map((r) => r.address));
      const chunks: Buffer[] = [];
      const stall = captures.stallMail;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stall) return;
        setTimeout(() => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        }, captures.mailDelayMs);
      });
    },
  });
  // A client that vanishes mid-connection (a site killed with -9 while its pooled SMTP
  // connection is open) is ordinary for a mail server: not an uncaught error of the tests.
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const captures: Captures = {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smsUrl: '',
    mails,
    sms,
    failSms: false,
    smsDelayMs: 0,
    failMail: false,
    refuseDelayMs: 0,
    stallMail: false,
    mailDelayMs: 0,
    mailsBegun: [],
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  const http: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (captures.failSms) {
        res.writeHead(500).end();
        return;
      }
      const answer = () => {
        sms.push(JSON.parse(body) as CapturedSms);
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      };
      if (captures.smsDelayMs > 0) setTimeout(answer, captures.smsDelayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  captures.smsUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/sms`;
  return captures;
}

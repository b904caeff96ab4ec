// The temporary mail stand-in keeps the queue's promise of one mail per key:
// the same key queued twice, in one call or in two, is mailed once.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPool, type Sql } from '../database/sql.ts';
import { startCaptures, type Captures } from '../test-support/captures.ts';
import { createDatabase } from '../test-support/site.ts';
import { createDirectMailQueue } from './direct-mail-queue.ts';
import { createMailer } from './mail.ts';
import { Outbox } from './outbox.ts';

let sql: Sql;
let captures: Captures;
beforeAll(async () => {
  sql = createPool(await createDatabase(), 2);
  captures = await startCaptures();
});
afterAll(async () => {
  await sql?.end();
  await captures?.close();
});

it('mails each idempotency key once', async () => {
  const mailer = createMailer(
    captures.smtpUrl,
    'centre@example.com',
    new Outbox(mkdtempSync(path.join(tmpdir(), 'tc-'))),
  );
  const queue = await createDirectMailQueue(sql, mailer.send);
  const mail = (to: string) => ({ to, subject: 'New marks', text: 'hello' });
  await queue.enqueueMails([
    { message: mail('a@example.com'), idempotencyKey: 'k-a' },
    { message: mail('a@example.com'), idempotencyKey: 'k-a' },
    { message: mail('b@example.com'), idempotencyKey: 'k-b' },
  ]);
  await queue.enqueueMail(mail('a@example.com'), 'k-a');
  // A second instance on the same database knows the keys too.
  const other = await createDirectMailQueue(sql, mailer.send);
  await other.enqueueMail(mail('b@example.com'), 'k-b');
  await Promise.all([queue.drain(), other.drain()]);
  mailer.close();
  expect(captures.mails.map((m) => m.to[0]).sort()).toEqual(['a@example.com', 'b@example.com']);
});

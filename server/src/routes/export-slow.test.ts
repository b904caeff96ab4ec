// GET /api/users/export.csv to an admin on a slow connection: the rows come from a cursor
// in many fetches, for as long as the download takes, past the time limit of one statement
// (the database's, and pg's a second later). A site of its own: its limit is short.

import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { EXPORT_PATH } from '@tc/domain/admin-tools';
import { seedStudents } from '../database/seed.ts';
import { loginAdmin, startTestSite, type TestSite } from '../../../testing/site.ts';

describe('the CSV export to a slow connection', () => {
  let slow: TestSite;
  let token: string;
  beforeAll(async () => {
    // A statement may take half a second here (pg's limit is 1.5 s); the export to a slow
    // reader takes longer.
    slow = await startTestSite({ DATABASE_STATEMENT_TIMEOUT_MS: '500' });
    token = await loginAdmin(slow);
    await seedStudents(slow.sql, 30_000);
    // Long names make a file of 12 MB: more than the sockets and the site's streams hold
    // while the admin's connection takes nothing (a few MB), so the cursor has to wait.
    await slow.sql.query(
      `UPDATE "_User" SET fullname = fullname || repeat(' Name', 60) WHERE "enrollmentId" IS NOT NULL`,
    );
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it('sends every row however long the download takes, not only what came within one statement time limit', async () => {
    const url = new URL(`${slow.url}${EXPORT_PATH}?status=all`);
    // An admin whose connection takes nothing for 3 s after the first bytes, then the rest.
    const { status, body, failure } = await new Promise<{ status?: number; body: Buffer; failure?: Error }>(
      (resolve) => {
        const chunks: Buffer[] = [];
        const done = (failure?: Error) => resolve({ status: res?.statusCode, body: Buffer.concat(chunks), failure });
        let res: IncomingMessage | undefined;
        get(url, { headers: { authorization: `Bearer ${token}` } }, (answer) => {
          res = answer;
          answer.once('data', () => {
            answer.pause();
            setTimeout(() => answer.resume(), 3_000);
          });
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => done());
          answer.on('error', done);
          answer.on('close', () => done(answer.complete ? undefined : new Error('The answer was cut off')));
        }).on('error', done);
      },
    );
    expect(failure).toBeUndefined();
    expect(status).toBe(200);
    const rows: string[][] = parseCsv(body.toString('utf8'), { bom: true });
    const everyone = await slow.api('GET', '/api/users?status=all&limit=1', undefined, token);
    expect(rows.slice(1)).toHaveLength(Number(everyone.headers.get('x-total-count')));
  });
});

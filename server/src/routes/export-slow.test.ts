// GET /api/users/export.csv to an admin on a slow connection: the rows come from a cursor
// in many fetches, for as long as the download takes, past the time limit of one statement
// (the database's, and pg's a second later). A site of its own: its limit is short.

import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { EXPORT_PATH } from '@tc/domain/admin-tools';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { EXPORTS_AT_ONCE } from './export.ts';
import { seedStudents } from '../database/seed.ts';
import { loginAdmin, startTestSite, type TestSite } from '../../../testing/site.ts';

describe('the CSV export to a slow connection', () => {
  let slow: TestSite;
  let token: string;
  /** Every student, as the table counts them: the rows of a whole export. */
  let everyone: number;
  beforeAll(async () => {
    // A statement may take half a second here (pg's limit is 1.5 s); the export to a slow
    // reader takes longer.
    slow = await startTestSite({ DATABASE_STATEMENT_TIMEOUT_MS: '500' });
    token = await loginAdmin(slow);
    await seedStudents(slow.sql, 30_000);
    // Long names make a file of 60 MB: more than the sockets and the site's streams hold
    // while the admin's connection takes nothing, so the cursor has to wait. (12 MB was not:
    // Linux lets a socket's receive buffer grow to 32 MB, and one of three exports at once
    // could end with its reader paused, its place given back.)
    await slow.sql.query(
      `UPDATE "_User" SET fullname = fullname || repeat(' Name', 400) WHERE "enrollmentId" IS NOT NULL`,
    );
    // Asked once, here: a call after a long download could meet a kept-alive connection the
    // site has just closed.
    const listed = await slow.api('GET', '/api/users?status=all&limit=1', undefined, token);
    everyone = Number(listed.headers.get('x-total-count'));
  });
  afterAll(async () => {
    await slow?.stop();
  });

  interface Download {
    status?: number;
    body: Buffer;
    failure?: Error;
  }

  /** An export to an admin whose connection takes the first bytes, then nothing until `resume`. */
  function pausedDownload(): Promise<{ resume: () => Promise<Download> }> {
    return new Promise((paused, refused) => {
      const chunks: Buffer[] = [];
      let finish: (download: Download) => void;
      const finished = new Promise<Download>((resolve) => (finish = resolve));
      get(
        new URL(`${slow.url}${EXPORT_PATH}?status=all`),
        { headers: { authorization: `Bearer ${token}` } },
        (answer) => {
          const done = (failure?: Error) => finish({ status: answer.statusCode, body: Buffer.concat(chunks), failure });
          answer.once('data', () => {
            answer.pause();
            paused({ resume: () => (answer.resume(), finished) });
          });
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => done());
          answer.on('error', done);
          answer.on('close', () => done(answer.complete ? undefined : new Error('The answer was cut off')));
        },
      ).on('error', refused);
    });
  }

  function expectEveryRow(download: Download) {
    expect(download.failure).toBeUndefined();
    expect(download.status).toBe(200);
    const rows: string[][] = parseCsv(download.body.toString('utf8'), { bom: true });
    expect(rows.slice(1)).toHaveLength(everyone);
  }

  /**
   * Waits until no export is under way at the database, then a moment more: an export gives
   * its place back just after its last byte, once its connection is back in the pool, so a
   * download begun as the one before ends can be refused (seen in CI under load).
   */
  async function untilExportsGiveTheirPlacesBack() {
    await expect
      .poll(
        async () =>
          (
            await slow.sql.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity
                WHERE (query LIKE 'SELECT %FROM "_User" WHERE %' OR query LIKE 'RESET statement_timeout%')
                  AND state <> 'idle' AND pid <> pg_backend_pid()`,
            )
          ).rows[0]!.n,
        { timeout: 10_000 },
      )
      .toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  /** Exports whose cursor is still open: waiting for their reader (the whole file is more than the buffers hold). */
  const cursorsOpen = async () =>
    (
      await slow.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT %FROM "_User" WHERE %' AND state <> 'idle' AND pid <> pg_backend_pid()`,
      )
    ).rows[0]!.n;

  it('sends every row however long the download takes, not only what came within one statement time limit', async () => {
    const { resume } = await pausedDownload();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Past the statement limit, the cursor still waits for the reader.
    expect(await cursorsOpen()).toBe(1);
    expectEveryRow(await resume());
  });

  it('refuses an export while EXPORTS_AT_ONCE are downloading, each holding a database connection', async () => {
    await untilExportsGiveTheirPlacesBack();
    const downloads = await Promise.all(Array.from({ length: EXPORTS_AT_ONCE }, () => pausedDownload()));
    // Each holds its cursor's connection (its first bytes can come a moment before the database
    // shows the cursor's statement under way).
    await expect.poll(cursorsOpen, { timeout: 10_000 }).toBe(EXPORTS_AT_ONCE);
    const refused = await slow.api('GET', `${EXPORT_PATH}?status=all`, undefined, token);
    expect(refused).toMatchObject({ status: 429, body: { error: AdminToolsMessage.exportsBusy } });
    expect(refused.headers.get('retry-after')).toBe('60');
    for (const download of await Promise.all(downloads.map(({ resume }) => resume()))) expectEveryRow(download);
    // Done, they make room again.
    await untilExportsGiveTheirPlacesBack();
    const { resume } = await pausedDownload();
    expectEveryRow(await resume());
  });
});

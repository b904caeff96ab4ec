// DASHBOARD_ENABLED=false turns Parse Dashboard off. A site of
// its own: one Parse Server per test process.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../testing/site.ts';

let off: TestSite;

beforeAll(async () => {
  off = await startTestSite({ DASHBOARD_ENABLED: 'false', TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await off?.stop();
});

describe('Parse Dashboard switched off', () => {
  it('is not served', async () => {
    expect((await fetch(`${off.url}/parse-dashboard/login`)).status).toBe(404);
    expect((await fetch(`${off.url}/parse-dashboard/parse-dashboard-config.json`)).status).toBe(404);
  });

  it('leaves the read-only key nothing to read beside: it reads from MASTER_KEY_IPS only', async () => {
    const read = (from?: string) =>
      fetch(`${off.url}/parse/classes/_User?limit=1`, {
        headers: {
          'x-parse-application-id': off.site.config.appId,
          'x-parse-master-key': off.site.config.readOnlyMasterKey,
          ...(from ? { 'x-forwarded-for': from } : {}),
        },
      });
    expect((await read('203.0.113.40')).status).toBe(403);
    expect((await read()).status).toBe(200);
  });
});

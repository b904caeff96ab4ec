// DASHBOARD_ENABLED=false turns Parse Dashboard off. A site of
// its own: one Parse Server per test process.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../testing/site.ts';

let off: TestSite;

beforeAll(async () => {
  off = await startTestSite({ DASHBOARD_ENABLED: 'false' });
});
afterAll(async () => {
  await off?.stop();
});

describe('Parse Dashboard switched off', () => {
  it('is not served', async () => {
    expect((await fetch(`${off.url}/parse-dashboard/login`)).status).toBe(404);
    expect((await fetch(`${off.url}/parse-dashboard/parse-dashboard-config.json`)).status).toBe(404);
  });
});

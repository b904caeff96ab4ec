// The calendar feed is a look-up of a secret: fetching it counts in the same
// per-address limit as the other look-ups (a site of its own, with a low limit).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../../testing/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ RATE_LIMIT_MAX: '3' });
});
afterAll(async () => {
  await t?.stop();
});

it('counts feed fetches in the look-up group', async () => {
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await fetch(`${t.url}/api/calendar/${'B'.repeat(32)}.ics`)).status);
  expect(statuses).toEqual([404, 404, 404, 429, 429]);
  expect((await t.api('POST', '/api/check-email', { email: 'a@example.com' })).status).toBe(429);
});

// A feed's address, once known (forwarded, left on an old device), is fetched at most
// FEED_FETCHES_PER_HOUR times an hour, counted by the feed, not by the address: calendar
// services fetch every subscriber's feed from a few addresses of their own.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { FEED_FETCHES_PER_HOUR } from './rate-limit.ts';
import { loginStudent, register, startTestSite, type TestSite } from '../../testing/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

async function newFeed(): Promise<string> {
  const { student } = await register(t);
  const token = await loginStudent(t, student.email, student.password);
  return ((await t.api('GET', '/api/students/me/calendar', undefined, token)).body as { url: string }).url;
}

it('serves one feed at most FEED_FETCHES_PER_HOUR times an hour; other feeds go on', async () => {
  const [busy, other] = [await newFeed(), await newFeed()];
  const statuses = new Map<number, number>();
  for (let i = 0; i < FEED_FETCHES_PER_HOUR + 1; i++) {
    const status = (await fetch(busy)).status;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  expect(Object.fromEntries(statuses)).toEqual({ 200: FEED_FETCHES_PER_HOUR, 429: 1 });
  const refused = await fetch(busy);
  expect(refused.status).toBe(429);
  // A calendar app is told when to come back.
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await fetch(other)).status).toBe(200);
});

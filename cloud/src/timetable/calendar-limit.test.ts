// The calendar feed is a look-up of a secret: a miss counts in the same
// per-address limit as the other look-ups (a site of its own, with a low limit);
// a hit never does, since calendar services fetch every subscriber's feed from a
// few addresses of their own. A hit counts in its feed's own limit
// (server/src/calendar-feed-hits.test.ts).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { loginAdmin, loginStudent, register, startTestSite, type TestSite } from '../../../testing/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ RATE_LIMIT_MAX: '3' });
});
afterAll(async () => {
  await t?.stop();
});

it('counts missed feed fetches in the look-up group', async () => {
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await fetch(`${t.url}/api/calendar/${'B'.repeat(32)}.ics`)).status);
  expect(statuses).toEqual([404, 404, 404, 429, 429]);
  // A calendar app is told when to come back.
  expect(
    Number((await fetch(`${t.url}/api/calendar/${'B'.repeat(32)}.ics`)).headers.get('retry-after')),
  ).toBeGreaterThan(0);
  expect((await t.api('POST', '/api/check-email', { email: 'a@example.com' })).status).toBe(429);
});

it('serves a real feed however often one address fetches it, while that address is over the limit for misses', async () => {
  const { student, result } = await register(t);
  expect(result.status).toBe(201);
  const token = await loginStudent(t, student.email, student.password);
  const { url } = (await t.api('GET', '/api/students/me/calendar', undefined, token)).body as { url: string };
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await fetch(url)).status);
  expect(statuses).toEqual(Array(6).fill(200));
  expect((await fetch(`${t.url}/api/calendar/${'C'.repeat(32)}.ics`)).status).toBe(429);

  // A deactivated student's feed stops, and comes back with the account.
  const admin = await loginAdmin(t);
  const objectId = result.body.objectId as string;
  expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'deactivated' }, admin)).status).toBe(200);
  expect((await fetch(url)).status).toBe(429); // now a miss, and this address has none left
  expect((await t.api('PUT', `/api/users/${objectId}/status`, { status: 'active' }, admin)).status).toBe(200);
  expect((await fetch(url)).status).toBe(200);
});

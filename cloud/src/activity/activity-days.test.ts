// The Activity page's days are the centre's: an entry is found under the date an admin at
// the centre reads beside it, not under the date in UTC. On a site of its own, in a time
// zone whose date differs from UTC's now (UTC+14 from 10:00 UTC, UTC-12 before noon).
// The admin screens learn that zone from GET /api/admin/centre.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { zonedParts } from '@tc/domain/zoned-time';
import { loginAdmin, register, startTestSite, type TestSite } from '../../../testing/site.ts';

const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Etc/GMT+12';
let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ CENTRE_TIMEZONE: zone });
});
afterAll(async () => {
  await t?.stop();
});

it("finds an entry under the centre's date, and not under the date in UTC", async () => {
  const admin = await loginAdmin(t);
  const { result } = await register(t);
  const objectId = result.body.objectId as string;
  expect((await t.api('PUT', `/api/users/${objectId}`, { grade: 6 }, admin)).status).toBe(200);
  const now = new Date();
  const centreDay = zonedParts(now, zone).date;
  const utcDay = now.toISOString().slice(0, 10);
  // The point of the zone chosen above (it fails only when the test spans midnight UTC).
  expect(centreDay).not.toBe(utcDay);

  const on = async (day: string) => {
    const res = await t.api('GET', `/api/activity?from=${day}&to=${day}&kind=student.update`, undefined, admin);
    expect(res.status).toBe(200);
    return (res.body as { targetId: string }[]).filter((entry) => entry.targetId === objectId).length;
  };
  expect(await on(centreDay)).toBe(1);
  expect(await on(utcDay)).toBe(0);
  // From the centre's day on, and up to it.
  const from = await t.api('GET', `/api/activity?from=${centreDay}&kind=student.update`, undefined, admin);
  expect((from.body as { targetId: string }[]).some((entry) => entry.targetId === objectId)).toBe(true);
  const until = await t.api('GET', `/api/activity?to=${centreDay}&kind=student.update`, undefined, admin);
  expect((until.body as { targetId: string }[]).some((entry) => entry.targetId === objectId)).toBe(true);
});

it("tells an admin the centre's time zone, in which the admin screens show times; a caller without a session gets 401", async () => {
  const admin = await loginAdmin(t);
  const centre = await t.api('GET', '/api/admin/centre', undefined, admin);
  expect(centre.status).toBe(200);
  expect(centre.body).toEqual({ timeZone: zone });
  expect((await t.api('GET', '/api/admin/centre')).status).toBe(401);
});

// "Today" for the date-of-birth rules is the centre's date (CENTRE_TIMEZONE), not
// the date in the server clock's zone: the two differ for hours every day (a
// server on UTC is behind India from midnight to 05:30).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistrationMessage as M } from '@tc/domain/messages';
import { addDays, zonedParts } from '@tc/domain/zoned-time';
import { loginAdmin, register, startTestSite, type TestSite } from '../../../testing/site.ts';
import { newStudent } from '../../../testing/students.ts';

// 26 hours apart: the centre's date is always one or two days after the server's.
const SERVER_ZONE = 'Etc/GMT+12';
// Kiritimati is UTC+14 all year (a zone the calendar feed can describe, which the configuration asks).
const CENTRE_ZONE = 'Pacific/Kiritimati';
/** The fewest days that make 5 years of 365.25 days. */
const FIVE_YEARS_IN_DAYS = 1827;

let t: TestSite;
let admin: string;
const zoneBefore = process.env.TZ;
beforeAll(async () => {
  process.env.TZ = SERVER_ZONE;
  t = await startTestSite({ CENTRE_TIMEZONE: CENTRE_ZONE });
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t?.stop();
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

describe("the date-of-birth rules' today", () => {
  it("is the centre's date at registration and in an admin's edit", async () => {
    const centreToday = zonedParts(new Date(), CENTRE_ZONE).date;
    // Five years old today at the centre; a day or two short of it by the server's own date.
    const fiveToday = addDays(centreToday, -FIVE_YEARS_IN_DAYS);
    const { result } = await register(t, newStudent({ dob: fiveToday }));
    expect(result.status).toBe(201);

    const { result: other } = await register(t, newStudent());
    const edited = await t.api('PUT', `/api/users/${other.body.objectId}`, { dob: fiveToday }, admin);
    expect(edited).toMatchObject({ status: 200, body: { dob: fiveToday } });

    // A day less is still too young, and tomorrow at the centre is in the future.
    const young = await register(t, newStudent({ dob: addDays(fiveToday, 1) }));
    expect(young.result.body).toMatchObject({ field: 'dob', error: M.tooYoung });
    const future = await t.api('PUT', `/api/users/${other.body.objectId}`, { dob: addDays(centreToday, 1) }, admin);
    expect(future.body).toMatchObject({ field: 'dob', error: M.dobInFuture });
  });
});

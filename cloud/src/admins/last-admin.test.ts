// The site always keeps one administrator. On a site of its own: the test removes
// the site's own admin, whom the other admin tests use.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { inviteAndAcceptAdmin } from '../../../testing/admins.ts';
import { loginAdmin, startTestSite, type TestSite } from '../../../testing/site.ts';

let t: TestSite;
let admin: string;
beforeAll(async () => {
  t = await startTestSite();
  admin = await loginAdmin(t);
});
afterAll(async () => {
  await t?.stop();
});

it('never removes the last admin; an admin removed by another loses their session', async () => {
  const me = (await t.api('GET', '/api/admins', undefined, admin)).body.find((a: { self: boolean }) => a.self);
  const other = await inviteAndAcceptAdmin(t, admin);
  // The other removes the site's own admin, whose token then ends, and is the last.
  expect((await t.api('DELETE', `/api/admins/${me.objectId}`, undefined, other.token)).status).toBe(200);
  expect((await t.api('GET', '/api/admin/me', undefined, admin)).status).toBe(401);
  const last = await t.api('GET', '/api/admins', undefined, other.token);
  expect(last.body.filter((a: { invitedUntil?: string }) => !a.invitedUntil)).toHaveLength(1);
  const lastRemoval = await t.api('DELETE', `/api/admins/${other.objectId}`, undefined, other.token);
  expect(lastRemoval.status).toBe(403);
  expect(lastRemoval.body.error).toMatch(/own|last/);
  expect((await t.api('GET', '/api/admin/me', undefined, other.token)).status).toBe(200);
});

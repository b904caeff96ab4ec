// The site always keeps one administrator. On a site of its own: the test removes
// the site's own admin, whom the other admin tests use.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';
import { inviteAndAcceptAdmin } from '../../../testing/admins.ts';
import { loginAdmin, startTestSite, type TestSite } from '../../../testing/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite();
});
afterAll(async () => {
  await t?.stop();
});

interface Admin {
  token: string;
  objectId: string;
}

/** The administrators as the list shows them, invitations not accepted left out. */
async function admins(token: string): Promise<{ objectId: string }[]> {
  const list = await t.api('GET', '/api/admins', undefined, token);
  expect(list.status).toBe(200);
  return (list.body as { objectId: string; invitedUntil?: string }[]).filter((a) => !a.invitedUntil);
}

it('never removes the last admin, also when the last two remove each other at once', async () => {
  const token = await loginAdmin(t);
  const self = (await t.api('GET', '/api/admins', undefined, token)).body.find((a: { self: boolean }) => a.self);
  let survivor: Admin = { token, objectId: self.objectId };
  for (let round = 0; round < 5; round++) {
    const other = await inviteAndAcceptAdmin(t, survivor.token);
    expect(await admins(survivor.token)).toHaveLength(2);
    const [a, b] = await Promise.all([
      t.api('DELETE', `/api/admins/${other.objectId}`, undefined, survivor.token),
      t.api('DELETE', `/api/admins/${survivor.objectId}`, undefined, other.token),
    ]);
    // One may win, never both; a loser is told why (or its session has already ended).
    expect([a.status, b.status].filter((s) => s === 200).length, `round ${round}`).toBeLessThanOrEqual(1);
    for (const lost of [a, b].filter((r) => r.status !== 200)) {
      expect([401, 403], `round ${round}`).toContain(lost.status);
      if (lost.status === 403) expect(lost.body.error).toBe(AdminToolsMessage.cannotRemoveLast);
    }
    const left = [survivor, other];
    const alive: Admin[] = [];
    for (const admin of left) {
      if ((await t.api('GET', '/api/admin/me', undefined, admin.token)).status === 200) alive.push(admin);
    }
    expect(alive.length, `round ${round}`).toBeGreaterThanOrEqual(1);
    expect(await admins(alive[0]!.token)).toHaveLength(alive.length);
    // The next round starts from one admin.
    survivor = alive[0]!;
    for (const extra of alive.slice(1)) {
      expect((await t.api('DELETE', `/api/admins/${extra.objectId}`, undefined, survivor.token)).status).toBe(200);
    }
  }
  // The last one cannot take away their own rights either.
  const own = await t.api('DELETE', `/api/admins/${survivor.objectId}`, undefined, survivor.token);
  expect(own).toMatchObject({ status: 403, body: { error: AdminToolsMessage.cannotRemoveSelf } });
  expect(await admins(survivor.token)).toHaveLength(1);
});

// Parse Dashboard and an admin removed on the Admins page: the admin login (the
// dashboard's by default) opens it only while its account is an admin. On a site of
// its own: the test removes the site's own admin, whom the other dashboard tests use.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { inviteAndAcceptAdmin } from '../../testing/admins.ts';
import { logIn, readWithKey } from '../../testing/dashboard.ts';
import { loginAdmin, startTestSite, type TestSite } from '../../testing/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await t?.stop();
});

it('closes the dashboard to the admin login once its account is no admin: new logins, live ones and the key beside them', async () => {
  const from = '198.51.100.7';
  // Two live logins: one goes on reading with the key, the other opens a page.
  const [reader, browser] = [
    await logIn(t, t.admin.email, t.admin.password, from),
    await logIn(t, t.admin.email, t.admin.password, from),
  ];
  const page = (cookie: string) =>
    fetch(`${t.url}/parse-dashboard/parse-dashboard-config.json`, { headers: { cookie, 'x-forwarded-for': from } });
  const read = (cookie: string) => readWithKey({ url: t.url, ...t.site.config }, cookie, from);
  const liveSessions = async () =>
    (
      await t.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM dashboard_session WHERE sess->'passport'->>'user' = $1`,
        [t.admin.email],
      )
    ).rows[0]!.n;
  for (const login of [reader, browser]) {
    expect(login.location).toMatch(/\/apps$/);
    expect((await page(login.cookie)).status).toBe(200);
    expect((await read(login.cookie)).status).toBe(200);
  }
  expect(await liveSessions()).toBe(2);

  // Another admin takes the configured admin's rights away.
  const other = await inviteAndAcceptAdmin(t, await loginAdmin(t));
  const admins = (await t.api('GET', '/api/admins', undefined, other.token)).body as {
    email: string;
    objectId: string;
  }[];
  const configured = admins.find((a) => a.email === t.admin.email)!;
  expect((await t.api('DELETE', `/api/admins/${configured.objectId}`, undefined, other.token)).status).toBe(200);

  // The key in their browser reads nothing more, and that login ends there.
  const key = await read(reader.cookie);
  expect(key.status).toBe(403);
  expect(await key.json()).toEqual({ code: ErrorCode.Forbidden, error: ServerMessage.readOnlyKeyNeedsLogin });
  expect(await liveSessions()).toBe(1);
  // The other live login ends at its next page, with the reason.
  const closed = await page(browser.cookie);
  expect(closed.status).toBe(403);
  expect(await closed.text()).toBe(ServerMessage.dashboardClosed);
  expect(await liveSessions()).toBe(0);
  // A new login with the right password is refused with the reason; a wrong one, as ever.
  expect((await logIn(t, t.admin.email, t.admin.password, '198.51.100.8')).status).toBe(403);
  const guess = await logIn(t, t.admin.email, 'a-wrong-password-1', '198.51.100.8');
  expect([guess.status, guess.location]).toEqual([302, expect.stringMatching(/login/)]);

  // Invited again and the invitation withdrawn: the account of a former admin stays, and so
  // does the refusal (an account gone would have made the login look like configuration).
  const invited = await t.api('POST', '/api/admins', { email: t.admin.email, name: 'Again' }, other.token);
  expect(invited.status).toBe(200);
  // The invitation is listed by its own id, not the account's.
  const invitation = (
    (await t.api('GET', '/api/admins', undefined, other.token)).body as {
      email: string;
      objectId: string;
      invitedUntil?: string;
    }[]
  ).find((a) => a.email === t.admin.email && a.invitedUntil)!;
  expect(invitation.objectId).not.toBe(configured.objectId);
  const withdrawn = await t.api('DELETE', `/api/admins/invitations/${invitation.objectId}`, undefined, other.token);
  expect(withdrawn.status).toBe(200);
  const account = await t.sql.query(`SELECT 1 FROM "_User" WHERE "objectId" = $1`, [configured.objectId]);
  expect(account.rowCount).toBe(1);
  expect((await logIn(t, t.admin.email, t.admin.password, '198.51.100.9')).status).toBe(403);
  // Were it gone all the same (deleted by hand), the admin login still opens nothing: with no
  // account, there is no password to take (the dashboard's password is the account's).
  await t.sql.query(`DELETE FROM "_User" WHERE "objectId" = $1`, [configured.objectId]);
  const gone = await logIn(t, t.admin.email, t.admin.password, '198.51.100.10');
  expect([gone.status, gone.location]).toEqual([302, expect.stringMatching(/login/)]);
});

// Parse Dashboard and an admin removed on the Admins page: the admin login (the
// dashboard's by default) opens it only while its account is an admin. On a site of
// its own: the test removes the site's own admin, whom the other dashboard tests use.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from '@tc/cloud/parse';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { inviteAndAcceptAdmin } from '../../testing/admins.ts';
import { logIn } from '../../testing/dashboard.ts';
import { loginAdmin, startTestSite, type TestSite } from '../../testing/site.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await t?.stop();
});

const CLOSED = 'This login no longer opens Parse Dashboard: its account is not an administrator.';

it('closes the dashboard to the admin login once its account is no admin: new logins, live ones and the key beside them', async () => {
  const from = '198.51.100.7';
  const login = await logIn(t, t.admin.email, t.admin.password, from);
  expect(login.location).toMatch(/\/apps$/);
  const page = (cookie: string) =>
    fetch(`${t.url}/parse-dashboard/parse-dashboard-config.json`, { headers: { cookie, 'x-forwarded-for': from } });
  const read = (cookie: string) =>
    fetch(`${t.url}/parse/classes/_User?limit=1`, {
      headers: {
        'x-parse-application-id': t.site.config.appId,
        'x-parse-master-key': t.site.config.readOnlyMasterKey,
        'x-forwarded-for': from,
        cookie,
      },
    });
  expect((await page(login.cookie)).status).toBe(200);
  expect((await read(login.cookie)).status).toBe(200);

  // Another admin takes the configured admin's rights away.
  const other = await inviteAndAcceptAdmin(t, await loginAdmin(t));
  const admins = (await t.api('GET', '/api/admins', undefined, other.token)).body as {
    email: string;
    objectId: string;
  }[];
  const configured = admins.find((a) => a.email === t.admin.email)!;
  expect((await t.api('DELETE', `/api/admins/${configured.objectId}`, undefined, other.token)).status).toBe(200);

  // The key in their browser reads nothing more, and the live login ends at its next page.
  const key = await read(login.cookie);
  expect(key.status).toBe(403);
  expect(await key.json()).toEqual({ code: ErrorCode.Forbidden, error: ServerMessage.readOnlyKeyNeedsLogin });
  const closed = await page(login.cookie);
  expect(closed.status).toBe(403);
  expect(await closed.text()).toBe(CLOSED);
  const { rows } = await t.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM dashboard_session WHERE sess->'passport'->>'user' = $1`,
    [t.admin.email],
  );
  expect(rows[0]!.n).toBe(0);
  // A new login, with the right password, is refused.
  const again = await logIn(t, t.admin.email, t.admin.password, '198.51.100.8');
  expect(again.status).toBe(403);

  // Made an admin again (as every start does for ADMIN_EMAIL), the login opens it again.
  const Parse = parse();
  const role = (await new Parse.Query(Parse.Role).equalTo('name', 'admin').first({ useMasterKey: true }))!;
  role.getUsers().add(Parse.User.createWithoutData<Parse.User>(configured.objectId));
  await role.save(null, { useMasterKey: true });
  const back = await logIn(t, t.admin.email, t.admin.password, '198.51.100.9');
  expect(back.location).toMatch(/\/apps$/);
  expect((await read(back.cookie)).status).toBe(200);
});

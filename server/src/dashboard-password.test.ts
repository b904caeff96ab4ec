// Parse Dashboard's password: by default the admin account's as it is now, so a password
// changed on the Admins page changes on the dashboard too; a login made with a password
// that has since changed (on the Admins page, or DASHBOARD_PASSWORD at a restart) ends at
// its next request, and the read-only key beside it reads nothing more.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sign } from 'cookie-signature';
import { expect, it } from 'vitest';
import { logIn, readWithKey } from '../../testing/dashboard.ts';
import { runSite } from '../../testing/processes.ts';
import { createDatabase, loginAdmin, startTestSite } from '../../testing/site.ts';
import { freePort } from './net.ts';

const from = '198.51.100.30';

/** A site where it answers, and the keys it was given. */
interface Site {
  url: string;
  appId: string;
  readOnlyMasterKey: string;
}

/** The status of a read with the read-only key beside a login's cookie, from an address away from the server. */
async function keyRead(site: Site, cookie: string): Promise<number> {
  const res = await readWithKey(site, cookie, from);
  await res.text();
  return res.status;
}

/** Where a dashboard page takes a browser with this cookie: 'open', or the login's address. */
async function pageWith(site: Site, cookie: string): Promise<string> {
  const res = await fetch(`${site.url}/parse-dashboard/apps`, {
    headers: { cookie, 'x-forwarded-for': from },
    redirect: 'manual',
  });
  await res.text();
  return res.status === 200 ? 'open' : (res.headers.get('location') ?? String(res.status));
}

it("follows the admin account's password: after a change on the site the old one opens nothing, and the login made with it ends", async () => {
  const t = await startTestSite({ TRUST_PROXY: '127.0.0.1' });
  try {
    const site = { url: t.url, ...t.site.config };
    expect(t.site.config.dashboard.password).toBeUndefined();
    const before = await logIn(t, t.admin.email, t.admin.password, from);
    expect(before.location).toMatch(/\/apps$/);
    expect(await keyRead(site, before.cookie)).toBe(200);
    // The same kind of login, its cookie sent in quotes (as a cookie may be): the dashboard reads it alike.
    const quoted = await logIn(t, t.admin.email, t.admin.password, from);
    const inQuotes = quoted.cookie.replace(/^parse_dash=(.*)$/, 'parse_dash="$1"');
    expect(await pageWith(site, inQuotes)).toBe('open');
    expect(await keyRead(site, inQuotes)).toBe(200);

    const newPassword = 'New-admin-pass-456';
    const token = await loginAdmin(t);
    const change = await t.api('PUT', '/api/admin/password', { currentPassword: t.admin.password, newPassword }, token);
    expect(change.status, JSON.stringify(change.body)).toBe(200);

    // The login made with the old password: the key beside it reads nothing, its page asks for a login.
    expect(await keyRead(site, before.cookie)).toBe(403);
    expect(await pageWith(site, before.cookie)).toMatch(/\/parse-dashboard\/login/);
    expect(await pageWith(site, inQuotes)).toMatch(/\/parse-dashboard\/login/);
    // The old password is a wrong one now; the new one opens it (with the spaces a phone adds, as on the site).
    expect((await logIn(t, t.admin.email, t.admin.password, from)).location).toMatch(/\/login/);
    const after = await logIn(t, t.admin.email, ` ${newPassword} `, from);
    expect(after.location).toMatch(/\/apps$/);
    expect(await keyRead(site, after.cookie)).toBe(200);
    expect(await pageWith(site, after.cookie)).toBe('open');
    // As the dashboard's login also takes it, in the query string.
    const inQuery = await logIn(t, t.admin.email, newPassword, from, 'query');
    expect(inQuery.location).toMatch(/\/apps$/);
    expect(await keyRead(site, inQuery.cookie)).toBe(200);

    // A session of the user that no checked password made (one from before this rule, one
    // written by hand): made with a password that has since changed, it ends at its first use.
    const sid = `hand-${randomBytes(8).toString('hex')}`;
    await t.sql.query(`INSERT INTO dashboard_session (sid, sess, expire) VALUES ($1, $2, now() + interval '1 hour')`, [
      sid,
      JSON.stringify({
        cookie: { originalMaxAge: 3_600_000, httpOnly: true, path: '/' },
        passport: { user: t.admin.email },
      }),
    ]);
    const handMade = `parse_dash=${encodeURIComponent(`s:${sign(sid, t.site.config.cookieSecret)}`)}`;
    expect(await keyRead(site, handMade)).toBe(403);
    const { rowCount } = await t.sql.query('SELECT 1 FROM dashboard_session WHERE sid = $1', [sid]);
    expect(rowCount).toBe(0);
  } finally {
    await t.stop();
  }
});

it('ends the live logins when DASHBOARD_PASSWORD changes at a restart, and keeps them when it does not', async () => {
  // One site started three times, each a process of its own: its database, keys and data stay.
  const admin = { email: `admin-${randomBytes(4).toString('hex')}@example.com`, password: 'Admin-pass-123' };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tc-dash-'));
  const keys = { appId: `dash-${randomBytes(4).toString('hex')}`, readOnlyMasterKey: randomBytes(24).toString('hex') };
  const env = {
    NODE_ENV: 'test',
    TRUST_PROXY: '127.0.0.1',
    DATABASE_URI: await createDatabase(),
    DATA_DIR: dataDir,
    APP_ID: keys.appId,
    MASTER_KEY: randomBytes(24).toString('hex'),
    READ_ONLY_MASTER_KEY: keys.readOnlyMasterKey,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    BACKUP_SCHEDULE: 'off',
  };
  /** The site started with this dashboard password, until `use` is done with it. */
  const withSite = async (dashboardPassword: string, use: (site: Site) => Promise<void>) => {
    const port = await freePort();
    const started = runSite({ ...env, PORT: String(port), DASHBOARD_PASSWORD: dashboardPassword });
    try {
      await started.waitFor('running at');
      await use({ url: `http://127.0.0.1:${port}`, ...keys });
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  };
  try {
    let cookie = '';
    await withSite('first-dashboard-pass', async (site) => {
      const login = await logIn(site, admin.email, 'first-dashboard-pass', from);
      expect(login.location).toMatch(/\/apps$/);
      cookie = login.cookie;
      // With DASHBOARD_PASSWORD set, the admin's own password is not the dashboard's.
      expect((await logIn(site, admin.email, admin.password, from)).location).toMatch(/\/login/);
    });
    await withSite('first-dashboard-pass', async (site) => {
      expect(await keyRead(site, cookie)).toBe(200);
      expect(await pageWith(site, cookie)).toBe('open');
    });
    await withSite('second-dashboard-pass', async (site) => {
      expect(await keyRead(site, cookie)).toBe(403);
      expect(await pageWith(site, cookie)).toMatch(/\/parse-dashboard\/login/);
      expect((await logIn(site, admin.email, 'first-dashboard-pass', from)).location).toMatch(/\/login/);
      expect((await logIn(site, admin.email, 'second-dashboard-pass', from)).location).toMatch(/\/apps$/);
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// Parse Dashboard: operators log in with the admin login (by default) and browse
// with the read-only master key, which reads only beside a live login (or from the
// full master key's addresses), the login is limited per user and address, its
// session is in PostgreSQL, its cookie Secure in production, an operator's
// malformed query is refused 400 (not a 500 with a stack trace), and
// DASHBOARD_ENABLED=false turns it off.

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseRefusal } from '@tc/cloud/errors';
import { ADMIN_ROLE } from '@tc/cloud/users/accounts';
import { parse } from '@tc/cloud/parse';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { logIn, openLogin } from '../../testing/dashboard.ts';
import { VISIT_MINUTES } from './dashboard.ts';
import { loginStudent, register, startTestSite, type TestSite } from '../../testing/site.ts';

let t: TestSite;
let lastAddress = 10;
const newAddress = () => `203.0.113.${++lastAddress}`;

beforeAll(async () => {
  t = await startTestSite({ TRUST_PROXY: '127.0.0.1' });
});
afterAll(async () => {
  await t?.stop();
});

/** The objectId of the role every administrator holds. */
async function adminRoleId(): Promise<string> {
  const { rows } = await t.sql.query<{ objectId: string }>(`SELECT "objectId" FROM "_Role" WHERE name = $1`, [
    ADMIN_ROLE,
  ]);
  return rows[0]!.objectId;
}

/**
 * An operator logged in to the dashboard from an address of their own: the session cookie,
 * and the headers the dashboard's page sends /parse with it (the read-only key).
 */
async function operator(): Promise<{ cookie: string; from: string; headers: Record<string, string> }> {
  const from = newAddress();
  const login = await logIn(t, t.admin.email, t.admin.password, from);
  expect(login.location).toMatch(/\/apps$/);
  const headers = {
    'x-parse-application-id': t.site.config.appId,
    'x-parse-master-key': t.site.config.readOnlyMasterKey,
    'x-forwarded-for': from,
    cookie: login.cookie,
  };
  return { cookie: login.cookie, from, headers };
}

describe('Parse Dashboard', () => {
  it('takes the admin login by default, and hands the operator the read-only master key, never the full one', async () => {
    expect(t.site.config.dashboard).toMatchObject({ user: t.admin.email, password: undefined });
    const login = await logIn(t, t.admin.email, t.admin.password, newAddress());
    expect(login.status).toBe(302);
    expect(login.location).toMatch(/\/parse-dashboard\/apps$/);

    const res = await fetch(`${t.url}/parse-dashboard/parse-dashboard-config.json`, {
      headers: { cookie: login.cookie },
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(t.site.config.masterKey);
    // The answer that carries a key is kept by no cache, and the dashboard names no server software.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-powered-by')).toBeNull();
    // Its pages reach this site only (a script slipped into the data it shows sends nothing away).
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    const config = JSON.parse(text) as { apps: Array<{ masterKey: string }> };
    expect(config.apps[0]!.masterKey).toBe(t.site.config.readOnlyMasterKey);

    // The session lives in PostgreSQL, where every instance finds it.
    const { rows } = await t.sql.query('SELECT count(*)::int AS n FROM dashboard_session');
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it('lets the read-only key read beside a dashboard login, never on its own from elsewhere, and write nothing', async () => {
    const { cookie, from } = await operator();
    const key = {
      'x-parse-application-id': t.site.config.appId,
      'x-parse-master-key': t.site.config.readOnlyMasterKey,
      'content-type': 'application/json',
    };
    const read = (headers: Record<string, string>) => fetch(`${t.url}/parse/classes/_User?limit=1`, { headers });
    // As the dashboard's page asks, its session cookie beside the key.
    expect((await read({ ...key, cookie, 'x-forwarded-for': from })).status).toBe(200);
    // Its login is no address's: the operator's laptop on another network reads too.
    expect((await read({ ...key, cookie, 'x-forwarded-for': newAddress() })).status).toBe(200);
    const write = await fetch(`${t.url}/parse/classes/Note`, {
      method: 'POST',
      headers: { ...key, cookie, 'x-forwarded-for': from },
      body: '{"a":1}',
    });
    expect(write.status).toBeGreaterThanOrEqual(400);
    expect(write.status).toBeLessThan(500);

    // The key alone, a cookie the site did not sign, a session that has ended: nothing.
    const forged = cookie.replace(/=s%3A[^.]+/, '=s%3Aforged-session-id');
    expect(forged).not.toBe(cookie);
    // A session the site signed, of a browser that never logged in (the login page's).
    const notLoggedIn = (await openLogin(t, from)).cookie;
    const refusedWith: Record<string, string>[] = [
      {},
      { cookie: forged },
      { cookie: 'parse_dash=forged-session-id' },
      { cookie: notLoggedIn },
    ];
    for (const extra of refusedWith) {
      const res = await read({ ...key, ...extra, 'x-forwarded-for': newAddress() });
      expect(res.status, JSON.stringify(extra)).toBe(403);
      expect(await res.json()).toEqual({ code: ErrorCode.Forbidden, error: ServerMessage.readOnlyKeyNeedsLogin });
    }
    const logout = await fetch(`${t.url}/parse-dashboard/logout`, {
      redirect: 'manual',
      headers: { cookie, 'x-forwarded-for': from },
    });
    expect(logout.status).toBe(302);
    expect((await read({ ...key, cookie, 'x-forwarded-for': from })).status).toBe(403);
    // From the full master key's addresses (the loopback here), the key reads on its own.
    expect((await read(key)).status).toBe(200);
  });

  it("answers an operator's query with a value PostgreSQL refuses 400 with its words, never 500", async () => {
    const { headers } = await operator();
    const malformed: [query: Record<string, string>, words: RegExp][] = [
      [{ where: '{"email":{"$regex":"("}}' }, /invalid regular expression/],
      [{ where: '{"email":{"$regex":"("}}', count: '1', limit: '0' }, /invalid regular expression/],
      [{ where: '{"createdAt":{"$gt":{"__type":"Date","iso":"not a date"}}}' }, /invalid input syntax/],
      [{ where: '{"grade":{"$gt":"nine"}}' }, /invalid input syntax/],
      [{ where: '{"email":{"$text":{"$search":{"$term":"("}}}}' }, /tsquery/],
      [{ limit: '-1' }, /LIMIT/],
    ];
    for (const [query, words] of malformed) {
      const res = await fetch(`${t.url}/parse/classes/_User?${new URLSearchParams(query).toString()}`, { headers });
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      const body = (await res.json()) as { code: number; error: string };
      expect(body.code).toBe(102);
      expect(body.error).toMatch(words);
    }
    // The same queries with good values still read.
    const good = await fetch(
      `${t.url}/parse/classes/_User?${new URLSearchParams({ where: '{"email":{"$regex":"@"}}', count: '1', limit: '0' }).toString()}`,
      { headers },
    );
    expect(good.status).toBe(200);
    expect(((await good.json()) as { count: number }).count).toBeGreaterThan(0);
    // The full master key's distinct values (the read-only key runs no aggregation).
    const distinct = await fetch(
      `${t.url}/parse/aggregate/_User?${new URLSearchParams({ distinct: 'email', where: '{"email":{"$regex":"("}}' }).toString()}`,
      { headers: { 'x-parse-application-id': t.site.config.appId, 'x-parse-master-key': t.site.config.masterKey } },
    );
    expect(distinct.status).toBe(400);
    expect(((await distinct.json()) as { error: string }).error).toMatch(/invalid regular expression/);
  });

  it("keeps the same refusal in the cloud code's own query the site's fault (a 500 at /api), not the caller's", async () => {
    const Parse = parse();
    const error = await new Parse.Query('_User')
      .matches('email', '(', '')
      .find({ useMasterKey: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Parse.Error);
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('2201B');
    expect(isDatabaseRefusal(error)).toBe(true);
  });

  it("never gives the read-only key a session token or a feed's secret, however it asks", async () => {
    const student = await register(t);
    await loginStudent(t, student.student.email, student.student.password);
    const key = t.site.config.readOnlyMasterKey;
    const { cookie, from } = await operator();
    const headers = {
      'x-parse-application-id': t.site.config.appId,
      'x-parse-master-key': key,
      'content-type': 'application/json',
      'x-forwarded-for': from,
      cookie,
    };
    const get = (path: string) => fetch(`${t.url}/parse${path}`, { headers });
    const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
      fetch(`${t.url}/parse${path}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    // A token read a letter at a time, through another class's query.
    const oracle = {
      objectId: {
        $select: { query: { className: '_Session', where: { sessionToken: { $regex: '^r:' } } }, key: 'user' },
      },
    };
    const escaped = {
      objectId: { $select: { query: { className: '\\u005FSession', where: {} }, key: 'user' } },
    };
    const basic = `Basic ${Buffer.from(`${t.site.config.appId}:${key}`).toString('base64')}`;
    const asked = [
      // The key in Basic authorization, which Parse takes as well.
      await fetch(`${t.url}/parse/classes/_Session`, {
        headers: {
          authorization: basic,
          'x-parse-application-id': t.site.config.appId,
          'x-forwarded-for': from,
          cookie,
        },
      }),
      // The class spelled with a JSON escape, which Parse reads as the class.
      await get(`/classes/_User?where=${encodeURIComponent(JSON.stringify(escaped).replace(/\\\\/g, '\\'))}`),
      await get('/classes/_Session'),
      await get('/classes/_session/x'),
      await get('/sessions'),
      await get('/sessions/me'),
      await get('/classes/CalendarFeed'),
      await get('/%63lasses/_Session'),
      await get(`/classes/_User?where=${encodeURIComponent(JSON.stringify(oracle))}`),
      await post('/batch', { requests: [{ method: 'GET', path: '/parse/classes/_Session' }] }),
      // As the JavaScript SDK sends it: text/plain, the key in the body.
      await fetch(`${t.url}/parse/classes/_Session`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-forwarded-for': from, cookie },
        body: JSON.stringify({ _method: 'GET', _ApplicationId: t.site.config.appId, _MasterKey: key }),
      }),
    ];
    for (const res of asked) {
      const text = await res.text();
      expect(res.status, `${res.url} ${text}`).toBe(403);
      expect(text).not.toMatch(/r:[0-9a-f]{8}/);
      // Refused for what it asks, not for want of a login.
      expect(text).toContain(ServerMessage.keysNotReadOnly);
    }
    // The rest it still reads.
    expect((await get('/classes/_User?limit=1')).status).toBe(200);
    expect((await get('/schemas')).status).toBe(200);
    // The full master key (this machine only) is not limited.
    const full = await fetch(`${t.url}/parse/classes/_Session?limit=1`, {
      headers: { 'x-parse-application-id': t.site.config.appId, 'x-parse-master-key': t.site.config.masterKey },
    });
    expect(full.status).toBe(200);
  });

  it("reads Parse's classes only: a table or view outside the schema reads as nothing, with either key", async () => {
    // A student signed in just now: PostgreSQL's view of its connections' last statements
    // held the session token Parse looked up, and the mail queue holds the text of its mails.
    const student = await register(t);
    await loginStudent(t, student.student.email, student.student.password);
    const { headers: asOperator } = await operator();
    const asThisMachine = {
      'x-parse-application-id': t.site.config.appId,
      'x-parse-master-key': t.site.config.masterKey,
    };
    const mailInQuery = { objectId: { $select: { query: { className: 'mail_delivery', where: {} }, key: 'message' } } };
    const paths = [
      '/classes/pg_stat_activity?limit=1000&count=1',
      '/classes/mail_delivery?count=1',
      '/classes/operations_backups?count=1',
      '/classes/pg_roles?count=1',
      '/classes/_User?where=' + encodeURIComponent(JSON.stringify(mailInQuery)),
    ];
    for (const headers of [asOperator, asThisMachine]) {
      for (const path of paths) {
        const res = await fetch(`${t.url}/parse${path}`, { headers });
        const text = await res.text();
        expect(res.status, `${path}: ${text}`).toBe(200);
        const body = JSON.parse(text) as { results: unknown[]; count?: number };
        expect(body.results, path).toEqual([]);
        if (path.includes('count=1')) expect(body.count, path).toBe(0);
        expect(text).not.toMatch(/r:[0-9a-f]{8}|sessionToken|Subject:/);
      }
    }
    // Those are there, and hold rows: Parse's reads just do not reach them.
    const { rows } = await t.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity');
    expect(rows[0]!.n).toBeGreaterThan(0);
    // Nor does Parse take such a table for an empty class of its own, to drop.
    const mailTable = `SELECT to_regclass('mail_delivery') IS NOT NULL AS there`;
    expect((await t.sql.query(mailTable)).rows[0]).toEqual({ there: true });
    const drop = await fetch(`${t.url}/parse/schemas/mail_delivery`, { method: 'DELETE', headers: asThisMachine });
    expect(drop.status, await drop.text()).toBeLessThan(500);
    expect((await t.sql.query(mailTable)).rows[0]).toEqual({ there: true });
    // Nor create a class over it, by the schema or a first save, that every read would then reach.
    // (A first save's refusal is Parse's own words for any class it could not add.)
    const takeOvers = [
      {
        path: '/schemas/mail_delivery',
        body: { className: 'mail_delivery' },
        says: 'is taken by a table outside Parse',
      },
      { path: '/classes/mail_delivery', body: { message: 'mine' }, says: 'schema class name does not revalidate' },
      { path: '/schemas/pg_stat_activity', body: {}, says: 'is taken by a table outside Parse' },
    ];
    for (const { path, body, says } of takeOvers) {
      const res = await fetch(`${t.url}/parse${path}`, {
        method: 'POST',
        headers: { ...asThisMachine, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      expect(res.status, `${path}: ${text}`).toBe(400);
      expect(text).toContain(says);
    }
    const listed = await t.sql.query(
      `SELECT 1 FROM "_SCHEMA" WHERE "className" IN ('mail_delivery', 'pg_stat_activity')`,
    );
    expect(listed.rowCount).toBe(0);
    expect(
      (await t.sql.query(`SELECT count(*)::int AS n FROM mail_delivery WHERE message::text LIKE '%mine%'`)).rows[0],
    ).toEqual({
      n: 0,
    });
    // Parse's classes read as before, a role's relation to its users included.
    const admins = await fetch(
      `${t.url}/parse/classes/_User?count=1&limit=0&where=${encodeURIComponent(
        JSON.stringify({
          $relatedTo: {
            object: { __type: 'Pointer', className: '_Role', objectId: await adminRoleId() },
            key: 'users',
          },
        }),
      )}`,
      { headers: asOperator },
    );
    expect(admins.status).toBe(200);
    expect(((await admins.json()) as { count: number }).count).toBeGreaterThan(0);
  });

  it('refuses a body on a read, where Parse would find the key past every check', async () => {
    // fetch sends no body with a GET: node's own client does.
    const raw = (method: string, path: string, headers: Readonly<Record<string, string>>, body: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const length = headers['transfer-encoding'] ? {} : { 'content-length': String(Buffer.byteLength(body)) };
        const req = httpRequest(`${t.url}${path}`, { method, headers: { ...headers, ...length } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    // As the JavaScript SDK puts the key in a body, but on a GET: from elsewhere, no login.
    const keyInBody = JSON.stringify({
      _ApplicationId: t.site.config.appId,
      _MasterKey: t.site.config.readOnlyMasterKey,
    });
    const from = newAddress();
    const sent = [
      ['GET', '/parse/classes/_Session', { 'content-type': 'text/plain', 'x-forwarded-for': from }],
      ['GET', '/parse/classes/_User', { 'x-forwarded-for': from }],
      ['HEAD', '/parse/classes/_User', { 'content-type': 'text/plain', 'x-forwarded-for': from }],
      ['GET', '/parse/classes/_User', { 'transfer-encoding': 'chunked', 'x-forwarded-for': from }],
      ['GET', '/api/health', { 'content-type': 'application/json' }],
    ] as const;
    for (const [method, path, headers] of sent) {
      const res = await raw(method, path, headers, keyInBody);
      expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(400);
      if (method === 'GET')
        expect(JSON.parse(res.text), `${path} ${JSON.stringify(headers)}`).toMatchObject({
          error: ServerMessage.bodyOnRead,
        });
      expect(res.text).not.toMatch(/r:[0-9a-f]{8}/);
    }
    // The same read with no body is the key's, refused without a login.
    expect((await raw('GET', '/parse/classes/_User', { 'x-forwarded-for': from }, '')).status).toBe(403);
    // A read a proxy sends chunked with nothing in it is no body.
    expect((await raw('GET', '/api/health', { 'transfer-encoding': 'chunked' }, '')).status).toBe(200);
    const chunkedRead = await raw(
      'GET',
      '/parse/classes/_User?limit=1',
      {
        'transfer-encoding': 'chunked',
        'x-parse-application-id': t.site.config.appId,
        'x-parse-master-key': t.site.config.masterKey,
      },
      '',
    );
    expect(chunkedRead.status, chunkedRead.text).toBe(200);
  });

  it("keeps a visitor's session (the login page's CSRF token) 15 minutes, and counts the page's loads per address", async () => {
    const rows = async () =>
      (await t.sql.query('SELECT count(*)::int AS n FROM dashboard_session')).rows[0].n as number;
    const expiresIn = async (cookie: string) => {
      const sid = decodeURIComponent(cookie.split('=')[1]!).slice(2).split('.')[0];
      const { rows: found } = await t.sql.query(
        `SELECT extract(epoch FROM expire - now())::int AS s FROM dashboard_session WHERE sid = $1`,
        [sid],
      );
      return found[0]?.s as number | undefined;
    };
    const from = newAddress();
    const visit = await openLogin(t, from);
    const visitSeconds = await expiresIn(visit.cookie);
    expect(visitSeconds).toBeGreaterThan(VISIT_MINUTES * 60 - 30);
    // (The store rounds the end up to the second.)
    expect(visitSeconds).toBeLessThanOrEqual(VISIT_MINUTES * 60 + 1);
    // A login's session is kept its 8 hours.
    const login = await logIn(t, t.admin.email, t.admin.password, newAddress());
    expect(await expiresIn(login.cookie)).toBeGreaterThan(7 * 3600);

    // Past the address's limit, the page answers 429 and says so, and no more rows are written.
    const max = t.site.config.rateLimit.max;
    for (let i = 1; i < max; i++) {
      const res = await fetch(`${t.url}/parse-dashboard/login`, { headers: { 'x-forwarded-for': from } });
      expect(res.status).toBe(200);
      await res.text();
    }
    const before = await rows();
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${t.url}/parse-dashboard/login`, { headers: { 'x-forwarded-for': from } });
      expect(res.status).toBe(429);
      expect(await res.text()).toBe(ServerMessage.tooManyRequests);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await rows()).toBe(before);
    // Another address is not held up: its operator still logs in.
    expect((await logIn(t, t.admin.email, t.admin.password, newAddress())).location).toMatch(/\/apps$/);
  });

  it('limits login guesses per user and address, and the operator elsewhere still gets in', async () => {
    const [user, password] = [t.site.config.dashboard.user, t.admin.password];
    const attacker = newAddress();
    for (let i = 0; i < 5; i++) {
      const wrong = await logIn(t, user, `wrong-password-${i}`, attacker);
      expect(wrong.status).toBe(302);
      expect(wrong.location).toMatch(/login/);
    }
    const refused = await logIn(t, user, password, attacker);
    expect(refused.status).toBe(429);
    // The lock's 15 minutes, said to the client too.
    expect(refused.retryAfter).toBe('900');
    const operator = await logIn(t, user, password, newAddress());
    expect(operator.location).toMatch(/\/apps$/);
  });

  it("counts wrong passwords with the site's admin login: one budget for the admin's password", async () => {
    const attacker = newAddress();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${t.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': attacker },
        body: JSON.stringify({ email: t.admin.email, password: `wrong-on-the-site-${i}` }),
      });
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < 2; i++) {
      expect((await logIn(t, t.admin.email, `wrong-on-the-dashboard-${i}`, attacker)).location).toMatch(/login/);
    }
    // Five wrong in all, from this address: both doors are shut to it, the right password included.
    expect((await logIn(t, t.admin.email, t.admin.password, attacker)).status).toBe(429);
    const site = await fetch(`${t.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': attacker },
      body: JSON.stringify({ email: t.admin.email, password: t.admin.password }),
    });
    expect(site.status).toBe(401);
    expect(((await site.json()) as { code: number }).code).toBe(ErrorCode.AccountLocked);
    // The admin elsewhere still gets in.
    expect((await logIn(t, t.admin.email, t.admin.password, newAddress())).location).toMatch(/\/apps$/);
  });

  it("counts a try sent as JSON or in the query string with the admin's, as the form's", async () => {
    const attacker = newAddress();
    const tries = [
      await logIn(t, t.admin.email, 'wrong-as-json-1', attacker, 'json'),
      await logIn(t, t.admin.email, 'wrong-as-json-2', attacker, 'json'),
      await logIn(t, t.admin.email, 'wrong-in-query-1', attacker, 'query'),
      await logIn(t, t.admin.email, 'wrong-in-query-2', attacker, 'query'),
      await logIn(t, t.admin.email, 'wrong-in-query-3', attacker, 'query'),
    ];
    expect(tries.map((res) => res.location)).toEqual(Array(5).fill(expect.stringMatching(/login/)));
    // Five wrong for the admin from this address: the site's admin login is shut to it too.
    const site = await fetch(`${t.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': attacker },
      body: JSON.stringify({ email: t.admin.email, password: t.admin.password }),
    });
    expect(((await site.json()) as { code: number }).code).toBe(ErrorCode.AccountLocked);
    // A user the dashboard would read from the query while the guard saw another shape: refused.
    const browser = await openLogin(t, attacker);
    const shapes = [
      { type: 'application/json', body: JSON.stringify({ username: {}, password: 'x', _csrf: browser.csrf }) },
      { type: 'application/json', body: JSON.stringify({ username: 12345, password: 'x', _csrf: browser.csrf }) },
      {
        type: 'application/x-www-form-urlencoded',
        body: `username=a&username=b&password=x&_csrf=${encodeURIComponent(browser.csrf)}`,
      },
      // A return address the dashboard's login page cannot read (it answered 500).
      {
        type: 'application/json',
        body: JSON.stringify({ username: 'a', password: 'x', redirect: {}, _csrf: browser.csrf }),
      },
    ];
    for (const { type, body } of shapes) {
      const odd = await fetch(`${t.url}/parse-dashboard/login?username=${encodeURIComponent(t.admin.email)}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': type, cookie: browser.cookie, 'x-forwarded-for': newAddress() },
        body,
      });
      expect(odd.status, body).toBe(400);
    }
    // The JSON way in works for the right password elsewhere (the dashboard takes it).
    expect((await logIn(t, t.admin.email, t.admin.password, newAddress(), 'json')).location).toMatch(/\/apps$/);
  });

  it('counts a try before its password is checked: parallel wrong ones get 5 guesses in all', async () => {
    const { user } = t.site.config.dashboard;
    const attacker = newAddress();
    const tries = await Promise.all(
      Array.from({ length: 10 }, (_, i) => logIn(t, user, `parallel-wrong-${i}`, attacker)),
    );
    const statuses = tries.map((res) => res.status);
    expect(statuses.filter((status) => status === 302).length, statuses.join(' ')).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length, statuses.join(' ')).toBeGreaterThanOrEqual(5);
  });

  it('counts an address a proxy forwards with a port as that address: a new port is no new client', async () => {
    const attacker = newAddress();
    for (let port = 1000; port < 1005; port++) {
      expect((await logIn(t, t.admin.email, `wrong-by-port-${port}`, `${attacker}:${port}`)).location).toMatch(/login/);
    }
    expect((await logIn(t, t.admin.email, t.admin.password, `${attacker}:1005`)).status).toBe(429);
  });

  it("keeps a try refused for its form (a stale CSRF token) in the address's hourly count", async () => {
    const attacker = newAddress();
    const browser = await openLogin(t, attacker);
    const stale = () =>
      fetch(`${t.url}/parse-dashboard/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/json', cookie: browser.cookie, 'x-forwarded-for': attacker },
        body: JSON.stringify({ username: `user-${attacker}`, password: 'any-password-1', _csrf: 'stale' }),
      });
    for (let i = 0; i < 20; i++) expect((await stale()).status).toBe(403);
    expect((await logIn(t, t.admin.email, t.admin.password, attacker)).status).toBe(429);
  });

  it('limits an address guessing many users', async () => {
    const attacker = newAddress();
    for (let i = 0; i < 20; i++) await logIn(t, `user-${i}`, 'wrong-password', attacker);
    expect((await logIn(t, t.site.config.dashboard.user, t.admin.password, attacker)).status).toBe(429);
  });
});

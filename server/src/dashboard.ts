// Parse Dashboard at /parse-dashboard, behind its own login.
// Operators browse with Parse Server's read-only master key: the full master key
// never reaches a browser. Its login counts wrong passwords with the site's admin
// login (the same login by default), the session lives in PostgreSQL (shared by
// every instance, for 8 hours from the login), and the cookie is Secure in
// production. A login that is an admin's account (the admin login, by default)
// opens the dashboard only while that account is an admin, and the key reads only
// beside a live login (admits) or from MASTER_KEY_IPS (read-only-key-guard.ts).
// Its password is DASHBOARD_PASSWORD, else the admin account's password as it is now
// (changed on the Admins page, it changes here too, until a start sets the account's back
// to ADMIN_PASSWORD); a login ends when the password it was made with changes.

import { createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import connectPgSimple from 'connect-pg-simple';
import { unsign } from 'cookie-signature';
import express, { type Request, type RequestHandler } from 'express';
import session from 'express-session';
import ParseDashboard from 'parse-dashboard';
import type pg from 'pg';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { LOGIN_LOCKOUT_MINUTES, LOGIN_SPRAY_THRESHOLD } from '@tc/domain/constants';
import { normalizeEmail, normalizePassword } from '@tc/domain/registration';
import type { LoginGuard } from '@tc/cloud/deps';
import { countedAddress } from '@tc/cloud/client-address';
import { ADMIN_ROLE, ENROLLMENT_FIELD, loginAccountKey } from '@tc/cloud/users/accounts';
import { hasRoleSql } from '@tc/cloud/users/sessions';
import { HASHED_PASSWORD_COLUMN } from '@tc/cloud/parse-storage';
import { AppError, ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import type { Config } from './config.ts';
import { setRetryAfter } from './errors.ts';
import { hashedKey, limiterFactory } from './login-guard.ts';
import { passwords } from './parse-internals/internals.ts';
import type { CallLimits } from './rate-limit.ts';
import { sameSecret } from './same-secret.ts';

export const DASHBOARD_PATH = '/parse-dashboard';
const SESSION_HOURS = 8;

export interface Dashboard {
  /** For `app.use(DASHBOARD_PATH, ...handlers)`: the dashboard sets itself up when an app mounts it. */
  handlers: RequestHandler[];
  /**
   * Whether the request comes from a live dashboard login that may still use the
   * dashboard: the read-only master key reads only beside one (read-only-key-guard.ts).
   */
  admits(req: Request): Promise<boolean>;
  close(): Promise<void>;
}

/** Parse Dashboard's session cookie (its Authentication.js names it). */
const SESSION_COOKIE = 'parse_dash';

/**
 * The cookie parser express-session itself loads: the site reads the session cookie exactly
 * as the dashboard does (another parser keeps the quotes of `parse_dash="s%3A…"`, which
 * express-session's strips, and would see no login where the dashboard sees one).
 */
const sessionCookies = createRequire(createRequire(import.meta.url).resolve('express-session'))('cookie') as {
  parse(header: string): Record<string, string | undefined>;
};

/** `publicUrl`: where the operator's browser reaches the site (the dashboard calls /parse there). */
export async function createDashboard(
  config: Config,
  sql: pg.Pool,
  publicUrl: string,
  /** The site's login guard: a wrong password counts once, on the site or here. */
  loginGuard: LoginGuard,
  /** The site's per-address limits: a try here counts in the login group, as the site's logins. */
  callLimits: Pick<CallLimits, 'countCall'>,
): Promise<Dashboard> {
  await ensureSessionTable(sql);
  const PgStore = connectPgSimple(session);
  // A login lasts SESSION_HOURS from the login, however it is used: its use does not push its end.
  const store = new PgStore({ pool: sql, tableName: SESSION_TABLE, createTableIfMissing: false, disableTouch: true });
  const access = dashboardAccess(config, sql, store);

  const dashboard = new ParseDashboard(
    {
      apps: [
        {
          serverURL: `${publicUrl}/parse`,
          appId: config.appId,
          // Read-only both ways: whatever the user's flag, the browser gets this key.
          masterKey: config.readOnlyMasterKey,
          readOnlyMasterKey: config.readOnlyMasterKey,
          appName: 'Guided Learning',
        },
      ],
      // The dashboard's own check only passes what this site checked (access.checkLogin).
      users: [{ user: config.dashboard.user, pass: access.gatePass, readOnly: true }],
      useEncryptedPasswords: false,
      // The site's own `trust proxy` setting applies (the dashboard's would trust any X-Forwarded-For).
      trustProxy: 0,
    },
    {
      allowInsecureHTTP: config.env !== 'production',
      cookieSessionSecret: config.cookieSecret,
      cookieSessionMaxAge: SESSION_HOURS * 3600 * 1000,
      cookieSessionStore: store,
    },
  );

  // The dashboard is an Express app of its own, which would name itself on every answer.
  (dashboard as express.Application).disable('x-powered-by');

  const limits = await dashboardLoginLimits(config, sql, loginGuard, callLimits);
  const login = express.Router();
  // The dashboard's login (passport-local) takes a form, a JSON body or the query string: each is counted.
  login.post(
    '/login',
    express.urlencoded({ extended: false, limit: '10kb' }),
    express.json({ limit: '10kb' }),
    limits.middleware,
    access.checkLogin,
  );
  login.get('/login', limits.loginPage);
  // Its configuration carries the read-only master key: never kept by a browser's or a proxy's cache.
  login.get('/parse-dashboard-config.json', (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  const handlers = [access.refuseClosedSession, login, dashboard];
  return {
    handlers: config.env === 'production' ? [secureCookies, ...handlers] : handlers,
    admits: access.admits,
    close: async () => {
      store.close();
      await limits.close();
    },
  };
}

/** A dashboard session as the store keeps it: passport's user, and the password it was made with. */
interface LoginSession {
  passport?: { user?: unknown };
  /** The fingerprint of the password the login was made with (credentialOf). */
  credential?: string;
}

/**
 * Who may use the dashboard, asked afresh on every request (nothing is cached, as for
 * the site's sessions):
 * - A login that is an admin's account (the admin login, by default) only while that
 *   account is an admin. An admin removed on the Admins page loses the dashboard at once:
 *   a new login is refused, a live one ends at its next request, and the read-only key in
 *   their browser reads nothing more. A login that is no admin's account
 *   (DASHBOARD_USER=operator; a student's e-mail, which anyone can register) is
 *   configuration, and stays open.
 * - With the password DASHBOARD_PASSWORD, else the admin account's password as it is now.
 *   A login made with a password that has since changed (on the Admins page, or in the
 *   configuration) ends at its next request.
 */
function dashboardAccess(config: Config, sql: pg.Pool, store: session.Store) {
  /**
   * What Parse Dashboard checks a password against: a secret of this process, which it is
   * handed only in place of a password this site checked (checkLogin).
   */
  const gatePass = randomBytes(32).toString('base64url');
  const configured = config.dashboard.password;
  const fingerprint = (source: string) => createHmac('sha256', config.cookieSecret).update(source).digest('base64url');

  /** The dashboard login's standing now: whether it may use the dashboard, and its password's hash. */
  const standing = async (user: string) => {
    const { rows } = await sql.query<{ account: boolean; admin: boolean; hash: string | null }>(
      `SELECT EXISTS (SELECT 1 FROM "_User" WHERE username = $1 AND "${ENROLLMENT_FIELD}" IS NULL) AS account,
              EXISTS (SELECT 1 FROM "_User" u WHERE u.username = $1 AND ${hasRoleSql('u."objectId"', '$2')}) AS admin,
              (SELECT "${HASHED_PASSWORD_COLUMN}" FROM "_User" WHERE username = $3) AS hash`,
      [normalizeEmail(user), ADMIN_ROLE, config.admin.email],
    );
    const { account, admin, hash } = rows[0]!;
    // The admin login is an account whatever the database says: gone, it opens nothing.
    const isAccount = account || normalizeEmail(user) === config.admin.email;
    return {
      mayUse: !isAccount || admin,
      /** The admin account's password hash, when the dashboard's password is that account's. */
      hash: configured === undefined ? hash : null,
    };
  };
  type Standing = Awaited<ReturnType<typeof standing>>;
  /** Changes when the dashboard's password does: a new DASHBOARD_PASSWORD, the admin account's new password. */
  const credentialOf = (now: Standing) =>
    configured === undefined ? fingerprint(`account:${now.hash ?? ''}`) : fingerprint(`configured:${configured}`);
  /** A hash no password matches, compared when there is no account's: a wrong user takes a right one's time. */
  let noAccountHash: Promise<string> | undefined;
  const rightPassword = async (password: string, now: Standing) => {
    if (configured !== undefined) return sameSecret(password, configured);
    // As the site's admin login takes it (decision 0007).
    noAccountHash ??= passwords.hash(randomBytes(32).toString('hex'));
    const matches = await passwords.compare(normalizePassword(password), now.hash ?? (await noAccountHash));
    return matches && now.hash !== null;
  };

  /** The password each login try was checked with (checkLogin), for its session. */
  const checkedCredential = new WeakMap<Request, string>();
  // The password a login was made with is kept in its session when passport saves it: the one
  // checkLogin checked, found through the request express-session ties to each session. A
  // session that gets none counts as made with a password that has since changed.
  // A session with no login yet is a visit, kept short (shortVisit).
  const save = store.set.bind(store);
  store.set = (sid, data, callback) => {
    const login = data as LoginSession & { req?: Request };
    if (!login.passport?.user) return save(sid, shortVisit(data), callback);
    const credential = login.req && checkedCredential.get(login.req);
    if (login.credential || !credential) return save(sid, data, callback);
    save(sid, { ...data, credential } as session.SessionData, callback);
  };

  /**
   * A stored session's login, checked: undefined when it is none of the configured user's;
   * 'closed' when its account may no longer use the dashboard; 'stale' when its password has
   * changed since; 'open' when it may go on.
   */
  const verdictOf = async (stored: LoginSession): Promise<'open' | 'closed' | 'stale' | undefined> => {
    // passport keeps the logged-in user in the session (Authentication.js serializeUser).
    const user = stored.passport?.user;
    if (user !== config.dashboard.user) return undefined;
    const now = await standing(user);
    return !now.mayUse ? 'closed' : stored.credential !== credentialOf(now) ? 'stale' : 'open';
  };

  const refuse = (res: express.Response) => res.status(403).type('text/plain').send(ServerMessage.dashboardClosed);
  const load = store.get.bind(store);
  // A session that cannot be ended is an error: the request goes no further.
  const end = (sid: string) =>
    new Promise<void>((resolve, reject) => store.destroy(sid, (error?: Error) => (error ? reject(error) : resolve())));

  // However a session is loaded (the dashboard's own session middleware included), one whose
  // login is closed or stale is ended and loads as none.
  store.get = (sid, callback) =>
    load(sid, (error: unknown, data) => {
      if (error || !data) return callback(error, data);
      verdictOf(data as LoginSession)
        .then(async (verdict) => {
          if (verdict === undefined || verdict === 'open') return callback(null, data);
          await end(sid);
          callback(null, null);
        })
        .catch((failure: unknown) => callback(failure));
    });

  /**
   * The request's login, checked as verdictOf says (undefined with none); one that may not go
   * on ends here.
   */
  const checkedLogin = async (req: Request): Promise<'open' | 'closed' | 'stale' | undefined> => {
    const cookie = sessionCookies.parse(req.headers.cookie ?? '')[SESSION_COOKIE];
    // express-session's signed value: "s:" + the session id + its signature.
    const sid = cookie?.startsWith('s:') ? unsign(cookie.slice(2), config.cookieSecret) : false;
    if (!sid) return undefined;
    const stored = await new Promise<session.SessionData | null | undefined>((resolve, reject) =>
      load(sid, (error: Error | null, data) => (error ? reject(error) : resolve(data))),
    );
    const verdict = stored ? await verdictOf(stored as LoginSession) : undefined;
    if (verdict === 'closed' || verdict === 'stale') await end(sid);
    return verdict;
  };

  /** A step that refuses a request `closed` says no to (403, with the reason); an error goes on to the error handler. */
  const refuseWhen =
    (closed: (req: Request) => Promise<boolean>): RequestHandler =>
    async (req, res, next) => {
      try {
        if (await closed(req)) {
          refuse(res);
          return;
        }
      } catch (error) {
        next(error);
        return;
      }
      next();
    };

  /**
   * Every dashboard request: a live login whose account is no admin now ends here, with the
   * reason; one whose password has changed ends too, and the dashboard asks for a login again.
   */
  const refuseClosedSession = refuseWhen(async (req) => (await checkedLogin(req)) === 'closed');

  /**
   * The login itself (after its limits, which read the user as passport-local will). The
   * configured user with the right password is refused with the reason while no admin, and
   * else handed on to the dashboard with the password it checks (gatePass). Any other try
   * goes on with a password nobody knows, to the dashboard's own refusal: the reason tells
   * nobody else.
   */
  const checkLogin = refuseWhen(async (req) => {
    const { user, password } = submittedLogin(req);
    if (!user || !password) return false;
    const now = await standing(user);
    // Checked whoever the user: a wrong user takes the time of a right one.
    const right = (await rightPassword(password, now)) && user === config.dashboard.user;
    if (right && !now.mayUse) return true;
    if (right) checkedCredential.set(req, credentialOf(now));
    // passport-local reads the body before the query string. A password the site did not
    // pass is one nobody knows: only a checked one carries gatePass.
    const handed = right ? gatePass : randomBytes(32).toString('base64url');
    req.body = { ...(req.body as object | undefined), username: user, password: handed };
    return false;
  });

  /**
   * Whether a read with the key comes beside a live login that may still use the dashboard;
   * a login that may not ends here too.
   */
  const admits = async (req: Request): Promise<boolean> => (await checkedLogin(req)) === 'open';

  return { gatePass, refuseClosedSession, checkLogin, admits };
}

const SESSION_TABLE = 'dashboard_session';

/** A login try's user and password where passport-local reads them: the body, else the query string. */
function submittedLogin(req: Request): { user?: string; password?: string } {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const query = req.query as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  return {
    user: text(body.username) ?? text(query.username),
    password: text(body.password) ?? text(query.password),
  };
}

/**
 * connect-pg-simple's own table creation races when several instances start at
 * once (`docker compose up --scale app=3`): one at a time, under an advisory lock.
 */
async function ensureSessionTable(sql: pg.Pool): Promise<void> {
  const client = await sql.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [SESSION_TABLE]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${SESSION_TABLE} (
      sid varchar PRIMARY KEY,
      sess json NOT NULL,
      expire timestamp(6) NOT NULL
    )`);
    await client.query(`CREATE INDEX IF NOT EXISTS ${SESSION_TABLE}_expire ON ${SESSION_TABLE} (expire)`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** express-session sets no Secure flag unless told, and the dashboard does not tell it. */
const secureCookies: RequestHandler = (_req, res, next) => {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) => {
    if (name.toLowerCase() === 'set-cookie') {
      const add = (cookie: string) => (/;\s*secure/i.test(cookie) ? cookie : `${cookie}; Secure`);
      value = typeof value === 'string' ? add(value) : Array.isArray(value) ? value.map(add) : value;
    }
    return setHeader(name, value);
  };
  next();
};

/**
 * The site's own login guard, under the admin login's keys: the dashboard's login
 * is the admin login by default (product.md §3), so a wrong password counts once,
 * on the site or here (5 wrong per address, then 15 minutes locked). Under a spray
 * on the account, where the site asks for a proof of work the dashboard cannot
 * ask for, every try waits. And per address over all users: 20 an hour, besides the
 * site's login group (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_S), which every try counts
 * in as the site's logins do. The dashboard answers a failure with a redirect to its
 * login page, which is what is counted.
 */
async function dashboardLoginLimits(
  config: Config,
  sql: pg.Pool,
  guard: LoginGuard,
  callLimits: Pick<CallLimits, 'countCall'>,
) {
  const factory = await limiterFactory({ sql, redisUrl: config.redisUrl });
  const byAddress = await factory.make({
    keyPrefix: 'dash_ip',
    points: LOGIN_SPRAY_THRESHOLD,
    duration: 3600,
    blockDuration: 3600,
  });
  const key = (...parts: string[]) => hashedKey(config.cookieSecret, ...parts);

  const middleware: RequestHandler = async (req, res, next) => {
    // The user name where passport-local looks for it: the body, else the query string. A user,
    // password or return address it would read otherwise than as one string (a list, an object,
    // a number) is refused, so the try counted is always the one the dashboard checks (and its
    // login page's redirect never meets a value it cannot read).
    const body = (req.body ?? {}) as Record<string, unknown>;
    const query = req.query as Record<string, unknown>;
    const fields = ['username', 'password', 'redirect'];
    const sent = fields.flatMap((field) => [body[field], query[field]]);
    if (sent.some((value) => value !== undefined && typeof value !== 'string')) {
      res.status(400).type('text/plain').send('Send the user name and password as text.');
      return;
    }
    const user = (submittedLogin(req).user ?? '').slice(0, 200);
    // As the site's admin login keys it.
    const account = loginAccountKey('admin', normalizeEmail(user));
    const address = countedAddress(req.ip ?? 'unknown');
    const addressKey = key(address);
    try {
      await callLimits.countCall('login', address);
    } catch (error) {
      if (!(error instanceof AppError && error.code === ErrorCode.TooManyRequests)) {
        next(error);
        return;
      }
      setRetryAfter(res, error.retryAfter);
      res.status(429).type('text/plain').send(error.message);
      return;
    }
    // Each try is counted in the dashboard's hourly count before the dashboard checks its
    // password (atomically, so parallel tries cannot all pass a count of 0), and taken back
    // there if it succeeds; in the login group above it stays, as a site login's does.
    try {
      const fromAddress = await byAddress.consume(addressKey).then(
        () => true,
        (error: unknown) => {
          if (error instanceof RateLimiterRes) return false;
          throw error;
        },
      );
      const { verdict } = fromAddress ? await guard.check(account, address) : { verdict: 'locked' as const };
      if (verdict === 'locked') {
        if (fromAddress) await byAddress.reward(addressKey, 1);
        setRetryAfter(res, LOGIN_LOCKOUT_MINUTES * 60);
        res
          .status(429)
          .type('text/plain')
          .send(`Too many failed logins. Please try again in ${LOGIN_LOCKOUT_MINUTES} minutes.`);
        return;
      }
      if (verdict === 'busy') {
        await byAddress.reward(addressKey, 1);
        res.status(429).type('text/plain').send('Too many logins at once. Please try again in a moment.');
        return;
      }
      // Under a spray the owner still gets in, only slowly: a delay, not a lock.
      if (verdict === 'challenge') await new Promise((r) => setTimeout(r, 2000));
    } catch (error) {
      next(error);
      return;
    }
    res.on('finish', () => {
      // The dashboard answers a try with a redirect: to its login page when the password was wrong.
      const answered = res.statusCode >= 300 && res.statusCode < 400;
      const failed = answered && /\/login(\?|$)/.test(res.getHeader('location')?.toString() ?? '');
      // A try refused otherwise (a form's stale CSRF token, 403) had its password checked all
      // the same: it keeps its place in the address's hourly count, which bounds that work.
      const work = failed
        ? guard.failed(account, address)
        : answered
          ? Promise.all([guard.succeeded(account, address), byAddress.reward(addressKey, 1)])
          : guard.release(account, address);
      work.catch((error: unknown) => console.error('dashboard login limits:', (error as Error).message));
    });
    next();
  };
  // The login page's loads an address may make per window: each starts a session (its CSRF token).
  const pageLoads = await factory.make({
    keyPrefix: 'dash_page',
    points: config.rateLimit.max,
    duration: config.rateLimit.windowSeconds,
    inMemoryBlockOnConsumed: config.rateLimit.max,
  });
  /** GET of the login page: counted per address; past the limit, a 429 that says so (no session). */
  const loginPage: RequestHandler = async (req, res, next) => {
    try {
      await pageLoads.consume(key(countedAddress(req.ip ?? 'unknown')));
      next();
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        next(error);
        return;
      }
      setRetryAfter(res, error.msBeforeNext / 1000);
      res.status(429).type('text/plain').send(ServerMessage.tooManyRequests);
    }
  };
  return { middleware, loginPage, close: factory.close };
}

/** How long a session with no login yet is kept (the login page's CSRF token): a login's is 8 hours. */
export const VISIT_MINUTES = 15;

/**
 * The dashboard's login page keeps each visitor's CSRF token in a session: anyone loading it
 * in a loop wrote a row of the site's database at each load, kept 8 hours. A session with no
 * login is kept VISIT_MINUTES (and the page's loads are counted per address: loginPage).
 */
function shortVisit(data: session.SessionData): session.SessionData {
  const cookie = (data.cookie as unknown as { toJSON(): session.Cookie }).toJSON();
  const expires = new Date(Date.now() + VISIT_MINUTES * 60_000);
  return { ...data, cookie: { ...cookie, expires } };
}

// Everything this project takes from Parse Server's private `lib/` folder, in
// one place (docs/decisions/0006-account-lockout.md says why there is a fence).
// Parse Server does not export these from its package entry; an upgrade may
// move them. internals.unit.test.ts fails when it does, before anything else
// breaks at run time.

import { createRequire } from 'node:module';
import { ErrorCode } from '@tc/domain/errors';
import { setRetryAfter } from '../errors.ts';

const require = createRequire(import.meta.url);

// Loading Parse Server sets up a default logger that writes files to ./logs
// unless told otherwise; the site logs to the console only. Every load of
// Parse Server in this project goes through this module, so this comes first.
process.env.PARSE_SERVER_LOGS_FOLDER ??= 'null';

/** Parse Server itself (its public entry, loaded here after the line above). */
export const { ParseServer } = require('parse-server') as typeof import('parse-server');

/**
 * The Parse SDK that Parse Server loads itself: its own copy when its version is not the
 * site's. Only its Parse.Error is one Parse Server recognises as a refusal, not a fault.
 */
export const ParseServerSdk = createRequire(require.resolve('parse-server'))(
  'parse/node',
) as typeof import('parse/node');

/** Parse's PostgreSQL adapter: built by us to pass pg's connection and statement timeouts. */
export const PostgresStorageAdapter = (
  require('parse-server/lib/Adapters/Storage/Postgres/PostgresStorageAdapter.js') as {
    PostgresStorageAdapter: new (options: { uri: string; collectionPrefix: string; databaseOptions: object }) => object;
  }
).PostgresStorageAdapter;

/** Parse's own classes, which its schema (`_SCHEMA`) need not list: the system ones and those it keeps in memory. */
export const parseOwnClasses: ReadonlySet<string> = (() => {
  const { systemClasses, VolatileClassesSchemas } = require('parse-server/lib/Controllers/SchemaController.js') as {
    systemClasses: readonly string[];
    VolatileClassesSchemas: ReadonlyArray<{ className: string }>;
  };
  return new Set([...systemClasses, ...VolatileClassesSchemas.map((schema) => schema.className)]);
})();

/** The files adapter Parse makes by itself; an explicit database adapter needs an explicit one. */
export const GridFSBucketAdapter = (
  require('parse-server/lib/Adapters/Files/GridFSBucketAdapter.js') as {
    GridFSBucketAdapter: new (uri: string, options: object) => object;
  }
).GridFSBucketAdapter;

/** Parse's own logger, which parse-logger.ts extends to log refused requests at info. */
export const WinstonLoggerAdapter = (
  require('parse-server/lib/Adapters/Logger/WinstonLoggerAdapter.js') as {
    WinstonLoggerAdapter: new (options?: object) => {
      log(level: string, message: unknown, ...meta: unknown[]): unknown;
    };
  }
).WinstonLoggerAdapter;

/** Parse's bcrypt: is the stored admin password the configured one; the Dashboard's login. */
export const passwords = require('parse-server/lib/password.js') as {
  hash(password: string): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
};

type ErrorMiddleware = (
  error: unknown,
  req: unknown,
  res: { json(body: unknown): unknown; status(code: number): unknown; set(name: string, value: string): unknown },
  next: (error?: unknown) => void,
) => void;
const middlewares = require('parse-server/lib/middlewares.js') as {
  handleParseErrors: ErrorMiddleware & { withField?: true };
  checkIp(ip: string, list: string[], store: Map<string, unknown>): boolean;
};

/** Whether an address is in a list of addresses and networks, as Parse decides it for `masterKeyIps`. */
export function addressIn(list: string[]): (ip: string) => boolean {
  const store = new Map<string, unknown>();
  return (ip) => middlewares.checkIp(ip, list, store);
}

/**
 * Parse answers a refused request with `{code, error}` only. A cloud function's
 * error that concerns one form field (cloud/src/errors.ts `fail`) names it, as the
 * /api facade does, so that the browser's Parse SDK can put the message under the
 * field (client/src/lib/parse-sdk.ts). A request over a per-address limit is
 * `429`, as on /api (Parse answers 400 to every code of its own but two).
 * Must run before Parse Server builds its app.
 */
export function answerParseErrorsWithField(): void {
  const original = middlewares.handleParseErrors;
  if (original.withField) return;
  const withField: ErrorMiddleware & { withField?: true } = (error, req, res, next) => {
    if ((error as { code?: unknown } | null)?.code === ErrorCode.TooManyRequests) {
      const status = res.status.bind(res);
      res.status = () => status(429);
      const retryAfter = (error as { retryAfter?: unknown }).retryAfter;
      setRetryAfter(res, typeof retryAfter === 'number' ? retryAfter : undefined);
    }
    const field = (error as { field?: unknown } | null)?.field;
    if (typeof field === 'string' && field) {
      const json = res.json.bind(res);
      res.json = (body: unknown) =>
        json(body && typeof body === 'object' && 'code' in body ? { ...body, field } : body);
    }
    original(error, req, res, next);
  };
  withField.withField = true;
  middlewares.handleParseErrors = withField;
}

/** Parse's configuration of a running application. */
export const Config = require('parse-server/lib/Config.js') as { get(applicationId: string): unknown };
/** Parse's way from a session token to its account (the function router's, with its cache). */
export const Auth = require('parse-server/lib/Auth.js') as {
  getAuthForSessionToken(options: {
    config: unknown;
    sessionToken: string;
    installationId: string;
  }): Promise<{ user?: unknown }>;
};

/**
 * The account of a session token, as Parse's function router hands it to a cloud
 * function (through Parse's short cache of sessions): a Parse.User with its
 * session token. Rejects with Parse's INVALID_SESSION_TOKEN when there is no
 * such session or it has expired. The cloud code's own check (sessions.ts) then
 * reads the session afresh.
 */
export async function userOfSession(applicationId: string, sessionToken: string): Promise<unknown> {
  const auth = await Auth.getAuthForSessionToken({
    config: Config.get(applicationId),
    sessionToken,
    installationId: 'api',
  });
  return auth.user;
}

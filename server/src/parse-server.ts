// Parse Server, locked down (product.md §4-§6): no client class creation,
// private users, schema as code, account lockout, quiet logs (parse-logger.ts).

import { createRequire } from 'node:module';
// First: it keeps parse-server from creating a ./logs folder as it loads.
import { RefusalsAsInfoLogger } from './parse-logger.ts';
import { ParseServer } from 'parse-server';
import { LOGIN_LOCKOUT_MINUTES, LOGIN_MAX_WRONG_PASSWORDS, LIST_MAX_LIMIT } from '@tc/domain/constants';
import type { CloudDeps } from '@tc/cloud/deps';
import { cloudCode } from '@tc/cloud/main';
import { schemaDefinitions } from '@tc/cloud/schema';
import type { Config } from './config.ts';
import { timeoutOptions } from './database/sql.ts';

const require = createRequire(import.meta.url);
const { PostgresStorageAdapter } = require('parse-server/lib/Adapters/Storage/Postgres/PostgresStorageAdapter.js') as {
  PostgresStorageAdapter: new (options: { uri: string; collectionPrefix: string; databaseOptions: object }) => object;
};
const { GridFSBucketAdapter } = require('parse-server/lib/Adapters/Files/GridFSBucketAdapter.js') as {
  GridFSBucketAdapter: new (uri: string, options: object) => object;
};

export type RunningParseServer = Awaited<ReturnType<ReturnType<typeof ParseServer>['start']>>;

export const SESSION_LENGTH_SECONDS = 7 * 24 * 3600;

export async function startParseServer(
  config: Config,
  databaseUri: string,
  internalUrl: string,
  deps: CloudDeps,
): Promise<RunningParseServer> {
  skipNeedlessLockoutWrites();
  const server = ParseServer({
    appId: config.appId,
    masterKey: config.masterKey,
    maintenanceKey: config.maintenanceKey,
    // The Parse Dashboard sends the master key from the operator's browser, after its own login.
    masterKeyIps: ['0.0.0.0/0', '::0'],
    // Parse's own options have no PostgreSQL timeouts: its adapter, built here, takes
    // pg's, so that a frozen or dead database fails requests fast instead of holding
    // them (issue 12 item 3). An explicit database adapter needs an explicit files
    // adapter: the one Parse would make by itself (uploads are closed anyway).
    databaseAdapter: new PostgresStorageAdapter({
      uri: databaseUri,
      collectionPrefix: '',
      databaseOptions: timeoutOptions({
        connectMs: config.timeouts.databaseConnectMs,
        statementMs: config.timeouts.databaseStatementMs,
      }),
    }),
    filesAdapter: new GridFSBucketAdapter(databaseUri, {}),
    serverURL: internalUrl,
    publicServerURL: `${config.publicUrl}/parse`,
    appName: 'Guided Learning',
    cloud: cloudCode(deps),
    schema: {
      definitions: schemaDefinitions,
      strict: false,
      deleteExtraFields: false,
      recreateModifiedFields: false,
      lockSchemas: false,
    },
    // Clients without the master key reach cloud functions only (one by one or in
    // a batch, whose requests Parse checks one by one): no /login, /users,
    // /sessions, /classes or /verifyPassword. Every operation then passes the
    // rules and the rate limit of its cloud function.
    routeAllowList: ['functions/[A-Za-z]+', 'batch'],
    allowClientClassCreation: false,
    enforcePrivateUsers: true,
    directAccess: true,
    maxLimit: LIST_MAX_LIMIT,
    accountLockout: {
      duration: LOGIN_LOCKOUT_MINUTES,
      threshold: LOGIN_MAX_WRONG_PASSWORDS,
      unlockOnPasswordReset: true,
    },
    revokeSessionOnPasswordReset: true,
    sessionLength: SESSION_LENGTH_SECONDS,
    expireInactiveSessions: true,
    // Cloud function inputs hold passwords and codes: keep them out of the logs
    // ('silent' also spares building each message that would then be dropped).
    logLevel: 'warn',
    loggerAdapter: RefusalsAsInfoLogger,
    logsFolder: null as unknown as string,
    logLevels: {
      cloudFunctionSuccess: 'silent',
      cloudFunctionError: 'silent',
      triggerAfter: 'silent',
      triggerBeforeSuccess: 'silent',
      triggerBeforeError: 'silent',
      signupUsernameTaken: 'silent',
    },
    enableInsecureAuthAdapters: false,
    mountGraphQL: false,
    enableProductPurchaseLegacyApi: false,
    // The future defaults of Parse Server, chosen now (each was a deprecation warning).
    fileUpload: {
      enableForPublic: false,
      enableForAnonymousUser: false,
      enableForAuthenticatedUser: false,
      allowedFileUrlDomains: [],
    },
    pages: { encodePageParamHeaders: true },
    readOnlyMasterKeyIps: ['127.0.0.1', '::1'],
    requestComplexity: {
      includeDepth: 10,
      includeCount: 100,
      subqueryDepth: 10,
      queryDepth: 10,
      graphQLDepth: 20,
      graphQLFields: 200,
      batchRequestLimit: 100,
    },
    protectedFieldsOwnerExempt: false,
    protectedFieldsTriggerExempt: true,
    protectedFieldsSaveResponseExempt: false,
    installation: { duplicateDeviceTokenActionEnforceAuth: true },
    allowAggregationForReadOnlyMasterKey: false,
    maxUploadSize: '100kb',
  } as unknown as Parameters<typeof ParseServer>[0]);
  const started = await server.start();
  // Building the app is what routes the SDK's calls in this process straight to
  // Parse Server (directAccess) instead of over HTTP.
  void started.app;
  return started;
}

interface LockoutPolicy {
  _user: { _failed_login_count?: number | null; _account_lockout_expires_at?: unknown };
  _notLocked(): Promise<void>;
  _setFailedLoginCount(value: number): Promise<void>;
}

/**
 * Parse's account lockout queries the lockout again and writes the failed-login
 * count back to 0 on every successful login, even when the account it has just
 * read has no failed attempt: two round trips (one a write) per login for nothing.
 * Skip them exactly then; an account with failed attempts goes through Parse's
 * own code. (Benchmarked: login is bound by bcrypt, and these cost ~10 % of it.)
 */
let lockoutPatched = false;
export function skipNeedlessLockoutWrites(): void {
  if (lockoutPatched) return;
  lockoutPatched = true;
  const prototype = require('parse-server/lib/AccountLockout.js').default.prototype as LockoutPolicy;
  const notLocked = prototype._notLocked;
  const setCount = prototype._setFailedLoginCount;
  const clean = (policy: LockoutPolicy) =>
    !policy._user._failed_login_count && !policy._user._account_lockout_expires_at;
  prototype._notLocked = function (this: LockoutPolicy) {
    return clean(this) ? Promise.resolve() : notLocked.call(this);
  };
  prototype._setFailedLoginCount = function (this: LockoutPolicy, value: number) {
    return value === 0 && clean(this) ? Promise.resolve() : setCount.call(this, value);
  };
}

/** Clears the failed-login count and lockout, as Parse does after its own password reset. */
export async function unlockAccount(appId: string, username: string): Promise<void> {
  const Config = require('parse-server/lib/Config.js');
  const AccountLockout = require('parse-server/lib/AccountLockout.js').default;
  const parseConfig = Config.get(appId);
  await new AccountLockout({ username }, parseConfig).unlockAccount();
}

/** Closes Parse Server's database connections (its handleShutdown expects a server it started itself). */
export async function stopParseServer(server: RunningParseServer): Promise<void> {
  const withServer = server as unknown as { server?: { close(cb: (error?: Error) => void): void } };
  withServer.server ??= { close: (cb) => cb() };
  await server.handleShutdown();
}

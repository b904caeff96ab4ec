// Parse Server, locked down (docs/decisions/0010): no client class creation,
// private users, schema as code, the master key from the loopback only, quiet
// logs (parse-logger.ts). Failed logins are counted by the cloud code
// (login-guard.ts), not by Parse's whole-account lockout, which let anyone
// lock anyone out.

import { RefusalsAsInfoLogger } from './parse-logger.ts';
import { LIST_MAX_LIMIT } from '@tc/domain/constants';
import type { CloudDeps } from '@tc/cloud/deps';
import { cloudCode } from '@tc/cloud/main';
import { schemaDefinitions } from '@tc/cloud/schema';
import type { Config } from './config.ts';
import { refuseBadQueryValues } from './database/bad-query-values.ts';
import { parseClassesOnly } from './database/parse-classes-only.ts';
import { decodedCredentials, timeoutOptions } from './database/sql.ts';
import { liveQueryOptions } from './live-query.ts';
import {
  answerParseErrorsWithField,
  GridFSBucketAdapter,
  ParseServer,
  PostgresStorageAdapter,
} from './parse-internals/internals.ts';

export type RunningParseServer = Awaited<ReturnType<ReturnType<typeof ParseServer>['start']>>;

export async function startParseServer(
  config: Config,
  databaseUri: string,
  internalUrl: string,
  deps: CloudDeps,
): Promise<RunningParseServer> {
  const server = ParseServer({
    appId: config.appId,
    masterKey: config.masterKey,
    // The cloud code and the server itself use the full key in this process or
    // from 127.0.0.1; nobody else needs it (MASTER_KEY_IPS widens it).
    masterKeyIps: config.masterKeyIps,
    // Parse Dashboard browses with this one, from the operator's browser, wherever that is:
    // beside a live dashboard login only (read-only-key-guard.ts).
    readOnlyMasterKey: config.readOnlyMasterKey,
    readOnlyMasterKeyIps: ['0.0.0.0/0', '::/0'],
    maintenanceKey: config.maintenanceKey,
    // Parse's own options have no PostgreSQL timeouts: its adapter, built here, takes
    // pg's, so that a frozen or dead database fails requests fast instead of holding
    // them (issue 12 item 3). An explicit database adapter needs an explicit files
    // adapter: the one Parse would make by itself (uploads are closed anyway).
    // The user, password and database are given decoded (sql.ts, decodedCredentials).
    // Its reads answer a value PostgreSQL refuses (an operator's bad regex or date) 400, not 500,
    // and reach Parse's classes only, never another table or view of the database.
    databaseAdapter: refuseBadQueryValues(
      parseClassesOnly(
        new PostgresStorageAdapter({
          uri: databaseUri,
          collectionPrefix: '',
          databaseOptions: {
            ...decodedCredentials(databaseUri),
            ...timeoutOptions({
              connectMs: config.timeouts.databaseConnectMs,
              statementMs: config.timeouts.databaseStatementMs,
            }),
          },
        }),
      ),
    ),
    filesAdapter: new GridFSBucketAdapter(databaseUri, {}),
    // Browsers may call /parse from the site's own pages only.
    allowOrigin: config.corsOrigins ?? [new URL(deps.publicUrl).origin],
    serverURL: internalUrl,
    publicServerURL: `${deps.publicUrl}/parse`,
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
    // Changes of these classes are published to the LiveQuery servers (live-query.ts).
    liveQuery: liveQueryOptions(config),
    allowClientClassCreation: false,
    // No account without a password: /users is closed to clients anyway (routeAllowList).
    enableAnonymousUsers: false,
    enforcePrivateUsers: true,
    directAccess: true,
    maxLimit: LIST_MAX_LIMIT,
    revokeSessionOnPasswordReset: true,
    // The longest absolute lifetime; the cloud code applies each role's own
    // idle timeout and lifetime (cloud/src/users/sessions.ts).
    sessionLength: Math.max(config.sessions.student.maxSeconds, config.sessions.admin.maxSeconds),
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
    requestComplexity: {
      includeDepth: 10,
      includeCount: 100,
      subqueryDepth: 10,
      queryDepth: 10,
      graphQLDepth: 20,
      graphQLFields: 200,
      // The JS SDK's own batches are 20 at most (saveAll, destroyAll); the site's pages send none.
      // Each request of a batch runs at once, so a larger one multiplies a student's calls
      // that no limit counts (their progress, schedule) into one HTTP request.
      batchRequestLimit: 20,
    },
    protectedFieldsOwnerExempt: false,
    protectedFieldsTriggerExempt: true,
    protectedFieldsSaveResponseExempt: false,
    installation: { duplicateDeviceTokenActionEnforceAuth: true },
    allowAggregationForReadOnlyMasterKey: false,
    maxUploadSize: '100kb',
  } as unknown as Parameters<typeof ParseServer>[0]);
  answerParseErrorsWithField();
  const started = await server.start();
  // Building the app is what routes the SDK's calls in this process straight to
  // Parse Server (directAccess) instead of over HTTP. It is an Express app of its own, which
  // would name itself on every answer of /parse.
  (started.app as { disable(setting: string): unknown }).disable('x-powered-by');
  return started;
}

/** Closes Parse Server's database connections (its handleShutdown expects a server it started itself). */
export async function stopParseServer(server: RunningParseServer): Promise<void> {
  const withServer = server as unknown as {
    server?: { close(cb: (error?: Error) => void): void };
    config?: { liveQueryController?: { liveQueryPublisher?: { parsePublisher?: { quit?(): Promise<unknown> } } } };
  };
  withServer.server ??= { close: (cb) => cb() };
  await server.handleShutdown();
  // The Redis connection that publishes changes to the other instances (handleShutdown leaves it open).
  const publisher = withServer.config?.liveQueryController?.liveQueryPublisher?.parsePublisher;
  if (typeof publisher?.quit === 'function') await publisher.quit().catch(() => undefined);
}

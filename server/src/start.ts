// Start-up and shutdown: config -> database -> Parse -> listen.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import type { RequestHandler } from 'express';
import type { CloudDeps } from '@tc/cloud/deps';
import { calendarFeed } from '@tc/cloud/timetable/calendar-feed';
import { purgeEndedSessions } from '@tc/cloud/users/sessions';
import { redoErasures } from '@tc/cloud/students/status';
import { ensureAdmin } from './admin-bootstrap.ts';
import { standaloneErrorBody } from './errors.ts';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { createDashboard } from './dashboard.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded.ts';
import { migrate } from './database/migrate.ts';
import { takeStartUpLock } from './database/start-up-lock.ts';
import { cloudSql, createPool, inTransaction, isHealthy, nextEnrollmentId } from './database/sql.ts';
import { createMailer } from './delivery/mail.ts';
import { Outbox } from './delivery/outbox.ts';
import { createSmsSender } from './delivery/sms.ts';
import { applyHttpLimits } from './http-limits.ts';
import { limitPasswordHashing } from './password-hashing.ts';
import { startMailQueue, type MailQueue } from './mail-queue/mail-queue.ts';
import { createLoginGuard } from './login-guard.ts';
import { startParseServer, stopParseServer } from './parse-server.ts';
import { startLiveQuery, type LiveQuery } from './live-query.ts';
import { createCallLimits } from './rate-limit.ts';
import { logger as processLogger, type Logger } from './logger.ts';
import { bringLedgerUpToDate, writeToLedger } from './operations/erasure-ledger.ts';
import { startOperations } from './operations/operations.ts';
import { exportRoute } from './routes/export.ts';

export const CLIENT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../client/dist');

/** Mails the durable queue hands to the mail server at once, over as many SMTP connections. */
const MAIL_SEND_CONCURRENCY = 5;

export interface RunningSite {
  url: string;
  port: number;
  config: Config;
  databaseUri: string;
  outbox: Outbox;
  mailQueue: MailQueue;
  /** The embedded PostgreSQL's postmaster, when the site runs one. */
  postmasterPid(): number | undefined;
  /**
   * Drains and stops: new requests get 503 with `Connection: close` (health and
   * readiness included) while the requests in flight finish, up to the grace
   * period; then Parse, the queue and the database close, in that order.
   */
  /** Waits until the mails queued so far have been handed to the mail server. */
  drainMail(): Promise<void>;
  stop(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`PORT ${port} is in use by another program: stop it, or set PORT to a free one`)
          : error,
      );
    server.once('error', refused);
    server.listen(port, () => {
      server.off('error', refused);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

type Starting<T> = readonly [Promise<T>, (started: T) => Promise<void> | void];

/** A part that is starting, and how to stop it once started. */
const part = <T>(starting: Promise<T>, stop: (started: T) => Promise<void> | void): Starting<T> => [starting, stop];

/**
 * Waits for parts that start at once; each one that started gets its cleanup,
 * even when another failed (then the first failure is thrown).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function startedTogether<const P extends readonly Starting<any>[]>(
  cleanups: Array<() => Promise<void> | void>,
  parts: P,
): Promise<{ [K in keyof P]: P[K] extends Starting<infer T> ? T : never }> {
  const settled = await Promise.allSettled(parts.map(([promise]) => promise));
  settled.forEach((result, i) => {
    if (result.status === 'fulfilled') cleanups.push(() => parts[i]![1](result.value));
  });
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as never;
}

export interface StartOptions {
  clientDir?: string;
  /** The embedded database died and could not be started again (index.ts exits non-zero). */
  onFatal?: (error: Error) => void;
  /** Where request lines go (the process's logger unless a test captures them). */
  logger?: Logger;
}

export async function startSite(config: Config, options: StartOptions = {}): Promise<RunningSite> {
  if (!options.logger) processLogger.level = config.logLevel;
  const logger = options.logger ?? processLogger;
  mkdirSync(config.dataDir, { recursive: true });
  const cleanups: Array<() => Promise<void> | void> = [];
  const stopAll = async () => {
    // The database ends its connections (57P01) as it stops: expected now, not a
    // crash (Parse Server would exit on it).
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (error: Error & { code?: string }) => {
      if (error.code !== '57P01' && error.code !== 'ECONNRESET') console.error('during shutdown:', error.message);
    });
    for (const cleanup of cleanups.reverse()) {
      await Promise.resolve(cleanup()).catch((error) => console.error('shutdown:', error));
    }
  };

  // Requests being answered, so that a stop can wait for them.
  const inFlight = new Set<ServerResponse>();
  let shuttingDown = false;
  let drained: (() => void) | undefined;
  // Listen first, answering 503 until ready, so that PORT=0 gets its port now.
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    const body = standaloneErrorBody(ServerMessage.siteStarting, ErrorCode.Unavailable, { status: 'starting' });
    res
      .writeHead(503, { 'content-type': 'application/json', 'retry-after': '5', 'x-request-id': body.requestId })
      .end(JSON.stringify(body));
  };
  // Checks for headers and requests over their time limits every second (Node: 30 s).
  const http = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    if (shuttingDown) {
      const body = standaloneErrorBody(ServerMessage.siteStopping, ErrorCode.Unavailable, { status: 'stopping' });
      res
        .writeHead(503, {
          'content-type': 'application/json',
          connection: 'close',
          'retry-after': '5',
          'x-request-id': body.requestId,
        })
        .end(JSON.stringify(body));
      return;
    }
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) drained?.();
    });
    handler(req, res);
  });
  applyHttpLimits(http, config.http);

  // The LiveQuery sockets (upgraded connections, which http.close() would wait for).
  let liveQuery: LiveQuery | undefined;
  let stopping: Promise<void> | undefined;
  const drainAndStop = () =>
    (stopping ??= (async () => {
      shuttingDown = true;
      // Open pages lose their live updates at once (their clients reconnect elsewhere).
      await liveQuery?.close().catch((error: unknown) => console.error('shutdown: live query:', error));
      // Answers still to come end their connection, so keep-alive clients go elsewhere.
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      http.closeIdleConnections();
      if (inFlight.size > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, config.shutdownGraceSeconds * 1000).unref();
        });
      }
      // Stop accepting; what is still open after the grace period is cut.
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await stopAll();
    })());

  try {
    const port = await listen(http, config.port);
    // Known only now that the site listens (PORT=0 picks the port).
    const publicUrl = config.publicUrl ?? `http://localhost:${port}`;

    let databaseUri = config.databaseUri;
    let embedded: EmbeddedDatabase | undefined;
    if (!databaseUri) {
      embedded = await startEmbeddedPostgres(path.join(config.dataDir), {
        onEvent: (message) => console.error(message),
        onGiveUp: (error) => {
          console.error(error.message);
          options.onFatal?.(error);
        },
      });
      cleanups.push(() => embedded!.stop());
      databaseUri = embedded.uri;
    }

    const timeouts = { connectMs: config.timeouts.databaseConnectMs, statementMs: config.timeouts.databaseStatementMs };
    // Every authenticated call now checks its session here, and the week schedule
    // reads two more tables at once: 5 connections made calls queue for one.
    const sql = createPool(databaseUri, 10, timeouts);
    cleanups.push(() => sql.end());
    // Until its tables, functions and indexes are set up, this instance has the database to itself.
    // That is the first query too: an external database that cannot be reached is a
    // configuration error, so the message names the setting.
    const releaseStartUpLock = await takeStartUpLock(sql).catch((error: unknown) => {
      if (embedded) throw error;
      throw new Error(
        `DATABASE_URI: cannot reach the database (${error instanceof Error ? error.message : String(error)})`,
      );
    });
    cleanups.push(releaseStartUpLock);

    const outbox = new Outbox(config.dataDir);
    const mailer = createMailer(config.smtpUrl, config.mailFrom, outbox, config.timeouts.smtpMs);
    cleanups.push(() => mailer.close());
    // The queue's mails go out several at a time over connections kept open.
    const queueMailer = createMailer(
      config.smtpUrl,
      config.mailFrom,
      outbox,
      config.timeouts.smtpMs,
      MAIL_SEND_CONCURRENCY,
    );
    cleanups.push(() => queueMailer.close());

    // Before the mail queue: its sends are counted, and its depth read, by the metrics.
    const operations = startOperations(config, databaseUri, sql, logger);
    cleanups.push(() => operations.stop());

    // These three do not depend on one another: started at once.
    const [callLimits, mailQueue, loginGuard] = await startedTogether(cleanups, [
      part(createCallLimits({ ...config.rateLimit, redisUrl: config.redisUrl }), (limits) => limits.close()),
      part(
        startMailQueue({
          databaseUri,
          sql,
          send: operations.metrics.countDeliveries('email', queueMailer.send),
          sendConcurrency: MAIL_SEND_CONCURRENCY,
          retryLimit: config.mailQueue.retryLimit,
          retryDelaySeconds: config.mailQueue.retryDelaySeconds,
          keepTryingHours: config.mailQueue.keepTryingHours,
        }),
        (queue) => queue.stop(),
      ),
      part(
        createLoginGuard({
          sql,
          redisUrl: config.redisUrl,
          secret: `${config.masterKey}:login-guard`,
          prefix: 'login',
        }),
        (guard) => guard.close(),
      ),
    ] as const);
    operations.metrics.setMailQueueDepth(async () => (await mailQueue.status()).queued);
    // Again, so that a stop (cleanups run last first) cuts a backup under way short before the
    // mail queue waits for its sends; the earlier one covers a start that failed in between.
    cleanups.push(() => operations.stop());

    const deps: CloudDeps = {
      countCall: (group, address) => callLimits.countCall(group, address),
      countFeedFetch: (token) => callLimits.countFeedFetch(token),
      sendMail: operations.metrics.countDeliveries('email', mailer.send),
      sendSms: operations.metrics.countDeliveries(
        'sms',
        createSmsSender(config.smsWebhookUrl, outbox, config.timeouts.smsMs),
      ),
      enqueueMail: (message, key, accountId) => mailQueue.enqueue(message, key, accountId),
      mailQueueStatus: () => mailQueue.status(),
      forgetMail: (addresses, accountId) => mailQueue.forgetMail(addresses, accountId),
      noteErasure: (accountId) =>
        writeToLedger(sql, config.backup.dir, [accountId]).then(
          () => undefined,
          (error: unknown) => logger.error({ err: error, accountId }, 'erasure ledger not written'),
        ),
      sql: cloudSql(sql),
      transaction: (work) =>
        inTransaction(sql, (client) =>
          work({
            sql: cloudSql(client),
            enqueueMails: (jobs) => mailQueue.enqueueMany(jobs, client),
            reviseQueuedMails: (revisions) => mailQueue.reviseQueued(revisions, client),
          }),
        ),
      codeSecret: `${config.masterKey}:one-time-codes`,
      nextEnrollmentId: () => nextEnrollmentId(sql),
      loginGuard,
      sessions: config.sessions,
      publicUrl,
      adminName: config.admin.name,
      adminEmail: config.admin.email,
      centreTimeZone: config.centreTimeZone,
    };
    limitPasswordHashing(config.passwordHashConcurrency);
    const parseServer = await startParseServer(config, databaseUri, `http://127.0.0.1:${port}/parse`, deps);
    cleanups.push(() => stopParseServer(parseServer));
    liveQuery = await startLiveQuery(http, config, `http://127.0.0.1:${port}/parse`, () => shuttingDown);
    cleanups.push(() => liveQuery?.close());
    // Independent of one another too (the admin's password check is a bcrypt hash).
    const [, , made] = await startedTogether(cleanups, [
      part(migrate(sql), () => undefined),
      part(ensureAdmin(config, sql), () => undefined),
      part(
        config.dashboard.enabled
          ? createDashboard(config, sql, publicUrl, loginGuard, callLimits)
          : Promise.resolve(undefined),
        (made) => made?.close(),
      ),
    ] as const);
    // Children a restore brought back although erased since its backup: erased again
    // before anyone can reach them (operations/erasures-after-restore.ts).
    const erasedAgain = await redoErasures(deps);
    if (erasedAgain) logger.info({ students: erasedAgain }, 'erased again after a restore');
    // Every erasure is in the ledger beside the backups, also one whose write failed.
    await bringLedgerUpToDate(sql, config.backup.dir).catch((error: unknown) =>
      logger.error({ err: error }, 'erasure ledger not brought up to date'),
    );
    await releaseStartUpLock();

    // Sessions past every limit are deleted now and each hour (sessions.ts purgeEndedSessions).
    const purgeSessions = () =>
      void purgeEndedSessions(deps).catch((error: unknown) => console.error('sessions:', (error as Error).message));
    purgeSessions();
    const purging = setInterval(purgeSessions, 60 * 60_000);
    purging.unref();
    cleanups.push(() => clearInterval(purging));

    const app = createApp({
      config,
      publicUrl,
      parseApp: parseServer.app as RequestHandler,
      dashboard: made,
      isDatabaseHealthy: () => isHealthy(sql, config.timeouts.healthMs),
      clientDir: options.clientDir ?? CLIENT_DIST,
      logger,
      metrics: operations.metrics,
      apiHandlers: operations.apiHandlers,
      calendarFeed: (token, clientAddress) => calendarFeed(deps, token, clientAddress),
      exportStudents: exportRoute(sql),
    });
    handler = app;

    return {
      url: publicUrl,
      port,
      config,
      databaseUri,
      outbox,
      mailQueue,
      postmasterPid: () => embedded?.pid(),
      drainMail: () => mailQueue.drain(),
      stop: drainAndStop,
    };
  } catch (error) {
    await drainAndStop();
    throw error;
  }
}

// Start-up and shutdown: config -> database -> Parse -> listen (product.md §2, §3).

import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CloudDeps } from '@tc/cloud/deps';
import { ensureAdmin } from './admin-bootstrap.ts';
import { createApp } from './app.ts';
import type { Config } from './config.ts';
import { createDashboard } from './dashboard.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded.ts';
import { createPool, isHealthy, migrate, nextEnrollmentId } from './database/sql.ts';
import { createMailer } from './delivery/mail.ts';
import { Outbox } from './delivery/outbox.ts';
import { createSmsSender } from './delivery/sms.ts';
import { startParseServer, stopParseServer, unlockAccount } from './parse-server.ts';
import { createCallLimits } from './rate-limit.ts';
import { exportRoute } from './routes/export.ts';

export const CLIENT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../client/dist');

export interface RunningSite {
  url: string;
  port: number;
  config: Config;
  databaseUri: string;
  outbox: Outbox;
  stop(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

export async function startSite(config: Config, options: { clientDir?: string } = {}): Promise<RunningSite> {
  mkdirSync(config.dataDir, { recursive: true });
  const cleanups: Array<() => Promise<void> | void> = [];
  const stopAll = async () => {
    // The database ends its connections (57P01) as it stops, and Ctrl-C reaches it
    // directly too: expected now, not a crash (Parse Server would exit on it).
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (error: Error & { code?: string }) => {
      if (error.code !== '57P01' && error.code !== 'ECONNRESET') console.error('during shutdown:', error.message);
    });
    for (const cleanup of cleanups.reverse()) {
      await Promise.resolve(cleanup()).catch((error) => console.error('shutdown:', error));
    }
  };

  try {
    // Listen first, answering 503 until ready, so that PORT=0 gets its port now.
    let handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void = (
      _req,
      res,
    ) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"status":"starting"}');
    };
    const http = createServer((req, res) => handler(req, res));
    http.keepAliveTimeout = 5_000;
    const port = await listen(http, config.port);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeIdleConnections();
          setTimeout(() => http.closeAllConnections(), 3_000).unref();
        }),
    );
    config.publicUrl ??= `http://localhost:${port}`;

    let databaseUri = config.databaseUri;
    if (!databaseUri) {
      const embedded: EmbeddedDatabase = await startEmbeddedPostgres(path.join(config.dataDir));
      cleanups.push(() => embedded.stop());
      databaseUri = embedded.uri;
    }

    const sql = createPool(databaseUri);
    cleanups.push(() => sql.end());

    const outbox = new Outbox(config.dataDir);
    const mailer = createMailer(config.smtpUrl, config.mailFrom, outbox);
    cleanups.push(() => mailer.close());

    const callLimits = await createCallLimits({ ...config.rateLimit, redisUrl: config.redisUrl });
    cleanups.push(() => callLimits.close());

    const deps: CloudDeps = {
      countCall: callLimits.countCall,
      sendMail: mailer.send,
      sendSms: createSmsSender(config.smsWebhookUrl, outbox),
      codeSecret: `${config.masterKey}:one-time-codes`,
      nextEnrollmentId: () => nextEnrollmentId(sql),
      unlockAccount: (username) => unlockAccount(config.appId, username),
      publicUrl: config.publicUrl,
      adminName: config.admin.name,
    };
    const parseServer = await startParseServer(config, databaseUri, `http://127.0.0.1:${port}/parse`, deps);
    cleanups.push(() => stopParseServer(parseServer));
    await migrate(sql);
    await ensureAdmin(config, sql);

    const app = createApp({
      config,
      parseApp: parseServer.app,
      dashboard: createDashboard(config),
      isDatabaseHealthy: () => isHealthy(sql),
      clientDir: options.clientDir ?? CLIENT_DIST,
      exportStudents: exportRoute(sql),
    });
    handler = app;

    return { url: config.publicUrl, port, config, databaseUri, outbox, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

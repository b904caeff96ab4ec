// Builds the Express app (never listens): security headers, Parse
// Server at /parse, the /api facade, Parse Dashboard and the built client.

import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import compression from 'compression';
import helmet from 'helmet';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { isKnownRoute, prerenderedFile, redirectOf } from '@tc/domain/routes';
import type { Config } from './config.ts';
import { DASHBOARD_PATH, type Dashboard } from './dashboard.ts';
import { calendarRouter } from './routes/calendar.ts';
import { activityLogGuard } from './activity-guard.ts';
import { readOnlyKeyGuard } from './read-only-key-guard.ts';
import { addressIn } from './parse-internals/internals.ts';
import { EXPORT_PATH } from '@tc/domain/admin-tools';

import { BODY_LIMIT, inputGuard } from './input-guard.ts';
import { databaseDownHandler, errorBody, errorHandler } from './errors.ts';
import { logger, type Logger } from './logger.ts';
import type { Metrics } from './operations/metrics.ts';
import { requestLogger } from './operations/request-log.ts';
import { apiRouter } from './routes/api.ts';
import { LIVE_QUERY_PATH } from './live-query.ts';

/** What the client needs and nothing more (client/ uses no inline script, CDN or frame). */
export const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    // The site itself, its LiveQuery WebSocket included (webSocketOrigin below).
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    manifestSrc: ["'self'"],
    workerSrc: ["'self'"],
  },
};

/**
 * The WebSocket origin of the site (`wss://host` for https): CSP 3 counts a
 * same-origin ws(s) connection as 'self', older browsers only by name.
 */
export function webSocketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

/** The content security policy of the site at this public address. */
export function contentSecurityPolicy(publicUrl: string | undefined): typeof CONTENT_SECURITY_POLICY {
  const { directives } = CONTENT_SECURITY_POLICY;
  if (!publicUrl) return CONTENT_SECURITY_POLICY;
  return {
    ...CONTENT_SECURITY_POLICY,
    directives: { ...directives, connectSrc: [...directives.connectSrc, webSocketOrigin(publicUrl)] },
  };
}

export interface AppParts {
  config: Config;
  /** The site's address as browsers see it (PUBLIC_URL, else this host and port): its WebSocket is allowed. */
  publicUrl?: string;
  parseApp: RequestHandler;
  dashboard?: Pick<Dashboard, 'handlers' | 'admits'>;
  isDatabaseHealthy: () => Promise<boolean>;
  clientDir: string;
  /** Where request lines go (the process's logger unless a test captures them). */
  logger?: Logger;
  metrics?: Metrics;
  /** The server's own /api handlers, by contract call name (routes/api.ts). */
  apiHandlers?: Record<string, RequestHandler>;
  /** The iCalendar text of a calendar feed token, null for an unknown one (counted in the look-up limit). */
  calendarFeed?: (token: string, clientAddress: string) => Promise<string | null>;
  /** GET /api/users/export.csv, streamed from the database. */
  exportStudents?: RequestHandler;
}

export function createApp(parts: AppParts): express.Express {
  const { config } = parts;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(requestLogger(parts.logger ?? logger));
  if (parts.metrics) app.get('/metrics', parts.metrics.endpoint);

  // Answers of /parse and /api carry children's data: none is kept in the browser's disk
  // cache, where a logout cannot reach it (a call may loosen this for itself, as the config
  // does). First, so that the refusals below carry it too.
  app.use(['/parse', '/api'], noStore);
  // Bad input and closed Parse routes are refused before Parse or /api see them.
  app.use(['/parse', '/api'], inputGuard);
  // gzip for every text answer a browser accepts it for (the client's scripts above all).
  app.use(compression());

  // HSTS in production (always behind HTTPS) and wherever the site is reached over HTTPS;
  // a development site on http:// pins nothing.
  const publicUrl = parts.publicUrl ?? config.publicUrl;
  const strictTransportSecurity =
    config.env === 'production' || (publicUrl !== undefined && new URL(publicUrl).protocol === 'https:');
  if (parts.dashboard) {
    // The dashboard's own bundle needs inline scripts and styles. What its pages may fetch
    // or post to is limited all the same (this site, where its configuration sends it), and no
    // inline event handler runs: a script slipped in through the data it shows (a name a
    // visitor typed) has fewer ways to send the operator's read-only key elsewhere.
    app.use(
      DASHBOARD_PATH,
      helmet({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", "'unsafe-inline'"],
            scriptSrcAttr: ["'none'"],
            // Its typefaces come from Google Fonts.
            styleSrc: ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
            imgSrc: ["'self'", 'data:', 'blob:'],
            fontSrc: ["'self'", 'data:', 'https://fonts.gstatic.com'],
            // Its configuration names /parse at PUBLIC_URL, which may be another origin than the page's.
            connectSrc: ["'self'", ...(publicUrl ? [new URL(publicUrl).origin] : [])],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
          },
        },
        strictTransportSecurity,
      }),
      ...parts.dashboard.handlers,
    );
  } else {
    app.use(DASHBOARD_PATH, notFound);
  }

  app.use(
    helmet({
      contentSecurityPolicy: contentSecurityPolicy(parts.publicUrl ?? config.publicUrl),
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity,
    }),
  );

  const keyHolders = { trustedAddress: addressIn(config.masterKeyIps), hasDashboardLogin: parts.dashboard?.admits };
  app.use('/parse', readOnlyKeyGuard(config.readOnlyMasterKey, keyHolders), activityLogGuard, parts.parseApp, notFound);
  if (parts.exportStudents) app.get(EXPORT_PATH, parts.exportStudents);
  app.use('/api', express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] }));
  if (parts.metrics) app.use('/api', parts.metrics.apiTimer);
  if (parts.calendarFeed) app.use('/api', calendarRouter(parts.calendarFeed));
  app.use(
    '/api',
    apiRouter(parts.isDatabaseHealthy, {
      // What the browser's Parse SDK needs: the app id is no secret (the master key never leaves).
      getParseConfig: (_req, res) => {
        res.set('Cache-Control', 'no-cache').json({ appId: config.appId, serverPath: LIVE_QUERY_PATH });
      },
      ...parts.apiHandlers,
    }),
  );

  serveClient(app, parts.clientDir);
  app.use(notFound);
  app.use(databaseDownHandler(parts.isDatabaseHealthy));
  app.use(errorHandler);
  return app;
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

const notFound: RequestHandler = (req, res) => {
  res.status(404).json(errorBody(req, ServerMessage.notFound, ErrorCode.NotFound));
};

function serveClient(app: express.Express, clientDir: string): void {
  app.use(
    express.static(clientDir, {
      index: false,
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  const pages = new PageFiles();
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/api/') || req.path.startsWith('/parse/')) return next();
    // An alias is moved for good: said in HTTP, so that bookmarks and tools learn the address.
    const target = redirectOf(req.path);
    if (target) {
      const query = req.originalUrl.indexOf('?');
      res.redirect(308, query < 0 ? target : target + req.originalUrl.slice(query));
      return;
    }
    // A public page pre-rendered by the client build, else the empty shell.
    const prerendered = prerenderedFile(req.path);
    const html =
      (prerendered && pages.read(path.join(clientDir, prerendered))) ?? pages.read(path.join(clientDir, 'index.html'));
    if (html === undefined) {
      res.status(503).type('text/plain').send('The client is not built yet: run `npm run build`.');
      return;
    }
    // Unknown paths still get the client, which shows its 404 page.
    res
      .status(isKnownRoute(req.path) ? 200 : 404)
      .setHeader('Cache-Control', 'no-cache')
      .type('html')
      .send(html);
  });
}

/** HTML files kept in memory, read again when a new build replaces them. */
class PageFiles {
  private readonly cache = new Map<string, { mtimeMs: number; html: string }>();

  read(file: string): string | undefined {
    const mtimeMs = existsSync(file) ? statSync(file).mtimeMs : undefined;
    if (mtimeMs === undefined) return undefined;
    let cached = this.cache.get(file);
    if (cached?.mtimeMs !== mtimeMs) {
      cached = { mtimeMs, html: readFileSync(file, 'utf8') };
      this.cache.set(file, cached);
    }
    return cached.html;
  }
}

// One JSON line per request, with an id that the client gets in the
// X-Request-Id header and in every error body, so that a parent's "it said
// something went wrong" can be found in the log.
//
// Only what is safe is logged: method, path without its query string (a search
// may hold an e-mail), the /api call's name, status, time, the client's address
// as the rate limits see it (req.ip, after TRUST_PROXY). Never a header (tokens,
// cookies), never a body (passwords, codes), never a calendar feed's file name.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An id a proxy in front may have set (kept when it looks like one), else a new one. */
const INCOMING_ID = /^[\w.:-]{8,64}$/;

/** The request's id, for error bodies (`requestId` beside `error` and `code`). */
export function requestIdOf(req: Request | IncomingMessage): string | undefined {
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/** A calendar feed's file name is its secret (routes/calendar.ts): whoever reads the log could follow the feed. */
const FEED_FILE = /^(\/api\/calendar\/).+$/i;

/** What a request is logged as: never a header, a body, a query string or a feed's secret. */
function logFields(req: Request, res: Response) {
  const call = res.locals?.call as string | undefined;
  return {
    method: req.method,
    path: (req.originalUrl ?? req.url).split('?')[0]!.replace(FEED_FILE, '$1…'),
    ...(call ? { call } : {}),
    status: res.statusCode,
  };
}

/**
 * Marks the answer failed when `source`, the stream it is piped from, fails (the database
 * mid-way): its status says 200, and its line would read as if the client had gone. Called
 * before the pipeline, so that it hears the failure before the answer is ended. A client
 * that goes is logged at its socket's close, before the pipeline ends `source` (with a
 * premature close, which is no failure of the server's either).
 */
export function failsTheAnswer(source: Readable, res: Response): void {
  source.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') res.locals.answerFailed = true;
  });
}

/**
 * One line per request, written when its answer has been sent (or the client has gone).
 * Written here rather than with pino-http: that makes two child loggers for every request,
 * which the site never uses, and was a seventh of a short read's CPU
 * (docs/decisions/0020-request-log.md).
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    (req as { id?: string }).id = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const started = Date.now();
    // Read now: once a client has gone, its socket no longer knows its address.
    const ip = req.ip;
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const failed = res.statusCode >= 500 || res.locals.answerFailed === true;
      // A client that went before its answer was sent is not the server's failure.
      const aborted = res.writableFinished || failed ? {} : { aborted: true };
      const line = { requestId, ...logFields(req, res), ip, ms: Date.now() - started, ...aborted };
      if (failed) logger.error(line, 'request failed');
      else logger.info(line, 'request');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}

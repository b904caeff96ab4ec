// The Express error handlers: `{error, code, requestId}`, the right status, never a stack trace.

import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, Request } from 'express';
import { CALLS, type CallSpec } from '@tc/domain/api/contract';
import { AppError, ErrorCode, httpStatusOf } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { logger } from './logger.ts';
import { requestIdOf } from './operations/request-log.ts';

interface HttpError {
  type?: string;
  status?: number;
  statusCode?: number;
  /** The text a JSON body parser could not take. */
  body?: unknown;
}

function isJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The fields a call's every failure carries beside `error` (`success:false` for two of them), by method and path. */
const DOCUMENTED_EXTRA = new Map(
  Object.values(CALLS as Record<string, CallSpec>)
    .filter((spec) => spec.failure?.extra && !spec.path.includes('{'))
    .map((spec) => [`${spec.method} ${spec.path.toLowerCase()}`, spec.failure!.extra!]),
);

/** Says a refusal's wait (a 429's), when known, as HTTP's Retry-After header. */
export function setRetryAfter(res: { set(name: string, value: string): unknown }, seconds: number | undefined): void {
  if (seconds !== undefined) res.set('Retry-After', String(seconds));
}

/** An error body: the message, its code, and the request's id to find it in the log. */
export function errorBody(req: Request, error: string, code: ErrorCode, extra: object = {}) {
  const requestId = requestIdOf(req);
  // Refused before its call ran (a body that is not JSON, say): still in the call's documented shape.
  const path = req.originalUrl.split('?')[0]!.replace(/\/+$/, '').toLowerCase();
  const documented = DOCUMENTED_EXTRA.get(`${req.method} ${path}`) ?? {};
  return { ...documented, ...extra, error, code, ...(requestId ? { requestId } : {}) };
}

/**
 * An error body written before the site's middleware runs (while it starts or stops, or for
 * a request Node itself refuses): the same shape, with an id of its own, which the answer
 * sends as its X-Request-Id header too.
 */
export function standaloneErrorBody(error: string, code: ErrorCode, extra: object = {}) {
  return { ...extra, error, code, requestId: randomUUID() };
}

/**
 * An answer to the caller's request (a rule, the session, a limit), which a route says with
 * its status; anything else is a failure of the site or its database, passed on to the error
 * handlers (503 while the database is away, else 500).
 */
export function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError && error.code !== ErrorCode.Internal && error.code !== ErrorCode.Unavailable;
}

/**
 * A database that went away (restarting, frozen) fails a request with whatever its driver
 * or Parse makes of it (an internal error, a refused connection): when the database does
 * not answer now either, the answer is 503, try again, on every path (an /api call, a
 * calendar feed, the CSV export). A client's own fault (a 4xx) is answered as it is.
 */
export function databaseDownHandler(isDatabaseHealthy: () => Promise<boolean>): ErrorRequestHandler {
  return async (error: unknown, req, res, next) => {
    const http = (error ?? {}) as HttpError;
    const status = http.status ?? http.statusCode;
    const serverFailure =
      error instanceof AppError ? error.code === ErrorCode.Internal : !(typeof status === 'number' && status < 500);
    if (res.headersSent || !serverFailure || (await isDatabaseHealthy())) return next(error);
    // Logged all the same: a fault of the site's own may come at the moment the database is away.
    logger.error(
      { requestId: requestIdOf(req), stack: error instanceof Error ? error.stack : String(error) },
      'failed while the database was unavailable',
    );
    res.status(503).json(errorBody(req, ServerMessage.databaseUnavailable, ErrorCode.Unavailable));
  };
}

export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) return next(error);
  if (error instanceof AppError) {
    res.status(httpStatusOf(error.code)).json(errorBody(req, error.message, error.code));
    return;
  }
  const http = (error ?? {}) as HttpError;
  const status = http.status ?? http.statusCode;
  if (http.type === 'entity.too.large' || status === 413) {
    res.status(413).json(errorBody(req, ServerMessage.payloadTooLarge, ErrorCode.PayloadTooLarge));
    return;
  }
  if (http.type === 'entity.parse.failed') {
    // Strict parsing takes objects and arrays only: a bare null, number or string is JSON, but not a body.
    const message = isJson(http.body) ? ServerMessage.bodyNotObject : ServerMessage.malformedJson;
    res.status(400).json(errorBody(req, message, ErrorCode.BadRequest));
    return;
  }
  // JSON in another charset than UTF-8, or compressed in a way the site does not read: said as for any body not JSON.
  if (status === 415) {
    res.status(415).json(errorBody(req, ServerMessage.jsonOnly, ErrorCode.BadRequest));
    return;
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    res.status(status).json(errorBody(req, ServerMessage.badRequest, ErrorCode.BadRequest));
    return;
  }
  logger.error(
    { requestId: requestIdOf(req), stack: error instanceof Error ? error.stack : String(error) },
    'unexpected error',
  );
  res.status(500).json(errorBody(req, ServerMessage.internal, ErrorCode.Internal));
};

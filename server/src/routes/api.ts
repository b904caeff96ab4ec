// The REST facade /api, built from the contract table (domain/src/api/contract.ts).
// Thin: read the request, run the cloud function (in this process, cloud-call.ts),
// shape the answer. Every rule lives in the cloud code, the rate limits included.

import express, { type Request, type Response, type Router } from 'express';
import { CALLS, pathParamsOf, type CallSpec } from '@tc/domain/api/contract';
import { AppError, ErrorCode, httpStatusOf } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { bearerToken } from '../bearer.ts';
import { callCloudFunction, callCloudFunctionAs, sessionUser } from '../cloud-call.ts';
import { errorBody, isRefusal, setRetryAfter } from '../errors.ts';
import { requestIdOf } from '../operations/request-log.ts';
import { apiDocs, openApiDocument } from './openapi.ts';

type Params = Record<string, unknown>;

function bodyOf(req: Request): Params {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(ErrorCode.BadRequest, ServerMessage.bodyNotObject);
  }
  return body as Params;
}

function bearer(req: Request): string {
  const token = bearerToken(req.get('authorization'));
  if (!token) throw new AppError(ErrorCode.InvalidSession, ServerMessage.sessionInvalid);
  return token;
}

/** The call's parameters: its body or query (only the names it declares), and its path parameters. */
function paramsOf(spec: CallSpec, req: Request): Params {
  const declared = Object.keys((spec.request as { properties?: object }).properties ?? {});
  let params: Params = {};
  if (spec.input === 'body') params = bodyOf(req);
  if (spec.input === 'query') {
    params = Object.fromEntries(declared.filter((name) => name in req.query).map((name) => [name, req.query[name]]));
    // A filter given twice (?grade=3&grade=4) arrives as a list: said as such, not as a bad value.
    const twice = Object.keys(params).find((name) => Array.isArray(params[name]));
    if (twice) throw new AppError(ErrorCode.BadRequest, ServerMessage.givenTwice(twice), twice);
  }
  for (const name of pathParamsOf(spec)) params[name] = req.params[name];
  return params;
}

/** Answers a failure with the call's documented status and fields, e.g. `401 {success:false, error, code}`. */
function answerFailure(req: Request, res: Response, spec: CallSpec, error: AppError): void {
  const status = error.code === ErrorCode.TooManyRequests ? 429 : (spec.failure?.status ?? httpStatusOf(error.code));
  // For the metrics: a login refused or locked out, a code not sent.
  res.locals.errorCode = error.code;
  if (status === 429) setRetryAfter(res, error.retryAfter);
  res.status(status).json(
    // The call's documented failure fields (success:false) are errorBody's to add.
    errorBody(req, error.message, error.code, error.field ? { field: error.field } : {}),
  );
}

function cloudRoute(spec: CallSpec & { fn: string }) {
  return async (req: Request, res: Response) => {
    try {
      // The session first: a caller without a live one is told so (401) before anything about their input.
      const user = spec.auth === 'none' ? undefined : await sessionUser(bearer(req));
      const result = await callCloudFunctionAs(spec.fn, paramsOf(spec, req), req.ip ?? 'unknown', user);
      if (spec.totalHeader) {
        const { items, total } = result as { items: unknown[]; total: number };
        res.set(spec.totalHeader, String(total)).json(items);
      } else {
        if (spec.headers) res.set(spec.headers);
        res.status(spec.status ?? 200).json(result);
      }
    } catch (error) {
      if (!isRefusal(error)) throw error;
      answerFailure(req, res, spec, error);
    }
  };
}

/** A handler of the server's own that only an administrator reaches (the same check as getAdminProfile's). */
// Express 5 awaits what a handler returns; the typings (of Express 4) say void.
type Handler = (...args: Parameters<express.RequestHandler>) => void | Promise<void>;

function adminOnly(spec: CallSpec, handler: Handler): express.RequestHandler {
  return async (req, res, next) => {
    try {
      await callCloudFunction('getAdminProfile', {}, req.ip ?? 'unknown', bearer(req));
    } catch (error) {
      if (!(error instanceof AppError) || error.code === ErrorCode.Internal) throw error;
      answerFailure(req, res, spec, error);
      return;
    }
    await handler(req, res, next);
  };
}

export function apiRouter(
  isDatabaseHealthy: () => Promise<boolean>,
  extraHandlers: Record<string, express.RequestHandler> = {},
): Router {
  const api = express.Router();
  // Answered by the server itself; every other call runs its cloud function.
  const own: Record<string, express.RequestHandler> = {
    health: async (req, res) => {
      if (await isDatabaseHealthy()) res.json({ status: 'ok' });
      else
        res.status(503).json({
          status: 'unavailable',
          error: ServerMessage.databaseUnavailable,
          code: ErrorCode.Unavailable,
          requestId: requestIdOf(req),
        });
    },
    // While the site shuts down, start.ts answers 503 before this is reached.
    ready: async (req, res) => {
      if (await isDatabaseHealthy()) res.json({ status: 'ready' });
      else
        res.status(503).json({
          status: 'unavailable',
          error: ServerMessage.databaseUnavailable,
          code: ErrorCode.Unavailable,
          requestId: requestIdOf(req),
        });
    },
    ...extraHandlers,
  };

  api.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  api.use('/docs', apiDocs());

  for (const [name, spec] of Object.entries(CALLS as Record<string, CallSpec>)) {
    const route = spec.path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1');
    const method = spec.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const ownHandler = own[name];
    const handler = spec.fn
      ? cloudRoute({ ...spec, fn: spec.fn })
      : ownHandler && (spec.auth === 'admin' ? adminOnly(spec, ownHandler) : ownHandler);
    if (!handler) throw new Error(`the call ${name} has neither a cloud function nor a handler of the server`);
    if (!spec.fn && spec.auth === 'student') throw new Error(`the server's own call ${name} cannot check a student`);
    // The call's name, for the request log and the metrics.
    const named: express.RequestHandler = (_req, res, next) => {
      res.locals.call = name;
      next();
    };
    api[method](route, named, handler);
  }

  api.use((req, res) => {
    res.status(404).json(errorBody(req, ServerMessage.notFound, ErrorCode.NotFound));
  });

  return api;
}

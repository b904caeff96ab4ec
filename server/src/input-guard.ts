// Bad input stops at the edge (never a 500 for bad input): on
// /api and /parse, a body on a read (GET, HEAD, OPTIONS), bodies and query strings with control characters (a NUL
// byte, which PostgreSQL refuses), text with a lone UTF-16 surrogate (which
// PostgreSQL's jsonb refuses) or JSON nested deeper than any call needs (it
// overflowed the stack in Parse's parameter parsing) get 400, and the Parse
// routes the site never uses from a browser are closed, however their path is
// spelled and whether or not they come inside a batch. A cloud function over
// /parse takes plain JSON only (a Parse-typed value without its class threw in
// Parse's parameter parsing), and a batch is a list of requests and nothing else
// (a transaction that failed, or a path spelled `/batch/`, ended in a 500).

import path from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { BODY_LIMIT_BYTES } from '@tc/domain/constants';
import { ErrorCode } from '@tc/domain/errors';
import { hasStrayControl } from '@tc/domain/plain-text';
import { ServerMessage } from '@tc/domain/server-messages';
import { errorBody } from './errors.ts';

export const BODY_LIMIT = BODY_LIMIT_BYTES;
/** The deepest JSON a call of the site sends is 3 levels (a batch of a query); 20 leaves room. */
export const MAX_JSON_DEPTH = 20;
/**
 * Fields that carry a file's text (a marks CSV): its other control characters are the
 * file's, and its reader shows each line that has one as that row's error
 * (cloud/src/assessments/marks-csv.ts). A NUL byte (a binary file, which PostgreSQL
 * would refuse) is still refused here.
 */
const FILE_TEXT_FIELDS = new Set(['csv']);
// eslint-disable-next-line no-control-regex -- finding it is the point
const NUL = /\u0000/;
/** Half of a UTF-16 pair without its other half: no character at all. */
const LONE_SURROGATE = /\p{Cs}/u;
/** A cloud function's path under /parse. */
const FUNCTION_PATH = /^\/functions\//;

/**
 * Parse routes no client of the site needs. Logins go through the cloud
 * functions (which count failures), sessions are made by logging in, password
 * resets by e-mailed code, and `upgradeToRevocableSession` answered a student
 * token with a 500 and 31 log lines.
 */
const CLOSED = [
  /^\/login$/,
  /^\/loginas$/,
  /^\/verifypassword$/,
  /^\/challenge$/,
  /^\/upgradetorevocablesession$/,
  /^\/requestpasswordreset$/,
  /^\/verificationemailrequest$/,
  /^\/apps(\/|$)/,
  /^\/batch$/,
];
const CLOSED_UNLESS_READ = [/^\/sessions(\/|$)/];

/** A Parse path as Parse's routers would finally match it: decoded, dot segments resolved, lower case, without `/parse`. */
export function normalizeParsePath(raw: string): string {
  let p = raw.split('?')[0]!;
  for (let i = 0; i < 3; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(p);
    } catch {
      break;
    }
    if (decoded === p) break;
    p = decoded;
  }
  p =
    path.posix
      .normalize(`/${p.replace(/\\/g, '/')}`)
      .toLowerCase()
      .replace(/\/+$/, '') || '/';
  if (p === '/parse') return '/';
  return p.startsWith('/parse/') ? p.slice('/parse'.length) : p;
}

/** Whether a route is closed to clients, by its path as normalizeParsePath gives it. */
function isClosed(method: string, p: string, inBatch: boolean): boolean {
  if (CLOSED.some((pattern) => pattern.test(p) && (inBatch || p !== '/batch'))) return true;
  return method.toUpperCase() !== 'GET' && CLOSED_UNLESS_READ.some((pattern) => pattern.test(p));
}

type JsonProblem = 'depth' | 'control' | 'unicode' | 'typed';

function textProblem(text: string, fileText = false): JsonProblem | undefined {
  if (fileText ? NUL.test(text) : hasStrayControl(text)) return 'control';
  if (LONE_SURROGATE.test(text)) return 'unicode';
  return undefined;
}

/**
 * The first problem of a parsed JSON value: too deep, a string with a control
 * character (a file's text field: a NUL) or a lone surrogate, or (with `plain`) a
 * Parse-typed value (`__type`).
 */
export function jsonProblem(value: unknown, plain = false): JsonProblem | undefined {
  const stack: Array<[unknown, number, boolean]> = [[value, 1, false]];
  while (stack.length) {
    const [item, depth, fileText] = stack.pop()!;
    if (typeof item === 'string') {
      const problem = textProblem(item, fileText);
      if (problem) return problem;
    } else if (item && typeof item === 'object') {
      if (depth > MAX_JSON_DEPTH) return 'depth';
      for (const [key, child] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return problem;
        if (plain && key === '__type') return 'typed';
        stack.push([child, depth + 1, depth === 1 && !Array.isArray(item) && FILE_TEXT_FIELDS.has(key)]);
      }
    }
  }
  return undefined;
}

const PROBLEM_MESSAGE: Record<JsonProblem, string> = {
  depth: ServerMessage.tooDeep,
  control: ServerMessage.controlCharacter,
  unicode: ServerMessage.notUnicode,
  typed: ServerMessage.typedParameter,
};

/** A refusal as every other error is written: `{error, code, requestId}`. */
function refuse(req: Request, res: Response, status: number, error: string, code: ErrorCode): void {
  res.status(status).json(errorBody(req, error, code));
}

// Parse reads every body as JSON whatever its type (its SDK sends text/plain), strictly: objects and arrays only.
const parseBody = express.json({ limit: BODY_LIMIT, strict: true, type: () => true });
const apiBody = express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] });
// A call's body of another type is read (its size counts: 413 over the limit) and refused.
const otherBody = express.raw({ limit: BODY_LIMIT, type: () => true });

/**
 * The body as a call reads it: JSON, or none. A body of another type (a form, text) is
 * refused with 415 rather than read as no body, which answered a PUT with 200 and
 * nothing changed. (Parse's own routes read text/plain as JSON, as its SDK sends it.)
 */
const readBody: RequestHandler = (req, res, next) =>
  apiBody(req, res, (error?: unknown) => {
    if (error || req.body !== undefined) return next(error);
    otherBody(req, res, (otherError?: unknown) => {
      if (otherError) return next(otherError);
      const sent = Buffer.isBuffer(req.body) && req.body.length > 0;
      req.body = undefined;
      if (sent) return refuse(req, res, 415, ServerMessage.jsonOnly, ErrorCode.BadRequest);
      next();
    });
  });

/** Whatever a request sends, as bytes (a read's chunked body, to see whether it holds anything). */
const readRawBody = express.raw({ type: () => true, limit: BODY_LIMIT });

/** Mounted at /parse and /api. */
export const inputGuard: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  const isParse = req.baseUrl === '/parse';
  const [rawPath, rawQuery = ''] = req.url.split(/\?(.*)/s);
  let query: string;
  let decodedPath: string;
  try {
    query = decodeURIComponent(rawQuery.replace(/\+/g, ' '));
    decodedPath = decodeURIComponent(rawPath!);
  } catch {
    return refuse(req, res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
  }
  if (hasStrayControl(query) || hasStrayControl(decodedPath)) {
    return refuse(req, res, 400, ServerMessage.controlCharacter, ErrorCode.BadRequest);
  }
  const parsePath = isParse ? normalizeParsePath(req.path) : '';
  if (isParse) {
    if (isClosed(req.method, parsePath, false))
      return refuse(req, res, 403, ServerMessage.notAvailable, ErrorCode.Forbidden);
    // Parse takes a function's parameters from the query too, decoded as Parse types: the site sends them in the body.
    if (rawQuery && FUNCTION_PATH.test(parsePath)) {
      return refuse(req, res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
    }
    // Parse reads `where` as JSON: the same depth limit applies.
    const where = req.query.where;
    if (typeof where === 'string') {
      try {
        if (jsonProblem(JSON.parse(where)) === 'depth') {
          return refuse(req, res, 400, ServerMessage.tooDeep, ErrorCode.BadRequest);
        }
      } catch {
        // Parse answers malformed JSON itself.
      }
    }
  }

  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
    // A read carries no body. Parse would read one anyway (its keys, its `where`), past every
    // check of this guard and of the read-only key's (read-only-key-guard.ts).
    if (Number(req.headers['content-length']) > 0) {
      return refuse(req, res, 400, ServerMessage.bodyOnRead, ErrorCode.BadRequest);
    }
    if (req.headers['transfer-encoding'] === undefined) return next();
    // Chunked: some proxies send a read so with nothing in it. Read it: only a body is refused.
    return readRawBody(req, res, (error?: unknown) => {
      if (error) return next(error);
      if (Buffer.isBuffer(req.body) && req.body.length > 0) {
        return refuse(req, res, 400, ServerMessage.bodyOnRead, ErrorCode.BadRequest);
      }
      // As an empty JSON body reads (the stream is spent: nothing reads it again).
      req.body = {};
      next();
    });
  }
  // Whatever its type: over the limit is a 413 (also when it comes chunked, without a length).
  if (Number(req.headers['content-length']) > BODY_LIMIT_BYTES) {
    return refuse(req, res, 413, ServerMessage.payloadTooLarge, ErrorCode.PayloadTooLarge);
  }
  (isParse ? parseBody : readBody)(req, res, (error?: unknown) => {
    if (error) return next(error);
    const problem = jsonProblem(req.body, FUNCTION_PATH.test(parsePath));
    if (problem) return refuse(req, res, 400, PROBLEM_MESSAGE[problem], ErrorCode.BadRequest);
    if (parsePath === '/batch') {
      // Spelled as Parse's batch handler wants it (it refuses `/batch/` with a 500), with requests and nothing else.
      if (rawQuery || req.path !== '/batch')
        return refuse(req, res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
      const body = req.body as { requests?: unknown } | undefined;
      const requests: unknown = body?.requests;
      if (!Array.isArray(requests) || Object.keys(body!).length !== 1) {
        return refuse(req, res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
      }
      for (const sub of requests as Array<{ method?: unknown; path?: unknown; body?: unknown }>) {
        if (!sub || typeof sub.path !== 'string' || typeof sub.method !== 'string') {
          return refuse(req, res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
        }
        const subPath = normalizeParsePath(sub.path);
        if (isClosed(sub.method, subPath, true)) {
          return refuse(req, res, 403, ServerMessage.notAvailable, ErrorCode.Forbidden);
        }
        if (FUNCTION_PATH.test(subPath) && (sub.path.includes('?') || jsonProblem(sub.body, true))) {
          return refuse(req, res, 400, ServerMessage.typedParameter, ErrorCode.BadRequest);
        }
      }
    }
    next();
  });
};

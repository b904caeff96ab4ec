// Bad input stops at the edge (never a 500 for bad input): on
// /api and /parse, bodies and query strings with control characters (a NUL
// byte, which PostgreSQL refuses) or JSON nested deeper than any call needs (it
// overflowed the stack in Parse's parameter parsing) get 400, and the Parse
// routes the site never uses from a browser are closed, however their path is
// spelled and whether or not they come inside a batch.

import path from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';

export const BODY_LIMIT = '100kb';
/** The deepest JSON a call of the site sends is 3 levels (a batch of a query); 20 leaves room. */
export const MAX_JSON_DEPTH = 20;
/** C0 controls but tab, line feed and carriage return, and DEL. */
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

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

function isClosed(method: string, parsePath: string, inBatch: boolean): boolean {
  const p = normalizeParsePath(parsePath);
  if (CLOSED.some((pattern) => pattern.test(p) && (inBatch || p !== '/batch'))) return true;
  return method.toUpperCase() !== 'GET' && CLOSED_UNLESS_READ.some((pattern) => pattern.test(p));
}

/** The first problem of a parsed JSON value: too deep, or a string with a control character. */
export function jsonProblem(value: unknown): 'depth' | 'control' | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (CONTROL_CHARACTER.test(item)) return 'control';
    } else if (item && typeof item === 'object') {
      if (depth > MAX_JSON_DEPTH) return 'depth';
      for (const [key, child] of Object.entries(item)) {
        if (CONTROL_CHARACTER.test(key)) return 'control';
        stack.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}

function refuse(res: Response, status: number, error: string, code: ErrorCode): void {
  res.status(status).json({ error, code });
}

// Parse reads every body as JSON whatever its type (its SDK sends text/plain), strictly: objects and arrays only.
const parseBody = express.json({ limit: BODY_LIMIT, strict: true, type: () => true });
const apiBody = express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] });

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
    return refuse(res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
  }
  if (CONTROL_CHARACTER.test(query) || CONTROL_CHARACTER.test(decodedPath)) {
    return refuse(res, 400, ServerMessage.controlCharacter, ErrorCode.BadRequest);
  }
  if (isParse) {
    if (isClosed(req.method, req.path, false)) return refuse(res, 403, ServerMessage.notAvailable, ErrorCode.Forbidden);
    // Parse reads `where` as JSON: the same depth limit applies.
    const where = req.query.where;
    if (typeof where === 'string') {
      try {
        if (jsonProblem(JSON.parse(where)) === 'depth') {
          return refuse(res, 400, ServerMessage.tooDeep, ErrorCode.BadRequest);
        }
      } catch {
        // Parse answers malformed JSON itself.
      }
    }
  }

  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  (isParse ? parseBody : apiBody)(req, res, (error?: unknown) => {
    if (error) return next(error);
    const problem = jsonProblem(req.body);
    if (problem === 'depth') return refuse(res, 400, ServerMessage.tooDeep, ErrorCode.BadRequest);
    if (problem === 'control') return refuse(res, 400, ServerMessage.controlCharacter, ErrorCode.BadRequest);
    if (isParse && normalizeParsePath(req.path) === '/batch') {
      if (rawQuery) return refuse(res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
      const requests: unknown = (req.body as { requests?: unknown } | undefined)?.requests;
      if (!Array.isArray(requests)) return refuse(res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
      for (const sub of requests as Array<{ method?: unknown; path?: unknown }>) {
        if (!sub || typeof sub.path !== 'string' || typeof sub.method !== 'string') {
          return refuse(res, 400, ServerMessage.badRequest, ErrorCode.BadRequest);
        }
        if (isClosed(sub.method, sub.path, true)) {
          return refuse(res, 403, ServerMessage.notAvailable, ErrorCode.Forbidden);
        }
      }
    }
    next();
  });
};

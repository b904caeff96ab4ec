// Turning domain errors into Parse errors that carry the product's codes, and
// the one way a cloud function is defined: its rate limit counted first.

import { LIMIT_OF_FUNCTION, type CallName, type CALLS } from '@tc/domain/api/contract';
import { AppError, ErrorCode, fieldOf, retryAfterSeconds } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { clientAddress } from './client-address.ts';
import type { CloudDeps } from './deps.ts';
import { parse } from './parse.ts';
import type { User } from './users/accounts.ts';

/**
 * A Parse.Error that also names the field it concerns, and for a refusal for a
 * while the seconds until a new try can pass (the /api facade and /parse pass them on).
 */
export type FieldError = InstanceType<ReturnType<typeof parse>['Error']> & { field?: string; retryAfter?: number };

export function fail(code: ErrorCode, message: string, field?: string, retryAfter?: number): never {
  const Parse = parse();
  const error: FieldError = new Parse.Error(code, message);
  const concerned = fieldOf({ code, field });
  if (concerned) error.field = concerned;
  if (retryAfter !== undefined) error.retryAfter = retryAfterSeconds(retryAfter);
  throw error;
}

/** A refusal for a while: 429 with the message, and the seconds until a new try can pass. */
export function tooManyRequests(message: string, retryAfter: number): never {
  return fail(ErrorCode.TooManyRequests, message, undefined, retryAfter);
}

export function validationFailed(message: string, field?: string): never {
  return fail(ErrorCode.Validation, message, field);
}

// PostgreSQL's and the pg driver's ways of saying the database is away for a moment.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57014', '08000', '08001', '08003', '08006']);
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|the database system is (starting up|shutting down|in recovery mode)|terminating connection|statement timeout|ECONNREFUSED|ECONNRESET/i;

/**
 * A Parse error with a code of the database's (text such as "23514" or "P0001"), or
 * caused by one (a bad value in a query, which the server's storage adapter answers
 * as Parse's INVALID_QUERY for the operators' queries: server/src/database/bad-query-values.ts):
 * the database's own refusal, passed on by Parse, a fault of the site and not of
 * the request (a 500 with the site's words; the database's go to the log).
 */
export function isDatabaseRefusal(error: unknown): boolean {
  if (!(error instanceof parse().Error)) return false;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof error.code !== 'number' || typeof cause?.code === 'string';
}

/** Whether an error means the database did not answer (restarting, frozen, timed out). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_TEXT.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

export type Params = Record<string, unknown>;

/** What a cloud function receives from Parse Server. */
export interface CloudRequest {
  params: Params;
  user?: User;
  master?: boolean;
  /** The client's address, as Parse Server saw it over HTTP; unset for in-process calls. */
  ip?: string;
  /** Set by the /api facade for its in-process calls: the address of its own client. */
  context?: Record<string, unknown>;
}

/** The cloud functions of the contract table: a function without a table entry (and so a limit group) is a type error. */
export type FunctionName = NonNullable<(typeof CALLS)[CallName]['fn']>;

type CloudFunction = (request: CloudRequest) => Promise<unknown>;
const defined = new Map<string, CloudFunction>();

/**
 * A cloud function as defineFunction made it (its limit counted first, its errors
 * mapped), for the /api facade to call in this process without going through
 * Parse's function router and the SDK's encoding. The same function answers
 * Parse's /parse/functions route.
 */
export function cloudFunction(name: string): CloudFunction {
  const fn = defined.get(name);
  if (!fn) throw new Error(`no cloud function ${name} is defined`);
  return fn;
}

/**
 * Defines a cloud function. Before the handler runs, the call is counted against
 * its limit group for the client's address. Counting here, where the operation
 * runs, means no spelling of a path (/api, /parse, batch, dot segments) passes
 * uncounted. An AppError or a Parse.Error keeps its code, message and field;
 * anything else becomes one generic error, logged without the input (which holds
 * passwords and codes).
 */
export function defineFunction<R>(
  deps: CloudDeps,
  name: FunctionName,
  handler: (request: CloudRequest) => Promise<R>,
): void {
  const Parse = parse();
  const group = LIMIT_OF_FUNCTION[name];
  if (!group) throw new Error(`cloud function ${name} has no limit group in the contract table`);
  const fn: CloudFunction = async (request) => {
    try {
      if (group !== 'none') await deps.countCall(group, clientAddress(request));
      return await handler(request);
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        console.error(`cloud function ${name}: database unavailable (${(error as Error).message})`);
        throw new Parse.Error(ErrorCode.Unavailable, ServerMessage.databaseUnavailable);
      }
      if (error instanceof Parse.Error && !isDatabaseRefusal(error)) throw error;
      if (error instanceof AppError) fail(error.code, error.message, error.field, error.retryAfter);
      console.error(`cloud function ${name} failed:`, error instanceof Error ? error.stack : error);
      throw new Parse.Error(ErrorCode.Internal, ServerMessage.internal);
    }
  };
  defined.set(name, fn);
  Parse.Cloud.define(name, fn);
}

/** A string parameter, or a 400 naming the field when it is there but not a string. */
export function optionalString(params: Params, field: string): string | undefined {
  const value = params[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') fail(ErrorCode.BadRequest, ServerMessage.mustBeString(field), field);
  return value;
}

/**
 * A whole-number parameter (a number, or a string of digits as a query sends it) from
 * `min` to `max`; `fallback` when it is absent; else a 400, naming `field` when given.
 */
export function integerParam(
  value: unknown,
  fallback: number,
  min: number,
  max: number,
  name: string,
  field?: string,
): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    fail(ErrorCode.BadRequest, ServerMessage.wholeNumber(name, min, max), field);
  return n;
}

export function requireStrings(params: Params, fields: readonly string[]): void {
  for (const field of fields) optionalString(params, field);
}

// Turning domain errors into Parse errors that carry the product's codes.

import { AppError, ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/messages';
import { parse } from './parse.ts';

export function fail(code: ErrorCode, message: string): never {
  const Parse = parse();
  throw new Parse.Error(code, message);
}

export function validationFailed(message: string): never {
  return fail(ErrorCode.Validation, message);
}

// PostgreSQL's and the pg driver's ways of saying the database is away for a moment.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57014', '08000', '08001', '08003', '08006']);
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|the database system is (starting up|shutting down|in recovery mode)|terminating connection|statement timeout|ECONNREFUSED|ECONNRESET/i;

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

/**
 * Wraps a cloud function so that an AppError or a Parse.Error keeps its code and
 * message, the database being away becomes 3503 (503: try again), and anything
 * else becomes one generic error (logged without its input).
 */
export function guarded<P, R>(name: string, handler: (request: P) => Promise<R>): (request: P) => Promise<R> {
  return async (request: P) => {
    try {
      return await handler(request);
    } catch (error) {
      const Parse = parse();
      if (isDatabaseUnavailable(error)) {
        console.error(`cloud function ${name}: database unavailable (${(error as Error).message})`);
        throw new Parse.Error(ErrorCode.Unavailable, ServerMessage.databaseUnavailable);
      }
      if (error instanceof Parse.Error) throw error;
      if (error instanceof AppError) throw new Parse.Error(error.code, error.message);
      console.error(`cloud function ${name} failed:`, error instanceof Error ? error.stack : error);
      throw new Parse.Error(ErrorCode.Internal, ServerMessage.internal);
    }
  };
}

/** A string parameter, or a 400 naming the field when it is there but not a string. */
export function optionalString(params: Record<string, unknown>, field: string): string | undefined {
  const value = params[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') fail(ErrorCode.BadRequest, ServerMessage.mustBeString(field));
  return value;
}

export function requireStrings(params: Record<string, unknown>, fields: readonly string[]): void {
  for (const field of fields) optionalString(params, field);
}

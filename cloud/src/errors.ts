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

/**
 * Wraps a cloud function so that an AppError or a Parse.Error keeps its code and
 * message, and anything else becomes one generic error (logged without its input).
 */
export function guarded<P, R>(name: string, handler: (request: P) => Promise<R>): (request: P) => Promise<R> {
  return async (request: P) => {
    try {
      return await handler(request);
    } catch (error) {
      const Parse = parse();
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

// One function turns a failed call into the toast text (house style: "one client
// function that turns an error into the toast text").

import type { ApiErrorBody, ApiResult } from './api.ts';

/** The server's `error` text when it sent one, else the screen's fallback text. */
export function errorText(result: ApiResult<unknown>, fallback: string): string {
  const body = result.data as ApiErrorBody | null;
  if (body && typeof body === 'object' && typeof body.error === 'string' && body.error.trim()) {
    return body.error;
  }
  return fallback;
}

/** The facade's error code, if the body carried one. */
export function errorCode(result: ApiResult<unknown>): number | undefined {
  const body = result.data as ApiErrorBody | null;
  return body && typeof body === 'object' && typeof body.code === 'number' ? body.code : undefined;
}

// Parse Server's logger, minus the stack traces of refused requests.
//
// Parse logs every request it refuses (a denied class, a wrong password, an
// expired session) at `error` level with the error's stack, although the client
// has already had its 4xx answer. Anyone could fill the log that way, and the
// real faults drown. Those refusals go to `info`, below the `warn` level the
// server logs at; Parse's internal errors stay errors, and Cloud Code logs its
// own unexpected failures (cloud/src/errors.ts).

import Parse from 'parse/node';
import { WinstonLoggerAdapter } from './parse-internals/internals.ts';

/**
 * A Parse.Error answered to the client. INTERNAL_SERVER_ERROR is a fault of the server;
 * system and driver errors carry string codes.
 */
export function isRefusedRequest(value: unknown): boolean {
  if (!(value instanceof Error)) return false;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'number' && code !== Parse.Error.INTERNAL_SERVER_ERROR;
}

/**
 * Parse's "sanitized" refusals (a route outside routeAllowList, a denied class)
 * are logged as a bare string before the client gets "Permission denied".
 */
const SANITIZED_REFUSAL =
  /^(Route not allowed by routeAllowList|Permission denied|Clients aren't allowed|This user is not allowed)/;

/**
 * LiveQuery's refusals (a subscription the cloud code or the class permissions
 * refused, an event a socket's ended session may no longer see), logged as one
 * string that also holds the socket's session token: never at a level the site logs.
 */
const LIVE_QUERY_REFUSAL = /^Failed running (beforeConnect|beforeSubscribe|afterLiveQueryEvent)\b/;

/**
 * LiveQuery's answers to a malformed message on its socket, which anyone can open
 * without logging in. Each held the message itself (up to 64 kB) at `error`: a loop
 * of junk frames filled the log with text of the sender's choosing.
 */
const LIVE_QUERY_BAD_MESSAGE = /^(unable to parse request|Connect message error|Get unknown operation)/;

/** A socket that closed before it said connect (one a deadline closed, say): nothing went wrong. */
const LIVE_QUERY_UNCONNECTED_CLOSE = /^Can not find client undefined on disconnect$/;

export class RefusalsAsInfoLogger extends WinstonLoggerAdapter {
  log(level: string, message: unknown, ...meta: unknown[]): unknown {
    const refused =
      level === 'error' &&
      ([message, ...meta].some(isRefusedRequest) ||
        (typeof message === 'string' &&
          (SANITIZED_REFUSAL.test(message) ||
            LIVE_QUERY_REFUSAL.test(message) ||
            LIVE_QUERY_BAD_MESSAGE.test(message) ||
            LIVE_QUERY_UNCONNECTED_CLOSE.test(message))));
    return super.log(refused ? 'info' : level, message, ...meta);
  }
}

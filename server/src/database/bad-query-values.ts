// A query Parse passes to PostgreSQL as it was written can carry a value the
// database refuses: a regex that does not compile, a date or a number that is
// not one, a negative limit, a text search with no term. Parse takes the
// database's refusal for a fault of its own and answers 500 with a logged
// stack trace. Such queries come from the operators (Parse Dashboard's
// read-only master key) and from the full master key only, as /parse is closed
// to clients (docs/decisions/0010-parse-rest-closed.md), and they are theirs to
// fix: they get Parse's INVALID_QUERY (400) with PostgreSQL's own words. The same
// error inside a cloud function or an /api call stays a 500 with its stack logged.

import { ParseServerSdk as Parse } from '../parse-internals/internals.ts';

/**
 * PostgreSQL's codes for a bad value in a query: its whole class 22 "data exception",
 * and the syntax error of a text search's terms (any other syntax error is Parse's own).
 */
function isBadQueryValue(error: unknown): error is Error & { code: string } {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') return false;
  return code.startsWith('22') || (code === '42601' && typeof message === 'string' && /tsquery/.test(message));
}

/** The adapter's reads; a write's refusals are Parse's own to report. */
const READS = ['find', 'count', 'distinct', 'aggregate'] as const;

/** Makes the adapter's reads answer a value PostgreSQL refuses with INVALID_QUERY, not as an internal error. */
export function refuseBadQueryValues<Adapter extends object>(adapter: Adapter): Adapter {
  const methods = adapter as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of READS) {
    const read = methods[name];
    if (typeof read !== 'function') throw new Error(`Parse's storage adapter has no ${name}()`);
    methods[name] = async (...args) => {
      try {
        return await read.apply(adapter, args);
      } catch (error) {
        if (!isBadQueryValue(error)) throw error;
        // The database's error stays its cause: the cloud code's own queries never take a
        // value unchecked, so there it is the site's fault (cloud/src/errors.ts isDatabaseRefusal).
        throw Object.assign(new Parse.Error(Parse.Error.INVALID_QUERY, error.message), { cause: error });
      }
    };
  }
  return adapter;
}

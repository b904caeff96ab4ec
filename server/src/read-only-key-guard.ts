// The read-only master key (Parse Dashboard's, in an operator's browser) reads
// every class, and Parse applies no class permission or protected field to a
// master key, read-only or not. Two classes hold keys rather than data: _Session
// (the token of every signed-in student and admin: with an admin's, the whole
// site) and CalendarFeed (each feed's secret address). They are refused to that
// key here, by path, inside a batch, and as a sub-query of another class's query
// ($inQuery, $select), where a regex on a token would read it a letter at a time,
// however the key comes (header, body or Basic authorization) and however the class
// is spelled (JSON escapes).
// Nor does the key read anything on its own: only beside a live Parse Dashboard
// login whose account may still use it (dashboard.ts admits), or from the addresses
// the full master key is taken from (MASTER_KEY_IPS, the loopback by default). A
// copy of the key outlives neither the login nor an admin's removal.
// The full master key (this process and MASTER_KEY_IPS only) is not limited.

import type { Request, RequestHandler } from 'express';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { sameSecret } from './same-secret.ts';

/** A class of keys, by name or by Parse's /sessions route, anywhere in a request (case as Parse ignores it). */
const KEY_CLASSES = /_session|\/sessions\b|calendarfeed/i;

/** The key of `Authorization: Basic base64(appId:key)`, which Parse takes as a master key too. */
function basicAuthKey(header: string | undefined): string | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const credentials = Buffer.from(header.slice('basic '.length), 'base64').toString().split(':');
  return credentials.length === 2 ? credentials[1] : undefined;
}

/**
 * JSON's escapes undone (`\u005FSession` is `_Session` once Parse reads a `where`),
 * so that a class is found however its name is spelled inside a JSON value. Once,
 * as Parse reads a value once.
 */
function unescapeJson(text: string): string {
  return text
    .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\\//g, '/');
}

export interface KeyHolders {
  /** Where the key reads without a dashboard login: the full master key's addresses. */
  trustedAddress(ip: string): boolean;
  /** A live dashboard login that may still use the dashboard (none when it is off). */
  hasDashboardLogin?(req: Request): Promise<boolean>;
}

export function readOnlyKeyGuard(readOnlyMasterKey: string, holders: KeyHolders): RequestHandler {
  const isReadOnlyKey = (value: unknown) => sameSecret(value, readOnlyMasterKey);

  return async (req, res, next) => {
    const body: unknown = req.body;
    const bodyKey = body && typeof body === 'object' ? (body as { _MasterKey?: unknown })._MasterKey : undefined;
    if (![req.get('x-parse-master-key'), bodyKey, basicAuthKey(req.get('authorization'))].some(isReadOnlyKey)) {
      return next();
    }
    let url: string;
    try {
      url = decodeURIComponent(req.originalUrl);
    } catch {
      url = req.originalUrl;
    }
    const asked = unescapeJson(`${url}\n${body === undefined ? '' : JSON.stringify(body)}`);
    if (KEY_CLASSES.test(asked)) {
      res.status(403).json({ code: ErrorCode.Forbidden, error: ServerMessage.keysNotReadOnly });
      return;
    }
    try {
      if (!holders.trustedAddress(req.ip ?? '') && !(await holders.hasDashboardLogin?.(req))) {
        res.status(403).json({ code: ErrorCode.Forbidden, error: ServerMessage.readOnlyKeyNeedsLogin });
        return;
      }
    } catch (error) {
      next(error);
      return;
    }
    next();
  };
}

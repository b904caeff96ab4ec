// The read-only master key (Parse Dashboard's, in an operator's browser) reads
// every class, and Parse applies no class permission or protected field to a
// master key, read-only or not. Two classes hold keys rather than data: _Session
// (the token of every signed-in student and admin: with an admin's, the whole
// site) and CalendarFeed (each feed's secret address). They are refused to that
// key here, by path, inside a batch, and as a sub-query of another class's query
// ($inQuery, $select), where a regex on a token would read it a letter at a time.
// The full master key (this process and MASTER_KEY_IPS only) is not limited.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';

/** A class of keys, by name or by Parse's /sessions route, anywhere in a request (case as Parse ignores it). */
const KEY_CLASSES = /_session|\/sessions\b|calendarfeed/i;

const digest = (value: string) => createHash('sha256').update(value).digest();

export function readOnlyKeyGuard(readOnlyMasterKey: string): RequestHandler {
  const expected = digest(readOnlyMasterKey);
  const isReadOnlyKey = (value: unknown) => typeof value === 'string' && timingSafeEqual(digest(value), expected);

  return (req, res, next) => {
    const body: unknown = req.body;
    const bodyKey = body && typeof body === 'object' ? (body as { _MasterKey?: unknown })._MasterKey : undefined;
    if (!isReadOnlyKey(req.get('x-parse-master-key')) && !isReadOnlyKey(bodyKey)) return next();
    let url: string;
    try {
      url = decodeURIComponent(req.originalUrl);
    } catch {
      url = req.originalUrl;
    }
    if (KEY_CLASSES.test(url) || (body !== undefined && KEY_CLASSES.test(JSON.stringify(body)))) {
      res.status(403).json({ code: ErrorCode.Forbidden, error: ServerMessage.keysNotReadOnly });
      return;
    }
    next();
  };
}

// The activity log is append-only for the master key too: Parse's
// purge and schema deletion, which skip the cloud code's triggers, are refused
// here with a clear 403 before Parse (and the database's triggers) would fail them.

import type { RequestHandler } from 'express';
import { ErrorCode } from '@tc/domain/errors';
import { AdminToolsMessage } from '@tc/domain/admin-tools-messages';

const GUARDED = /^\/(purge|schemas)\/ActivityEntry\/?$/i;

export const activityLogGuard: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' && GUARDED.test(decodeURIComponent(req.path))) {
    res.status(403).json({ code: ErrorCode.Forbidden, error: AdminToolsMessage.logImmutable });
    return;
  }
  next();
};

// The one Express error handler: `{error, code}`, the right status, never a stack trace.

import type { ErrorRequestHandler } from 'express';
import { AppError, ErrorCode, httpStatusOf } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/messages';

interface HttpError {
  type?: string;
  status?: number;
  statusCode?: number;
}

export const errorHandler: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (res.headersSent) return next(error);
  if (error instanceof AppError) {
    res.status(httpStatusOf(error.code)).json({ error: error.message, code: error.code });
    return;
  }
  const http = (error ?? {}) as HttpError;
  const status = http.status ?? http.statusCode;
  if (http.type === 'entity.too.large' || status === 413) {
    res.status(413).json({ error: ServerMessage.payloadTooLarge, code: ErrorCode.PayloadTooLarge });
    return;
  }
  if (http.type === 'entity.parse.failed') {
    res.status(400).json({ error: ServerMessage.malformedJson, code: ErrorCode.BadRequest });
    return;
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    res.status(status).json({ error: ServerMessage.badRequest, code: ErrorCode.BadRequest });
    return;
  }
  console.error('unexpected error:', error instanceof Error ? error.stack : error);
  res.status(500).json({ error: ServerMessage.internal, code: ErrorCode.Internal });
};

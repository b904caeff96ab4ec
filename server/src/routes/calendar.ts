// GET /api/calendar/{token}.ics: a student's timetable as an iCalendar feed for
// calendar apps, which cannot log in and want text/calendar, not JSON; so it sits
// beside the JSON facade rather than in its table (documented in openapi.ts).

import express, { type Router } from 'express';
import { countedAddress } from '@tc/cloud/client-address';
import { AppError, ErrorCode, httpStatusOf } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { errorBody, setRetryAfter } from '../errors.ts';

export const CALENDAR_PATH = '/api/calendar/{token}.ics';

export function calendarRouter(feedOf: (token: string, clientAddress: string) => Promise<string | null>): Router {
  const router = express.Router();
  router.get('/calendar/:file', async (req, res) => {
    const token = /^(.+)\.ics$/.exec(req.params.file)?.[1] ?? '';
    try {
      const feed = await feedOf(token, countedAddress(req.ip ?? 'unknown'));
      if (feed === null) {
        res.status(404).json(errorBody(req, ServerMessage.notFound, ErrorCode.NotFound));
        return;
      }
      res
        .type('text/calendar; charset=utf-8')
        .setHeader('Content-Disposition', 'inline; filename="classes.ics"')
        // The address is the secret: keep it and the answer out of caches and referrers.
        .setHeader('Cache-Control', 'no-store')
        .setHeader('Referrer-Policy', 'no-referrer')
        .send(feed);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      setRetryAfter(res, error.retryAfter);
      res.status(httpStatusOf(error.code)).json(errorBody(req, error.message, error.code));
    }
  });
  return router;
}

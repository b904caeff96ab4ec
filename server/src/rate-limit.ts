// Per-IP limits on every sensitive group of calls (product.md §4), on every path
// that reaches them: the /api facade and the Parse REST paths behind it,
// requests from 127.0.0.1 included. With REDIS_URL the counts are shared by
// every instance.

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/messages';

/** Paths in lower case, without trailing slash. */
export const LIMITED_GROUPS = {
  'send-code': [
    '/api/send-sms',
    '/api/send-email-otp',
    '/parse/functions/sendregistrationcode',
    '/parse/functions/sendresetcode',
  ],
  'check-code': [
    '/api/register',
    '/api/users/update-password',
    '/parse/functions/registerstudent',
    '/parse/functions/resetpassword',
  ],
  login: [
    '/api/student/login',
    '/api/admin/login',
    '/parse/login',
    '/parse/verifypassword',
    '/parse/challenge',
    '/parse/functions/loginstudent',
    '/parse/functions/loginadmin',
  ],
  lookup: ['/api/check-email', '/api/check-mobile', '/parse/functions/checkemail', '/parse/functions/checkmobile'],
} as const;

type Group = keyof typeof LIMITED_GROUPS;

function normalizePath(raw: string): string {
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // keep it as it came
  }
  return (
    path
      .toLowerCase()
      .replace(/\/{2,}/g, '/')
      .replace(/\/+$/, '') || '/'
  );
}

export function groupOf(path: string): Group | undefined {
  const normalized = normalizePath(path);
  return (Object.keys(LIMITED_GROUPS) as Group[]).find((group) =>
    (LIMITED_GROUPS[group] as readonly string[]).includes(normalized),
  );
}

export interface RateLimits {
  middleware: RequestHandler[];
  close(): Promise<void>;
}

export async function createRateLimits(options: {
  max: number;
  windowSeconds: number;
  redisUrl?: string;
}): Promise<RateLimits> {
  let redis: ReturnType<typeof createClient> | undefined;
  if (options.redisUrl) {
    redis = createClient({ url: options.redisUrl });
    redis.on('error', (error) => console.error('redis:', error.message));
    await redis.connect();
  }
  const storeFor = (group: string): Store | undefined =>
    redis
      ? new RedisStore({
          prefix: `rl:${group}:`,
          sendCommand: (...args: string[]) => redis!.sendCommand(args),
        })
      : undefined;

  const limiters = Object.fromEntries(
    (Object.keys(LIMITED_GROUPS) as Group[]).map((group) => [
      group,
      rateLimit({
        windowMs: options.windowSeconds * 1000,
        limit: options.max,
        standardHeaders: 'draft-7',
        legacyHeaders: false,
        store: storeFor(group),
        validate: { trustProxy: false, xForwardedForHeader: false },
        handler: (_req, res) => {
          res.status(429).json({ error: ServerMessage.tooManyRequests, code: ErrorCode.TooManyRequests });
        },
      }),
    ]),
  ) as unknown as Record<Group, RequestHandler>;

  const byPath: RequestHandler = (req, res, next) => {
    const group = groupOf(req.path);
    if (group) return limiters[group](req, res, next);
    next();
  };

  // A Parse batch can carry calls of any group: count each of them.
  const batchBody = express.json({ type: () => true, limit: '100kb' });
  const batch: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    if (normalizePath(req.path) !== '/parse/batch') return next();
    batchBody(req, res, (error?: unknown) => {
      if (error) return next(error);
      const requests: unknown = (req.body as { requests?: unknown })?.requests;
      const groups = Array.isArray(requests)
        ? requests
            .map((r) => (typeof r?.path === 'string' ? groupOf(r.path.replace(/^\/parse|^/, '/parse')) : undefined))
            .filter((g): g is Group => Boolean(g))
        : [];
      const run = (i: number): void => {
        if (i >= groups.length) return next();
        limiters[groups[i]!](req, res, () => run(i + 1));
      };
      run(0);
    });
  };

  return {
    middleware: [byPath, batch],
    close: async () => {
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}

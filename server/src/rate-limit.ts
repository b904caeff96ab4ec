// Per-client-address limits on every sensitive group of calls: sending codes,
// checking codes, logging in and existence look-ups. The cloud code counts each
// call where it runs (cloud/src/errors.ts defineFunction), so a request reaches
// an operation only past its counter, whatever path or batch carried it, and
// requests from 127.0.0.1 count too. With REDIS_URL the counts are shared by
// every instance (and kept in memory meanwhile should Redis fail).

import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { connectRedis } from './redis.ts';
import { LIMIT_GROUPS, type LimitGroup } from '@tc/domain/api/contract';
import { AppError, ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { logger } from './logger.ts';

export type CountedGroup = Exclude<LimitGroup, 'none'>;

/**
 * Fetches of one calendar feed an hour: calendar apps poll every few minutes at most (Apple's
 * shortest setting is 5), from a few devices; a leaked address fetched in a loop is not served.
 */
export const FEED_FETCHES_PER_HOUR = 120;

export interface CallLimits {
  countCall(group: CountedGroup, clientAddress: string): Promise<void>;
  countFeedFetch(token: string): Promise<void>;
  close(): Promise<void>;
}

export async function createCallLimits(options: {
  max: number;
  windowSeconds: number;
  redisUrl?: string;
}): Promise<CallLimits> {
  const redis = options.redisUrl
    ? await connectRedis(options.redisUrl, (message) => logger.error({ error: message }, 'redis'))
    : undefined;

  const limiterFor = (group: CountedGroup | 'feed'): RateLimiterAbstract => {
    const settings =
      group === 'feed'
        ? { keyPrefix: 'rl:feed', points: FEED_FETCHES_PER_HOUR, duration: 3600 }
        : { keyPrefix: `rl:${group}`, points: options.max, duration: options.windowSeconds };
    const memory = new RateLimiterMemory(settings);
    return redis
      ? new RateLimiterRedis({ ...settings, storeClient: redis, useRedisPackage: true, insuranceLimiter: memory })
      : memory;
  };
  const counted = LIMIT_GROUPS.filter((group): group is CountedGroup => group !== 'none');
  const limiters = new Map(counted.map((group) => [group, limiterFor(group)]));
  const feeds = limiterFor('feed');

  return {
    async countCall(group, clientAddress) {
      const limiter = limiters.get(group);
      if (!limiter) throw new Error(`unknown limit group ${group}`);
      await consume(limiter, clientAddress);
    },
    countFeedFetch: (token) => consume(feeds, token),
    close: async () => {
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}

/** One point of `key`, or the AppError(TooManyRequests) that says when to come back. */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) {
      throw new AppError(
        ErrorCode.TooManyRequests,
        ServerMessage.tooManyRequests,
        undefined,
        refusal.msBeforeNext / 1000,
      );
    }
    throw refusal;
  }
}

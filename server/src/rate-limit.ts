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

export interface CallLimits {
  countCall(group: CountedGroup, clientAddress: string): Promise<void>;
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

  const limiterFor = (group: CountedGroup): RateLimiterAbstract => {
    const settings = { keyPrefix: `rl:${group}`, points: options.max, duration: options.windowSeconds };
    const memory = new RateLimiterMemory(settings);
    return redis
      ? new RateLimiterRedis({ ...settings, storeClient: redis, useRedisPackage: true, insuranceLimiter: memory })
      : memory;
  };
  const counted = LIMIT_GROUPS.filter((group): group is CountedGroup => group !== 'none');
  const limiters = new Map(counted.map((group) => [group, limiterFor(group)]));

  return {
    async countCall(group, clientAddress) {
      const limiter = limiters.get(group);
      if (!limiter) throw new Error(`unknown limit group ${group}`);
      try {
        await limiter.consume(clientAddress);
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
    },
    close: async () => {
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}

// Failed-login counters (OWASP ASVS 5.0 V6.3): an attacker without the password
// cannot keep the owner out. Failures count per account AND client address: 5
// wrong from one address lock that address out of that account for 15 minutes,
// while the owner elsewhere still gets in. Across all addresses, an account
// under a spray asks every further login for an ALTCHA proof of work instead of
// locking. rate-limiter-flexible's login-protection pattern holds the counters,
// in PostgreSQL (the app's pool) or, with REDIS_URL, in Redis: every instance
// shares them.

import { createHmac } from 'node:crypto';
import type pg from 'pg';
import { createChallenge, verifySolution } from 'altcha-lib';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { logger } from './logger.ts';
import { connectRedis } from './redis.ts';
import {
  LOGIN_CHALLENGE_MAX_NUMBER,
  LOGIN_CHALLENGE_TTL_SECONDS,
  LOGIN_LOCKOUT_MINUTES,
  LOGIN_MAX_WRONG_PASSWORDS,
  LOGIN_SPRAY_THRESHOLD,
  LOGIN_SPRAY_WINDOW_SECONDS,
} from '@tc/domain/constants';
import type { LoginCheck, LoginGuard } from '@tc/cloud/deps';
import { loginSlots } from './login-slots.ts';

export interface LoginGuardOptions {
  sql?: pg.Pool;
  redisUrl?: string;
  /** Keys the ALTCHA challenges' signatures. */
  secret: string;
  /** Prefix that keeps the counters of two kinds of login apart (site, dashboard). */
  prefix: string;
  maxWrong?: number;
  lockoutSeconds?: number;
  sprayThreshold?: number;
  sprayWindowSeconds?: number;
}

export interface ServerLoginGuard extends LoginGuard {
  close(): Promise<void>;
}

type LimiterOptions = {
  keyPrefix: string;
  points: number;
  duration: number;
  blockDuration?: number;
  /** Past this many points, refusals come from memory until the window ends: no store write each. */
  inMemoryBlockOnConsumed?: number;
};

/** Counters are keyed by a keyed hash: identifiers and addresses never sit in the table in clear. */
export function hashedKey(secret: string, ...parts: string[]): string {
  return createHmac('sha256', secret).update(parts.join('\n')).digest('base64url');
}

export async function limiterFactory(options: { sql?: pg.Pool; redisUrl?: string }) {
  if (options.redisUrl) {
    const redis = await connectRedis(options.redisUrl, (message) => logger.error({ error: message }, 'redis'));
    return {
      make: (o: LimiterOptions) =>
        Promise.resolve(new RateLimiterRedis({ ...o, storeClient: redis, useRedisPackage: true })),
      // Redis drops a counter when it runs out.
      sweep: () => Promise.resolve(),
      close: async () => void (await redis.quit().catch(() => undefined)),
    };
  }
  if (options.sql) {
    const sql = options.sql;
    const tables: string[] = [];
    // Counters that have run out are deleted: each row is a keyed hash of an e-mail or a
    // mobile with an address, not to be kept longer than it counts. (The library's own
    // clean-up prepares one statement name for every table, which PostgreSQL refuses
    // for the second table on a connection; its errors are swallowed.)
    const sweep = async () => {
      for (const table of tables) await sql.query(`DELETE FROM "${table}" WHERE expire < $1`, [Date.now()]);
    };
    const sweeping = setInterval(
      () => void sweep().catch((error: unknown) => console.error('login counters:', (error as Error).message)),
      SWEEP_EVERY_MS,
    );
    sweeping.unref();
    return {
      // One table per counter, made one after the other (concurrent CREATE TABLE IF NOT EXISTS can collide).
      make: (o: LimiterOptions) =>
        new Promise<RateLimiterAbstract>((resolve, reject) => {
          const tableName = `rl_${o.keyPrefix.replace(/\W/g, '_')}`;
          const limiter: RateLimiterPostgres = new RateLimiterPostgres(
            { ...o, storeClient: sql, tableName, clearExpiredByTimeout: false },
            (error?: unknown) => {
              if (error) return reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
              tables.push(tableName);
              resolve(limiter);
            },
          );
        }),
      sweep,
      close: () => {
        clearInterval(sweeping);
        return Promise.resolve();
      },
    };
  }
  return {
    make: (o: LimiterOptions) => Promise.resolve(new RateLimiterMemory(o)),
    sweep: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/** How often counters that have run out are deleted from PostgreSQL (Redis expires its own). */
const SWEEP_EVERY_MS = 10 * 60_000;

/** How long a try counts as in flight at most (a password check takes well under a second). */
const IN_FLIGHT_SECONDS = 30;
/**
 * A try over the in-flight count waits up to 10 s in all: in this process for a slot
 * (login-slots.ts), then, with tries in flight on other instances, looking again this often.
 */
const IN_FLIGHT_PAUSE_MS = 25;
const IN_FLIGHT_MAX_WAIT_MS = 10_000;

/** rate-limiter-flexible rejects with a RateLimiterRes when points run out, with an Error when the store fails. */
function outOfPoints(error: unknown): boolean {
  return error instanceof RateLimiterRes;
}

export async function createLoginGuard(options: LoginGuardOptions): Promise<ServerLoginGuard> {
  const factory = await limiterFactory(options);
  const maxWrong = options.maxWrong ?? LOGIN_MAX_WRONG_PASSWORDS;
  const lockout = options.lockoutSeconds ?? LOGIN_LOCKOUT_MINUTES * 60;
  const sprayThreshold = options.sprayThreshold ?? LOGIN_SPRAY_THRESHOLD;
  const byAccountAndAddress = await factory.make({
    keyPrefix: `${options.prefix}_fail_account_ip`,
    points: maxWrong,
    duration: lockout,
    blockDuration: lockout,
  });
  const byAccount = await factory.make({
    keyPrefix: `${options.prefix}_fail_account`,
    points: sprayThreshold,
    duration: options.sprayWindowSeconds ?? LOGIN_SPRAY_WINDOW_SECONDS,
  });
  // The tries of an account from an address whose passwords are being checked right
  // now: each could be a wrong one, so failures and these together stay within maxWrong.
  // They expire by themselves should a process die with tries in flight.
  const inFlight = await factory.make({
    keyPrefix: `${options.prefix}_pending_account_ip`,
    points: 10_000,
    duration: IN_FLIGHT_SECONDS,
  });
  // A solved challenge is good for one login only.
  const usedProofs = await factory.make({
    keyPrefix: `${options.prefix}_used_proof`,
    points: 1,
    duration: LOGIN_CHALLENGE_TTL_SECONDS,
  });

  const key = (...parts: string[]) => hashedKey(options.secret, ...parts);

  const validProof = async (proof: unknown): Promise<boolean> => {
    if (typeof proof !== 'string' || !proof || proof.length > 2000) return false;
    let ok = false;
    try {
      ok = await verifySolution(proof, options.secret, true);
    } catch {
      return false;
    }
    if (!ok) return false;
    // Used once by its challenge, not by its text: the same solution can be written in
    // many ways (JSON spacing and order, base64 padding and spaces) that all verify.
    let challenge: unknown;
    try {
      ({ challenge } = JSON.parse(Buffer.from(proof, 'base64').toString('utf8')) as { challenge?: unknown });
    } catch {
      return false;
    }
    if (typeof challenge !== 'string') return false;
    try {
      await usedProofs.consume(key('proof', challenge));
      return true;
    } catch (error) {
      if (outOfPoints(error)) return false;
      throw error;
    }
  };

  const slots = loginSlots(maxWrong, IN_FLIGHT_SECONDS * 1000);

  /** check's counting, this process's slot taken: the counters of every instance. */
  async function reserve(account: string, pairKey: string, proof: unknown): Promise<LoginCheck> {
    for (let waited = 0; ; waited += IN_FLIGHT_PAUSE_MS) {
      const pending = await inFlight.consume(pairKey);
      let failures: number;
      try {
        failures = (await byAccountAndAddress.get(pairKey))?.consumedPoints ?? 0;
      } catch (error) {
        await inFlight.reward(pairKey, 1).catch(() => undefined);
        throw error;
      }
      if (failures < maxWrong && failures + pending.consumedPoints <= maxWrong) break;
      await inFlight.reward(pairKey, 1);
      if (failures >= maxWrong) return 'locked';
      if (waited >= IN_FLIGHT_MAX_WAIT_MS) return 'busy';
      // Tries in flight on another instance.
      await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_PAUSE_MS));
    }
    let sprayCounted = false;
    try {
      const sprayed = await byAccount.consume(key(account)).then(
        () => false,
        (error: unknown) => {
          if (outOfPoints(error)) return true;
          throw error;
        },
      );
      sprayCounted = true;
      return sprayed && !(await validProof(proof)) ? 'challenge' : 'ok';
    } catch (error) {
      // A fault of the counters' store: nothing of this try stays counted.
      await Promise.all([
        inFlight.reward(pairKey, 1),
        sprayCounted ? byAccount.reward(key(account), 1) : undefined,
      ]).catch(() => undefined);
      throw error;
    }
  }

  return {
    // A try is counted before its password is checked, atomically (a consume, not a
    // read): parallel tries, or a batch of them, cannot all pass a count of 0. While
    // as many tries are in flight as failures are still allowed, another one waits
    // (the owner's own parallel logins get in), then is refused as busy, not locked.
    // In this process it waits in memory for a slot; the counter bounds every instance.
    async check(account: string, address: string, proof?: unknown) {
      const pairKey = key(account, address);
      if (!(await slots.take(pairKey, IN_FLIGHT_MAX_WAIT_MS))) return { verdict: 'busy' as const };
      let verdict: LoginCheck | undefined;
      try {
        verdict = await reserve(account, pairKey, proof);
        return { verdict };
      } finally {
        // Kept until failed, succeeded or release when a password check may follow.
        if (verdict !== 'ok' && verdict !== 'challenge') slots.give(pairKey);
      }
    },
    async failed(account: string, address: string): Promise<void> {
      const pairKey = key(account, address);
      try {
        // The failure is counted before the try leaves the in-flight count: never fewer than there are.
        const pair = await byAccountAndAddress.consume(pairKey).catch((error: unknown) => {
          if (!outOfPoints(error)) throw error;
        });
        // The lockout runs 15 minutes from the failure that caused it.
        if (pair && pair.consumedPoints >= maxWrong) await byAccountAndAddress.block(pairKey, lockout);
      } finally {
        slots.give(pairKey);
        await inFlight.reward(pairKey, 1);
      }
    },
    async succeeded(account: string, address: string): Promise<void> {
      // The address's failures go; this try's count on the account's spray counter is
      // taken back, the others' stay (the owner getting in does not end someone else's spray).
      const pairKey = key(account, address);
      slots.give(pairKey);
      await Promise.all([
        byAccountAndAddress.delete(pairKey),
        inFlight.reward(pairKey, 1),
        byAccount.reward(key(account), 1),
      ]);
    },
    async release(account: string, address: string): Promise<void> {
      slots.give(key(account, address));
      await Promise.all([inFlight.reward(key(account, address), 1), byAccount.reward(key(account), 1)]);
    },
    async forgive(account: string, address: string): Promise<void> {
      await byAccountAndAddress.delete(key(account, address));
    },
    async challenge() {
      return createChallenge({
        hmacKey: options.secret,
        maxnumber: LOGIN_CHALLENGE_MAX_NUMBER,
        expires: new Date(Date.now() + LOGIN_CHALLENGE_TTL_SECONDS * 1000),
      });
    },
    close: factory.close,
  };
}

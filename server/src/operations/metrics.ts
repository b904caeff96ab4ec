// Prometheus metrics at /metrics (prom-client), for an operator's dashboards and
// alerts. Reachable from the loopback, or from anywhere with
// `Authorization: Bearer $METRICS_TOKEN`. Each site has its own registry (tests
// run several sites in one process).

import type { Request, RequestHandler, Response } from 'express';
import type pg from 'pg';
import client from 'prom-client';
import type { MailMessage, SmsMessage } from '@tc/cloud/deps';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { bearerToken } from '../bearer.ts';
import { errorBody } from '../errors.ts';
import { sameSecret } from '../same-secret.ts';

/** The /api calls that log someone in, and the channel of the calls that send a code. */
const LOGIN_CALLS = new Set(['loginStudent', 'loginAdmin']);
const CODE_CHANNEL: Record<string, 'sms' | 'email'> = { sendRegistrationCode: 'sms', sendResetCode: 'email' };

export interface Metrics {
  registry: client.Registry;
  /** Mounted on /api before the router: times each call and counts logins and codes. */
  apiTimer: RequestHandler;
  /** The /metrics endpoint. */
  endpoint: RequestHandler;
  /** Wraps a sender so that each delivery is counted by channel and outcome. */
  countDeliveries<M extends MailMessage | SmsMessage, R>(
    channel: 'sms' | 'email',
    send: (message: M) => Promise<R>,
  ): (message: M) => Promise<R>;
  /** The mail queue's depth, read at each scrape (set once the queue has started). */
  setMailQueueDepth(read: () => number | Promise<number>): void;
  /** Counts one backup, for the alert on failed ones. */
  countBackup(outcome: 'success' | 'failure'): void;
}

export interface MetricsOptions {
  /** Bearer token that opens /metrics to other addresses; unset = loopback only. */
  token: string | undefined;
  /** Connection pools to report, by name (read at each scrape). */
  pools: () => Record<string, pg.Pool | undefined>;
}

function loginOutcome(res: Response): string {
  if (res.statusCode < 400) return 'success';
  const code = res.locals.errorCode as number | undefined;
  if (code === ErrorCode.InvalidCredentials) return 'wrong_credentials';
  if (code === ErrorCode.AccountLocked) return 'locked';
  if (code === ErrorCode.TooManyRequests) return 'rate_limited';
  if (res.statusCode >= 500) return 'error';
  return 'refused';
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new client.Registry();
  // Process memory and CPU, event-loop lag, handles, garbage collection.
  client.collectDefaultMetrics({ register: registry, prefix: 'tc_' });

  const requests = new client.Counter({
    name: 'tc_api_requests_total',
    help: 'Calls of the /api facade, by contract call name and HTTP status',
    labelNames: ['call', 'status'],
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'tc_api_request_duration_seconds',
    help: 'Time to answer a call of the /api facade, by contract call name',
    labelNames: ['call'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const logins = new client.Counter({
    name: 'tc_logins_total',
    help: 'Logins by kind (student, admin) and outcome (success, wrong_credentials, locked, rate_limited, refused, error)',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const codes = new client.Counter({
    name: 'tc_codes_total',
    help: 'One-time codes asked for, by channel (sms, email) and outcome (sent, failed = not delivered, refused = bad input or limits)',
    labelNames: ['channel', 'outcome'],
    registers: [registry],
  });
  const deliveries = new client.Counter({
    name: 'tc_deliveries_total',
    help: 'Messages handed to the SMS gateway or the mail server, by channel and outcome (sent, failed)',
    labelNames: ['channel', 'outcome'],
    registers: [registry],
  });
  const backups = new client.Counter({
    name: 'tc_backups_total',
    help: 'Scheduled and manual backups run by this instance, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  let readQueueDepth: () => number | Promise<number> = () => 0;
  new client.Gauge({
    name: 'tc_mail_queue_depth',
    help: 'Mails waiting in the durable queue to be sent or tried again',
    registers: [registry],
    async collect() {
      this.set(await readQueueDepth());
    },
  });
  new client.Gauge({
    name: 'tc_db_pool_connections',
    help: 'Database connections of each pool, by state (total, idle, waiting = requests waiting for one)',
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      for (const [name, pool] of Object.entries(options.pools())) {
        if (!pool) continue;
        this.set({ pool: name, state: 'total' }, pool.totalCount);
        this.set({ pool: name, state: 'idle' }, pool.idleCount);
        this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
      }
    },
  });

  const apiTimer: RequestHandler = (_req, res, next) => {
    const stop = duration.startTimer();
    res.once('finish', () => {
      const call = (res.locals.call as string | undefined) ?? 'unknown';
      stop({ call });
      requests.inc({ call, status: String(res.statusCode) });
      if (LOGIN_CALLS.has(call))
        logins.inc({ kind: call === 'loginAdmin' ? 'admin' : 'student', outcome: loginOutcome(res) });
      const channel = CODE_CHANNEL[call];
      if (channel) {
        const outcome =
          res.statusCode < 400 ? 'sent' : res.locals.errorCode === ErrorCode.DeliveryFailed ? 'failed' : 'refused';
        codes.inc({ channel, outcome });
      }
    });
    next();
  };

  const endpoint: RequestHandler = async (req: Request, res: Response) => {
    const bearer = bearerToken(req.get('authorization'));
    const allowed =
      isLoopback(req.ip) || (options.token !== undefined && bearer !== undefined && sameSecret(bearer, options.token));
    if (!allowed) {
      res.status(403).json(errorBody(req, ServerMessage.metricsForbidden, ErrorCode.Forbidden));
      return;
    }
    res.set('Content-Type', registry.contentType).send(await registry.metrics());
  };

  return {
    registry,
    apiTimer,
    endpoint,
    countDeliveries: (channel, send) => async (message) => {
      try {
        const result = await send(message);
        deliveries.inc({ channel, outcome: 'sent' });
        return result;
      } catch (error) {
        deliveries.inc({ channel, outcome: 'failed' });
        throw error;
      }
    },
    setMailQueueDepth: (read) => {
      readQueueDepth = read;
    },
    countBackup: (outcome) => backups.inc({ outcome }),
  };
}

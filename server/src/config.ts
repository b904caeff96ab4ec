// Configuration: read once from the environment (and .env),
// checked with zod. A bad value stops start-up with one line naming the variable.

import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@tc/domain/constants';
import { isValidEmail, normalizeEmail, normalizePassword, passwordProblem } from '@tc/domain/registration';
import { loadDevSecrets } from './dev-secrets.ts';
import { LOG_LEVELS } from './logger.ts';
import { vtimezoneOf } from '@tc/cloud/timetable/vtimezone';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .refine(
      (value) => {
        if (value === undefined) return true;
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be a URL (${protocols.join(' or ')})` },
    );

/** A sender as mail servers take it: `name@host`, or `Name <name@host>` (a relay refuses one without). */
const MAIL_FROM_PATTERN = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

/**
 * A time limit in milliseconds: 100 ms to 10 minutes. Past 2^31 ms Node's timers fire at
 * once, and PostgreSQL refuses an idle-in-transaction limit (twice the statement's) past 2^31.
 */
const timeoutMs = (fallback: number) => z.coerce.number().int().min(100).max(600_000).default(fallback);

const optionalText = z
  .string()
  .optional()
  .transform((value) => value || undefined);

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', ''])
    .optional()
    .transform((v) => (v === 'true' ? true : v === 'false' ? false : fallback));

const minutes = (fallback: number) => z.coerce.number().int().min(1).max(525_600).default(fallback);

/** An address or a network: 127.0.0.1, ::1, 10.0.0.0/8, fd00::/8. */
export function isAddressOrNetwork(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (!family) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

const addressList = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((v) =>
      (v?.trim() ? v : fallback)
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every(isAddressOrNetwork), 'must be a comma-separated list of addresses or networks (CIDR)');

/** The environment variables, each checked on its own. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(1337),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URI: optionalUrl(['postgres:', 'postgresql:']),
  APP_ID: optionalText.refine((v) => v === undefined || /^[\w.-]{1,100}$/.test(v), 'must be letters, digits, . _ or -'),
  MASTER_KEY: optionalText.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  READ_ONLY_MASTER_KEY: optionalText.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  MASTER_KEY_IPS: addressList('127.0.0.1,::1'),
  // The rules of the admin screens and the registration form (domain/), so that the
  // configured administrator can log in through them.
  ADMIN_EMAIL: optionalText
    .refine((v) => v === undefined || isValidEmail(v), 'must be an e-mail address')
    .transform((v) => (v === undefined ? undefined : normalizeEmail(v))),
  ADMIN_PASSWORD: optionalText
    .transform((v) => (v === undefined ? undefined : normalizePassword(v)))
    .refine(
      (v) => v === undefined || passwordProblem(v) === null,
      `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    ),
  ADMIN_NAME: optionalText,
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: optionalText.refine(
    (v) => v === undefined || MAIL_FROM_PATTERN.test(v.trim()),
    'must be an address, or a name and an address: Guided Learning <no-reply@tuition.example.com>',
  ),
  SMS_WEBHOOK_URL: optionalUrl(['http:', 'https:']),
  DASHBOARD_ENABLED: flag(true),
  DASHBOARD_USER: optionalText,
  DASHBOARD_PASSWORD: optionalText.refine(
    (v) => v === undefined || (v.length >= 12 && v.length <= 128),
    'must be 12 to 128 characters',
  ),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(600),
  // A hop count, or the proxies' addresses or networks (trusted whatever the number of hops).
  // Not `true`: Express would then believe the first X-Forwarded-For address, which the client
  // writes itself ("127.0.0.1", where the master keys are taken from, or a new address per try).
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value): boolean | number | string[] => {
      const v = value?.trim();
      if (v === undefined || v === '' || v === 'false') return false;
      if (v === 'true') return true;
      if (/^\d+$/.test(v)) return Number(v);
      return v.split(',').map((item) => item.trim());
    })
    .refine(
      (v) =>
        v !== true && (!Array.isArray(v) || v.every((item) => isAddressOrNetwork(item) || TRUST_NAMES.includes(item))),
      "must be a number of proxies or a comma-separated list of addresses or networks (CIDR), not true (it would believe any client's X-Forwarded-For)",
    ),
  CORS_ORIGINS: z
    .string()
    .optional()
    .transform((v) =>
      v?.trim()
        ? v
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean)
        : undefined,
    )
    .refine(
      (list) => list === undefined || list.every((o) => /^https?:\/\/[^/\s]+$/.test(o)),
      'must be a comma-separated list of origins like https://example.com',
    ),
  SESSION_IDLE_MINUTES_STUDENT: minutes(240),
  SESSION_MAX_HOURS_STUDENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(8760)
    .default(30 * 24),
  SESSION_IDLE_MINUTES_ADMIN: minutes(30),
  SESSION_MAX_HOURS_ADMIN: z.coerce.number().int().min(1).max(8760).default(12),
  SHUTDOWN_GRACE_S: z.coerce.number().int().min(0).max(600).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: timeoutMs(3_000),
  DATABASE_STATEMENT_TIMEOUT_MS: timeoutMs(15_000),
  HEALTH_TIMEOUT_MS: timeoutMs(1_500),
  SMTP_TIMEOUT_MS: timeoutMs(10_000),
  SMS_TIMEOUT_MS: timeoutMs(10_000),
  MAIL_RETRY_LIMIT: z.coerce.number().int().min(0).default(12),
  MAIL_RETRY_DELAY_S: z.coerce.number().int().min(1).max(86_400).default(10),
  MAIL_KEEP_TRYING_H: z.coerce.number().int().min(0).max(8760).default(168),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).default(4096),
  MAX_CONNECTIONS_PER_CLIENT: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(0).optional(),
  ),
  HEADERS_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(10),
  KEEP_ALIVE_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(5),
  REQUEST_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(30),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  METRICS_TOKEN: optionalText.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  CENTRE_TIMEZONE: z
    .string()
    .default('Asia/Kolkata')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
      } catch {
        return false;
      }
      // The calendar feed must describe it to calendar apps (a few new names are not known yet).
      return vtimezoneOf(zone) !== null;
    }, 'must be an IANA time zone such as Asia/Kolkata that calendar apps know (Europe/Kiev, not Europe/Kyiv)'),
  BACKUP_DIR: optionalText,
  BACKUP_SCHEDULE: z
    .string()
    .trim()
    .default('0 2 * * *')
    .refine((pattern) => {
      if (pattern === 'off') return true;
      try {
        new Cron(pattern, { paused: true }).stop();
        return true;
      } catch {
        return false;
      }
    }, "must be a cron pattern such as '0 2 * * *', or off"),
  BACKUP_KEEP: z.coerce.number().int().min(1).default(14),
  PASSWORD_HASH_CONCURRENCY: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(0).optional(),
  ),
});

/** The names Express accepts for trusted proxies (`loopback`, `uniquelocal` ...). */
const TRUST_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const PRODUCTION_REQUIRED = [
  'APP_ID',
  'MASTER_KEY',
  'DATABASE_URI',
  'SMTP_URL',
  'MAIL_FROM',
  'SMS_WEBHOOK_URL',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
] as const;

type Env = z.output<typeof envSchema>;

/** The rules between variables; the first one broken is reported, naming its variable. */
function checkCombinations(e: Env, ctx: z.RefinementCtx): void {
  const fail = (variable: string, message: string) => ctx.addIssue({ code: 'custom', path: [variable], message });
  if (e.NODE_ENV === 'production') {
    const missing = PRODUCTION_REQUIRED.find((name) => !e[name]);
    if (missing) return fail(missing, 'is required when NODE_ENV=production');
  }
  if (e.READ_ONLY_MASTER_KEY && e.READ_ONLY_MASTER_KEY === e.MASTER_KEY) {
    fail('READ_ONLY_MASTER_KEY', 'must differ from MASTER_KEY');
  }
}

/** The development secrets of DATA_DIR; a folder that cannot hold them, or a mistyped file, in one line. */
function devSecrets(dataDir: string) {
  try {
    return loadDevSecrets(dataDir);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: DATA_DIR ${(error as Error).message}`);
  }
}

/** The checked variables as the site uses them: defaults filled in, units converted. */
function toConfig(e: Env) {
  const dataDir = path.resolve(e.DATA_DIR);
  // Development only (dev-secrets.ts): production takes its keys from the environment.
  const secrets = e.NODE_ENV === 'production' ? undefined : devSecrets(dataDir);
  // In production every instance derives the same secondary secrets from the master key.
  const derived = (label: string) => createHmac('sha256', e.MASTER_KEY!).update(label).digest('base64url');
  const session = (idleMinutes: number, maxHours: number) => ({
    idleSeconds: idleMinutes * 60,
    maxSeconds: maxHours * 3600,
  });

  const admin = {
    email: e.ADMIN_EMAIL ?? 'admin@example.com',
    password: e.ADMIN_PASSWORD ?? secrets!.adminPassword,
    name: e.ADMIN_NAME ?? 'Administrator',
    /** Printed once: when start-up has just generated it. */
    generated: !e.ADMIN_PASSWORD && Boolean(secrets?.created),
  } as const;
  return {
    env: e.NODE_ENV,
    /** 0: any free port (the site's `port` once it listens). */
    port: e.PORT,
    /**
     * PUBLIC_URL without a trailing slash. Undefined: `http://localhost:<port>`, which
     * start.ts makes once it listens (PORT=0 picks the port then).
     */
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    dataDir,
    databaseUri: e.DATABASE_URI,
    appId: e.APP_ID ?? secrets!.appId,
    masterKey: e.MASTER_KEY ?? secrets!.masterKey,
    /** What Parse Dashboard's users browse with: reads everything, writes nothing. */
    readOnlyMasterKey: e.READ_ONLY_MASTER_KEY ?? secrets?.readOnlyMasterKey ?? derived('read-only-master-key'),
    /** Where the full master key is accepted from (loopback by default). */
    masterKeyIps: e.MASTER_KEY_IPS,
    maintenanceKey: secrets?.maintenanceKey ?? derived('maintenance'),
    cookieSecret: secrets?.cookieSecret ?? derived('cookie'),
    admin,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Guided Learning <no-reply@localhost>',
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    dashboard: {
      enabled: e.DASHBOARD_ENABLED,
      // The contract's default: the admin login (product.md §3).
      user: e.DASHBOARD_USER ?? admin.email,
      /** Unset: the admin account's password as it is now (changed on the Admins page, it changes there too). */
      password: e.DASHBOARD_PASSWORD,
    },
    redisUrl: e.REDIS_URL,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_S },
    trustProxy: e.TRUST_PROXY,
    /** Origins allowed to call /parse from a browser; undefined = the site's own (PUBLIC_URL). */
    corsOrigins: e.CORS_ORIGINS,
    sessions: {
      student: session(e.SESSION_IDLE_MINUTES_STUDENT, e.SESSION_MAX_HOURS_STUDENT),
      admin: session(e.SESSION_IDLE_MINUTES_ADMIN, e.SESSION_MAX_HOURS_ADMIN),
    },
    /** How long a stop waits for the requests in flight. */
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_S,
    timeouts: {
      databaseConnectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      databaseStatementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      healthMs: e.HEALTH_TIMEOUT_MS,
      smtpMs: e.SMTP_TIMEOUT_MS,
      smsMs: e.SMS_TIMEOUT_MS,
    },
    mailQueue: {
      retryLimit: e.MAIL_RETRY_LIMIT,
      retryDelaySeconds: e.MAIL_RETRY_DELAY_S,
      keepTryingHours: e.MAIL_KEEP_TRYING_H,
    },
    /** Password hashes at once (0 = no limit). */
    passwordHashConcurrency: e.PASSWORD_HASH_CONCURRENCY ?? availableParallelism(),
    http: {
      maxConnections: e.MAX_CONNECTIONS,
      // Behind a proxy every connection comes from the proxy: no per-client cap unless asked.
      maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT ?? (e.TRUST_PROXY === false ? 256 : 0),
      headersTimeoutMs: e.HEADERS_TIMEOUT_S * 1000,
      requestTimeoutMs: e.REQUEST_TIMEOUT_S * 1000,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_S * 1000,
    },
    logLevel: e.LOG_LEVEL,
    /** Opens /metrics beyond the loopback to `Authorization: Bearer <token>`. */
    metricsToken: e.METRICS_TOKEN,
    /** The centre's time zone: the backup schedule's, among others. */
    centreTimeZone: e.CENTRE_TIMEZONE,
    backup: {
      dir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      schedule: e.BACKUP_SCHEDULE,
      keep: e.BACKUP_KEEP,
    },
    // Every property read-only, nested ones too: the configuration is read once and never changed.
  } as const;
}

/**
 * The one schema: environment in, configuration out. Reading it generates the
 * development secrets on first use (dev-secrets.ts), never in production.
 */
const configSchema = envSchema.superRefine(checkCombinations).transform(toConfig);

export type Config = z.output<typeof configSchema>;

/** Every variable the site reads (README's configuration table and .env.example list them all). */
export const VARIABLES = Object.keys(envSchema.shape);

export class ConfigError extends Error {}

/**
 * The development admin's login, when this very command generated it (a new DATA_DIR):
 * printed once, by whichever command came first (a start, a seed, a backup or a restore);
 * a password printed at every start ends up in every log.
 */
export function newAdminLogin(config: Config): string | undefined {
  if (!config.admin.generated) return undefined;
  return `Admin login: ${config.admin.email} / ${config.admin.password} (kept in ${config.dataDir}/secrets.json, not printed again)`;
}

/** Reads and checks the configuration; throws ConfigError with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // A variable set empty (`RATE_LIMIT_MAX=` in .env, `${RATE_LIMIT_MAX:-}` in
  // docker-compose.yml) is a variable not set: it takes its default. Not NODE_ENV:
  // an empty one is a mistake, never a quiet development site.
  const given = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => name === 'NODE_ENV' || value?.trim() !== ''),
  );
  const parsed = configSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  return parsed.data;
}

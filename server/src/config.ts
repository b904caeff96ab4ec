// Configuration: read once from the environment (and .env),
// checked with zod. A bad value stops start-up with one line naming the variable.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from './logger.ts';

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

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(1337),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URI: optionalUrl(['postgres:', 'postgresql:']),
  APP_ID: optionalText.refine((v) => v === undefined || /^[\w.-]{1,100}$/.test(v), 'must be letters, digits, . _ or -'),
  MASTER_KEY: optionalText.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  READ_ONLY_MASTER_KEY: optionalText.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  MASTER_KEY_IPS: addressList('127.0.0.1,::1'),
  ADMIN_EMAIL: optionalText.refine(
    (v) => v === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
    'must be an e-mail address',
  ),
  ADMIN_PASSWORD: optionalText.refine(
    (v) => v === undefined || (v.length >= 8 && v.length <= 64),
    'must be 8 to 64 characters',
  ),
  ADMIN_NAME: optionalText,
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: optionalText,
  SMS_WEBHOOK_URL: optionalUrl(['http:', 'https:']),
  DASHBOARD_ENABLED: flag(true),
  DASHBOARD_USER: optionalText,
  DASHBOARD_PASSWORD: optionalText.refine(
    (v) => v === undefined || (v.length >= 12 && v.length <= 128),
    'must be 12 to 128 characters',
  ),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).default(600),
  // A hop count, or the proxies' addresses or networks (trusted whatever the number of hops).
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
      (v) => !Array.isArray(v) || v.every((item) => isAddressOrNetwork(item) || TRUST_NAMES.includes(item)),
      'must be a number of proxies, true, or a comma-separated list of addresses or networks (CIDR)',
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
  SESSION_IDLE_MINUTES_STUDENT: minutes(7 * 24 * 60),
  SESSION_MAX_HOURS_STUDENT: z.coerce
    .number()
    .int()
    .min(1)
    .max(8760)
    .default(30 * 24),
  SESSION_IDLE_MINUTES_ADMIN: minutes(30),
  SESSION_MAX_HOURS_ADMIN: z.coerce.number().int().min(1).max(8760).default(12),
  SHUTDOWN_GRACE_S: z.coerce.number().int().min(0).max(600).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(1_500),
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  SMS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  MAIL_RETRY_LIMIT: z.coerce.number().int().min(0).default(12),
  MAIL_RETRY_DELAY_S: z.coerce.number().int().min(1).default(10),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).default(4096),
  MAX_CONNECTIONS_PER_CLIENT: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(0).optional(),
  ),
  HEADERS_TIMEOUT_S: z.coerce.number().int().min(1).default(10),
  REQUEST_TIMEOUT_S: z.coerce.number().int().min(1).default(30),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  METRICS_TOKEN: optionalText.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
  CENTRE_TIMEZONE: z
    .string()
    .default('Asia/Kolkata')
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Asia/Kolkata'),
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
  LOG_REQUESTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

/** The names Express accepts for trusted proxies (`loopback`, `uniquelocal` ...). */
const TRUST_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

export type Env = z.input<typeof schema>;

export interface SessionPolicy {
  idleSeconds: number;
  maxSeconds: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  /** Null until the port is known (PORT=0 picks a free one). */
  publicUrl: string | undefined;
  dataDir: string;
  databaseUri: string | undefined;
  appId: string;
  masterKey: string;
  /** What Parse Dashboard's users browse with: reads everything, writes nothing. */
  readOnlyMasterKey: string;
  /** Where the full master key is accepted from (loopback by default). */
  masterKeyIps: string[];
  maintenanceKey: string;
  cookieSecret: string;
  admin: { email: string; password: string; name: string; generated: boolean };
  smtpUrl: string | undefined;
  mailFrom: string;
  smsWebhookUrl: string | undefined;
  dashboard: { enabled: boolean; user: string; password: string };
  redisUrl: string | undefined;
  rateLimit: { max: number; windowSeconds: number };
  trustProxy: boolean | number | string[];
  /** Origins allowed to call /parse from a browser; undefined = the site's own (PUBLIC_URL). */
  corsOrigins: string[] | undefined;
  sessions: { student: SessionPolicy; admin: SessionPolicy };
  /** How long a stop waits for the requests in flight. */
  shutdownGraceSeconds: number;
  timeouts: {
    databaseConnectMs: number;
    databaseStatementMs: number;
    healthMs: number;
    smtpMs: number;
    smsMs: number;
  };
  mailQueue: { retryLimit: number; retryDelaySeconds: number };
  /** Password hashes at once (0 = no limit). */
  passwordHashConcurrency: number;
  http: {
    maxConnections: number;
    maxConnectionsPerClient: number;
    headersTimeoutMs: number;
    requestTimeoutMs: number;
  };
  logLevel: LogLevel;
  /** Opens /metrics beyond the loopback to `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** The centre's time zone: the backup schedule's, among others. */
  centreTimeZone: string;
  backup: { dir: string; schedule: string; keep: number };
}

export class ConfigError extends Error {}

interface Secrets {
  appId: string;
  masterKey: string;
  readOnlyMasterKey: string;
  maintenanceKey: string;
  cookieSecret: string;
  adminPassword: string;
  dashboardPassword: string;
}

/**
 * Development keys, generated once and kept in DATA_DIR (readable by the owner
 * only). A key added since the file was written is generated and added to it.
 */
function loadSecrets(dataDir: string): Secrets & { created: boolean } {
  const file = path.join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>) : {};
  const key = () => randomBytes(32).toString('base64url');
  const secrets: Secrets = {
    appId: stored.appId ?? `tuition-${randomBytes(6).toString('hex')}`,
    masterKey: stored.masterKey ?? key(),
    readOnlyMasterKey: stored.readOnlyMasterKey ?? key(),
    maintenanceKey: stored.maintenanceKey ?? key(),
    cookieSecret: stored.cookieSecret ?? key(),
    adminPassword: stored.adminPassword ?? randomBytes(12).toString('base64url'),
    dashboardPassword: stored.dashboardPassword ?? randomBytes(15).toString('base64url'),
  };
  const changed = Object.keys(secrets).some((name) => !(name in stored));
  if (changed) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  // A file written by an older version, or copied in, may be readable by others.
  chmodSync(file, 0o600);
  return { ...secrets, created: !stored.adminPassword };
}

const PRODUCTION_REQUIRED = [
  'APP_ID',
  'MASTER_KEY',
  'DATABASE_URI',
  'SMTP_URL',
  'SMS_WEBHOOK_URL',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
] as const;

/** Reads and checks the configuration; throws ConfigError with one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production') {
    const missing = PRODUCTION_REQUIRED.find((name) => !e[name]);
    if (missing) throw new ConfigError(`Invalid configuration: ${missing} is required when NODE_ENV=production`);
    if (e.DASHBOARD_ENABLED && !e.DASHBOARD_PASSWORD) {
      throw new ConfigError(
        'Invalid configuration: DASHBOARD_PASSWORD is required when NODE_ENV=production (or set DASHBOARD_ENABLED=false)',
      );
    }
    if (e.DASHBOARD_ENABLED && e.DASHBOARD_PASSWORD === e.ADMIN_PASSWORD) {
      throw new ConfigError('Invalid configuration: DASHBOARD_PASSWORD must differ from ADMIN_PASSWORD');
    }
  }
  if (e.READ_ONLY_MASTER_KEY && e.READ_ONLY_MASTER_KEY === e.MASTER_KEY) {
    throw new ConfigError('Invalid configuration: READ_ONLY_MASTER_KEY must differ from MASTER_KEY');
  }

  const dataDir = path.resolve(e.DATA_DIR);
  const secrets = e.NODE_ENV === 'production' ? undefined : loadSecrets(dataDir);
  // In production every instance derives the same secondary secrets from the master key.
  const derived = (label: string) => createHmac('sha256', e.MASTER_KEY!).update(label).digest('base64url');

  const adminEmail = (e.ADMIN_EMAIL ?? 'admin@example.com').toLowerCase();
  const adminPassword = e.ADMIN_PASSWORD ?? secrets!.adminPassword;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    dataDir,
    databaseUri: e.DATABASE_URI,
    appId: e.APP_ID ?? secrets!.appId,
    masterKey: e.MASTER_KEY ?? secrets!.masterKey,
    readOnlyMasterKey: e.READ_ONLY_MASTER_KEY ?? secrets?.readOnlyMasterKey ?? derived('read-only-master-key'),
    masterKeyIps: e.MASTER_KEY_IPS,
    maintenanceKey: secrets?.maintenanceKey ?? derived('maintenance'),
    cookieSecret: secrets?.cookieSecret ?? derived('cookie'),
    admin: {
      email: adminEmail,
      password: adminPassword,
      name: e.ADMIN_NAME ?? 'Administrator',
      // Printed once: when start-up has just generated it.
      generated: !e.ADMIN_PASSWORD && Boolean(secrets?.created),
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Guided Learning <no-reply@localhost>',
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    dashboard: {
      enabled: e.DASHBOARD_ENABLED,
      user: e.DASHBOARD_USER ?? 'operator',
      password: e.DASHBOARD_PASSWORD ?? secrets?.dashboardPassword ?? derived('dashboard-password'),
    },
    redisUrl: e.REDIS_URL,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_S },
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    sessions: {
      student: { idleSeconds: e.SESSION_IDLE_MINUTES_STUDENT * 60, maxSeconds: e.SESSION_MAX_HOURS_STUDENT * 3600 },
      admin: { idleSeconds: e.SESSION_IDLE_MINUTES_ADMIN * 60, maxSeconds: e.SESSION_MAX_HOURS_ADMIN * 3600 },
    },
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_S,
    timeouts: {
      databaseConnectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      databaseStatementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      healthMs: e.HEALTH_TIMEOUT_MS,
      smtpMs: e.SMTP_TIMEOUT_MS,
      smsMs: e.SMS_TIMEOUT_MS,
    },
    mailQueue: { retryLimit: e.MAIL_RETRY_LIMIT, retryDelaySeconds: e.MAIL_RETRY_DELAY_S },
    passwordHashConcurrency: e.PASSWORD_HASH_CONCURRENCY ?? availableParallelism(),
    http: {
      maxConnections: e.MAX_CONNECTIONS,
      // Behind a proxy every connection comes from the proxy: no per-client cap unless asked.
      maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT ?? (e.TRUST_PROXY === false ? 256 : 0),
      headersTimeoutMs: e.HEADERS_TIMEOUT_S * 1000,
      requestTimeoutMs: e.REQUEST_TIMEOUT_S * 1000,
    },
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    centreTimeZone: e.CENTRE_TIMEZONE,
    backup: {
      dir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      schedule: e.BACKUP_SCHEDULE,
      keep: e.BACKUP_KEEP,
    },
  };
}

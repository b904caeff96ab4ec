// Configuration (product.md §3): read once from the environment (and .env),
// checked with zod. A bad value stops start-up with one line naming the variable.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_CENTRE_TIMEZONE } from '@tc/domain/timetable';
import { isValidTimeZone } from '@tc/domain/zoned-time';

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

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(1337),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URI: optionalUrl(['postgres:', 'postgresql:']),
  APP_ID: optionalText.refine((v) => v === undefined || /^[\w.-]{1,100}$/.test(v), 'must be letters, digits, . _ or -'),
  MASTER_KEY: optionalText.refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters'),
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
  DASHBOARD_USER: optionalText,
  DASHBOARD_PASSWORD: optionalText,
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).default(600),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value) => {
      if (value === undefined || value === '' || value === 'false') return false;
      if (value === 'true') return true;
      return /^\d+$/.test(value) ? Number(value) : value;
    }),
  CENTRE_TIMEZONE: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || DEFAULT_CENTRE_TIMEZONE)
    .refine(isValidTimeZone, 'must be an IANA time zone, e.g. Asia/Kolkata'),
  LOG_REQUESTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export type Env = z.input<typeof schema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  /** Null until the port is known (PORT=0 picks a free one). */
  publicUrl: string | undefined;
  dataDir: string;
  databaseUri: string | undefined;
  appId: string;
  masterKey: string;
  maintenanceKey: string;
  cookieSecret: string;
  admin: { email: string; password: string; name: string; generated: boolean };
  smtpUrl: string | undefined;
  mailFrom: string;
  smsWebhookUrl: string | undefined;
  dashboard: { user: string; password: string };
  redisUrl: string | undefined;
  rateLimit: { max: number; windowSeconds: number };
  trustProxy: boolean | number | string;
  logRequests: boolean;
  /** The zone every class time is in (IANA name). */
  centreTimeZone: string;
}

export class ConfigError extends Error {}

interface Secrets {
  appId: string;
  masterKey: string;
  maintenanceKey: string;
  cookieSecret: string;
  adminPassword: string;
}

/** Development keys, generated once and kept in DATA_DIR. */
function loadSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  const secrets: Secrets = {
    appId: `tuition-${randomBytes(6).toString('hex')}`,
    masterKey: randomBytes(32).toString('base64url'),
    maintenanceKey: randomBytes(32).toString('base64url'),
    cookieSecret: randomBytes(32).toString('base64url'),
    adminPassword: randomBytes(12).toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
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
    maintenanceKey: secrets?.maintenanceKey ?? derived('maintenance'),
    cookieSecret: secrets?.cookieSecret ?? derived('cookie'),
    admin: {
      email: adminEmail,
      password: adminPassword,
      name: e.ADMIN_NAME ?? 'Administrator',
      generated: !e.ADMIN_PASSWORD,
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Guided Learning <no-reply@localhost>',
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    dashboard: { user: e.DASHBOARD_USER ?? adminEmail, password: e.DASHBOARD_PASSWORD ?? adminPassword },
    redisUrl: e.REDIS_URL,
    rateLimit: { max: e.RATE_LIMIT_MAX, windowSeconds: e.RATE_LIMIT_WINDOW_S },
    trustProxy: e.TRUST_PROXY,
    logRequests: e.LOG_REQUESTS,
    centreTimeZone: e.CENTRE_TIMEZONE,
  };
}

// The server's one logger (pino): JSON lines on stdout, read by whatever collects
// the process's output (journald, docker logs). Pretty-printed only for a person
// at a terminal in development.

import pino, { type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A safety net: no line logs a request's headers or body, but should one ever log an
 * object with a secret in it (a password, a code, a token), the value is not written.
 */
const SECRET_KEYS = ['password', 'newPassword', 'otp', 'token', 'sessionToken', 'tokenStudent', 'authorization'];
const REDACT = {
  paths: [...SECRET_KEYS, ...SECRET_KEYS.map((key) => `*.${key}`), 'req.headers.authorization', 'req.headers.cookie'],
  censor: '[redacted]',
};

/** A logger writing to `destination` (a test's capture) or to stdout. */
export function createLogger(level: LogLevel = 'info', destination?: pino.DestinationStream): Logger {
  if (destination) return pino({ level, redact: REDACT }, destination);
  // NODE_ENV is read here, not from the configuration: the logger exists before
  // the configuration is read, so that a bad value is itself logged.
  const pretty = process.env.NODE_ENV !== 'production' && process.stdout.isTTY;
  return pino({
    level,
    redact: REDACT,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } } : {}),
  });
}

/** The process's logger; index.ts sets its level from LOG_LEVEL once the configuration is read. */
export const logger = createLogger();

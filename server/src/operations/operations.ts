// Wires the operator's tools into a running site: metrics, the backup schedule
// and the admin status call (one place, so start.ts only plugs it in).

import type { RequestHandler } from 'express';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { backupStatus, startBackupSchedule, type BackupSettings } from './backup-schedule.ts';
import { createMetrics, type Metrics } from './metrics.ts';

const require = createRequire(import.meta.url);

export interface Operations {
  metrics: Metrics;
  /** The server's own /api handlers, by contract call name. */
  apiHandlers: Record<string, RequestHandler>;
  stop(): Promise<void>;
}

/** Parse Server's connection pool (pg-promise's), when Parse runs in this process on PostgreSQL. */
function parsePool(appId: string): pg.Pool | undefined {
  try {
    const Config = require('parse-server/lib/Config.js') as {
      get(appId: string): { database?: { adapter?: { _client?: { $pool?: pg.Pool } } } } | undefined;
    };
    const config = Config.get(appId);
    return config?.database?.adapter?._client?.$pool;
  } catch {
    return undefined;
  }
}

export function startOperations(config: Config, databaseUri: string, sql: pg.Pool, logger: Logger): Operations {
  const metrics = createMetrics({
    token: config.metricsToken,
    pools: () => ({ app: sql, parse: parsePool(config.appId) }),
  });
  const settings: BackupSettings = {
    databaseUri,
    dir: config.backup.dir,
    schedule: config.backup.schedule,
    timezone: config.centreTimeZone,
    keep: config.backup.keep,
  };
  const schedule = startBackupSchedule(sql, settings, logger, (ok) => metrics.countBackup(ok ? 'success' : 'failure'));

  const getOperationsStatus: RequestHandler = async (_req, res) => {
    const next = schedule.nextRun();
    res.json({
      backups: {
        schedule: settings.schedule,
        timezone: settings.timezone,
        keep: settings.keep,
        directory: settings.dir,
        ...(next ? { nextRun: next.toISOString() } : {}),
        ...(await backupStatus(sql)),
      },
    });
  };

  return { metrics, apiHandlers: { getOperationsStatus }, stop: () => schedule.stop() };
}

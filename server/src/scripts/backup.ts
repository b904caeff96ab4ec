// `npm run backup`: a consistent dump of the site's database into BACKUP_DIR
// (default DATA_DIR/backups), with the site running or not. Prints the file.

import 'dotenv/config';
import { ConfigError, loadConfig, newAdminLogin } from '../config.ts';
import { createPool } from '../database/sql.ts';
import { createLogger } from '../logger.ts';
import { runBackup } from '../operations/backup-schedule.ts';
import { openSiteDatabase } from '../operations/database-access.ts';

let database;
let failed = false;
try {
  const config = loadConfig();
  const adminLogin = newAdminLogin(config);
  if (adminLogin) console.log(adminLogin);
  database = await openSiteDatabase(config);
  const sql = createPool(database.uri, 1);
  try {
    const settings = { ...config.backup, databaseUri: database.uri, timezone: config.centreTimeZone };
    const result = await runBackup(sql, settings, createLogger('silent'));
    if (!result)
      throw new Error('Another backup is running, or one was taken this very second; try again in a moment.');
    console.log(`Backup written: ${result.file} (${result.bytes} bytes, sha256 ${result.sha256}, ${result.ms} ms)`);
  } finally {
    await sql.end();
  }
} catch (error) {
  failed = true;
  console.error(error instanceof ConfigError ? error.message : `Backup failed: ${(error as Error).message}`);
} finally {
  await database?.stop();
}
process.exit(failed ? 1 : 0);

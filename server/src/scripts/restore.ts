// `npm run restore -- FILE [--force]`: checks FILE against FILE.sha256 and
// restores it into the site's database. The site must be stopped; a database
// that holds data is replaced only with --force. Children erased since the backup
// (the ledger in BACKUP_DIR, and the database replaced) stay erased.

import 'dotenv/config';
import { parseArgs } from 'node:util';
import path from 'node:path';
import { ConfigError, loadConfig, newAdminLogin } from '../config.ts';
import { restoreDatabase } from '../operations/backup.ts';
import { LEDGER_FILE } from '../operations/erasure-ledger.ts';
import { openSiteDatabase, type SiteDatabase } from '../operations/database-access.ts';

const { values, positionals } = parseArgs({
  options: { force: { type: 'boolean', default: false } },
  allowPositionals: true,
});
if (positionals.length !== 1) {
  console.error('Usage: npm run restore -- FILE [--force]');
  process.exit(2);
}
const file = path.resolve(positionals[0]!);

let database: SiteDatabase | undefined;
let failed = false;
try {
  const config = loadConfig();
  const adminLogin = newAdminLogin(config);
  if (adminLogin) console.log(adminLogin);
  database = await openSiteDatabase(config);
  if (database.running) throw new Error('The site is running on this DATA_DIR: stop it (Ctrl-C or SIGTERM) first.');
  const started = Date.now();
  // The ledger of erasures in BACKUP_DIR, and beside the file (a backup copied back from elsewhere).
  const ledgerDirs = [config.backup.dir, path.dirname(file)];
  const { erasuresCarried, ledgerFound, unreadableLedgerLines } = await restoreDatabase(database.uri, file, {
    force: values.force,
    ledgerDirs,
  });
  console.log(`Restored ${file} in ${Date.now() - started} ms. Start the site with npm start.`);
  if (erasuresCarried) {
    console.log(
      `${erasuresCarried} student(s) erased since this backup are shut now and erased again when the site starts.`,
    );
  }
  if (!ledgerFound) {
    console.warn(
      `No ledger of erasures (${LEDGER_FILE}) in ${[...new Set(ledgerDirs)].join(' or ')}: children erased since ` +
        'this backup are erased again only if the database replaced knew them. Copy the ledger there and restore again ' +
        '(with --force, since the database now holds data), or check them by hand.',
    );
  }
  if (unreadableLedgerLines) {
    console.warn(
      `${unreadableLedgerLines} line(s) of ${LEDGER_FILE} (in ${[...new Set(ledgerDirs)].join(' or ')}) could not be read: ` +
        'check that every child erased since this backup is erased, and erase again any that is not.',
    );
  }
} catch (error) {
  failed = true;
  console.error(error instanceof ConfigError ? error.message : `Restore failed: ${(error as Error).message}`);
} finally {
  await database?.stop();
}
process.exit(failed ? 1 : 0);

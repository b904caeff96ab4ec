// Development secrets: the keys and passwords `npm start` needs on a fresh clone
// with nothing set, generated once and kept in DATA_DIR/secrets.json.
//
// Never used in production: config.ts does not call this module when
// NODE_ENV=production. There every instance must share the same keys, so they
// come from the environment (APP_ID, MASTER_KEY, ADMIN_PASSWORD are required)
// or are derived from MASTER_KEY; a file on one
// machine's disk would give each instance keys of its own, and a password the
// operator never chose.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export interface DevSecrets {
  appId: string;
  masterKey: string;
  readOnlyMasterKey: string;
  maintenanceKey: string;
  cookieSecret: string;
  adminPassword: string;
}

/**
 * The development keys of `dataDir`, readable by the owner only. A key added
 * since the file was written is generated and added to it. `created`: the file
 * had no admin password yet, so start-up prints the one just made (once).
 */
export function loadDevSecrets(dataDir: string): DevSecrets & { created: boolean } {
  const file = path.join(dataDir, 'secrets.json');
  const stored = existsSync(file) ? readStored(file) : {};
  const key = () => randomBytes(32).toString('base64url');
  const secrets: DevSecrets = {
    appId: stored.appId ?? `tuition-${randomBytes(6).toString('hex')}`,
    masterKey: stored.masterKey ?? key(),
    readOnlyMasterKey: stored.readOnlyMasterKey ?? key(),
    maintenanceKey: stored.maintenanceKey ?? key(),
    cookieSecret: stored.cookieSecret ?? key(),
    adminPassword: stored.adminPassword ?? randomBytes(12).toString('base64url'),
  };
  const changed = Object.keys(secrets).some((name) => !(name in stored));
  if (changed) {
    try {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    } catch (error) {
      throw new Error(`${dataDir} cannot be used: ${file} cannot be written (${(error as Error).message})`);
    }
  }
  // A file written by an older version, or copied in, may be readable by others.
  try {
    chmodSync(file, 0o600);
  } catch (error) {
    throw new Error(`${dataDir} cannot be used: ${file} cannot be made private (${(error as Error).message})`);
  }
  return { ...secrets, created: !stored.adminPassword };
}

/** The stored secrets: a file edited by hand (a rotated key) and left broken is said so. */
function readStored(file: string): Partial<DevSecrets> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${file} cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} cannot be read as JSON (${(error as Error).message}): correct it by hand`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} must hold a JSON object of the development secrets: correct it by hand`);
  }
  return parsed;
}

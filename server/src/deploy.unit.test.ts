// The deployment files are valid: `docker compose config` accepts them (no engine needed).

import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function composeCommand(): string[] {
  if (spawnSync('docker', ['compose', 'version']).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version']).status === 0) return ['docker-compose'];
  throw new Error('Neither `docker compose` nor `docker-compose` is installed (.ci/run installs docker-compose)');
}

describe('docker-compose.yml', () => {
  it('is accepted by docker compose config, with postgres, redis and the app with a health check', () => {
    const [command, ...args] = composeCommand();
    const env = {
      ...process.env,
      POSTGRES_PASSWORD: 'pw',
      APP_ID: 'app',
      MASTER_KEY: 'master-key-0123456789',
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'admin-pass-1',
      SMTP_URL: 'smtp://mail:25',
      SMS_WEBHOOK_URL: 'http://sms/send',
    };
    const output = execFileSync(command!, [...args, '-f', path.join(root, 'docker-compose.yml'), 'config'], {
      env,
      encoding: 'utf8',
    });
    expect(output).toMatch(/postgres:/);
    expect(output).toMatch(/redis:/);
    expect(output).toMatch(/app:/);
    expect(output).toMatch(/healthcheck:/);
    expect(output).toContain('postgres://tuition:pw@postgres:5432/tuition');
    // Scheduled backups land in a volume of their own.
    expect(output).toContain('BACKUP_DIR: /data/backups');
    expect(output).toMatch(/^ {2}backups:/m);
  });
});

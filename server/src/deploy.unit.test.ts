// The deployment files are valid: `docker compose config` accepts them (no engine needed).
// Caddy is the only way in (product.md §10): it overwrites X-Forwarded-For, and
// the app believes that header from Caddy's network only.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const root = path.resolve(import.meta.dirname, '../..');

function composeCommand(): string[] {
  if (spawnSync('docker', ['compose', 'version']).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version']).status === 0) return ['docker-compose'];
  throw new Error('Neither `docker compose` nor `docker-compose` is installed (.ci/run installs docker-compose)');
}

function composeConfig(): string {
  const [command, ...args] = composeCommand();
  const env = {
    ...process.env,
    POSTGRES_PASSWORD: 'pw',
    PUBLIC_URL: 'https://tuition.example.com',
    SITE_ADDRESS: 'tuition.example.com',
    APP_ID: 'app',
    MASTER_KEY: 'master-key-0123456789',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'admin-pass-1',
    DASHBOARD_PASSWORD: 'dashboard-pass-123',
    SMTP_URL: 'smtp://mail:25',
    SMS_WEBHOOK_URL: 'http://sms/send',
  };
  return execFileSync(command!, [...args, '-f', path.join(root, 'docker-compose.yml'), 'config'], {
    env,
    encoding: 'utf8',
  });
}

/** The lines of one top-level service in `compose config` output. */
function service(output: string, name: string): string {
  const match = new RegExp(`\\n  ${name}:\\n((?:    .*\\n|\\n)*)`).exec(output);
  if (!match) throw new Error(`no service ${name}`);
  return match[1]!;
}

describe('docker-compose.yml', () => {
  it('is accepted by docker compose config, with postgres, redis and the app with a health check', () => {
    const output = composeConfig();
    expect(output).toMatch(/postgres:/);
    expect(output).toMatch(/redis:/);
    expect(output).toMatch(/app:/);
    expect(output).toMatch(/healthcheck:/);
    expect(output).toContain('postgres://tuition:pw@postgres:5432/tuition');
  });

  it('puts Caddy in front: only Caddy publishes a port, and the app trusts the proxy network, not a hop count', () => {
    const output = composeConfig();
    const caddy = service(output, 'caddy');
    expect(caddy).toMatch(/image: caddy:2/);
    expect(caddy).toMatch(/published: "?443"?/);
    expect(caddy).toContain('SITE_ADDRESS: tuition.example.com');
    for (const name of ['app', 'postgres', 'redis']) expect(service(output, name)).not.toMatch(/ports:|published:/);

    const app = service(output, 'app');
    const trustProxy = /TRUST_PROXY: (\S+)/.exec(app)?.[1];
    expect(trustProxy).toMatch(/\/\d+$/);
    expect(
      loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tc-deploy-')), TRUST_PROXY: trustProxy }).trustProxy,
    ).toEqual([trustProxy]);
    expect(output).toContain(`subnet: ${trustProxy}`);
  });

  it('has Caddy balance every app container and overwrite X-Forwarded-For', () => {
    const caddyfile = readFileSync(path.join(root, 'deploy/Caddyfile'), 'utf8');
    expect(caddyfile).toMatch(/\{\$SITE_ADDRESS[^}]*\}\s*\{/);
    expect(caddyfile).toMatch(/dynamic a \{\s*name app\s*port 1337/);
    expect(caddyfile).toMatch(/health_uri \/api\/health/);
    expect(caddyfile).toMatch(/header_up X-Forwarded-For \{remote_host\}/);
  });
});

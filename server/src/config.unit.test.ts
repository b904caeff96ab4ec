// The configuration: one schema, its rules, its documentation, the secrets it makes.

import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, newAdminLogin, VARIABLES } from './config.ts';
import { Outbox } from './delivery/outbox.ts';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'tc-config-'));
const production = {
  NODE_ENV: 'production',
  APP_ID: 'app',
  MASTER_KEY: 'master-key-0123456789',
  DATABASE_URI: 'postgres://u:p@db:5432/tuition',
  SMTP_URL: 'smtp://mail:25',
  MAIL_FROM: 'Guided Learning <no-reply@tuition.example.com>',
  SMS_WEBHOOK_URL: 'http://sms/send',
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'admin-pass-1',
  DASHBOARD_PASSWORD: 'dashboard-pass-123',
};
const mode = (file: string) => statSync(file).mode & 0o777;

describe('configuration', () => {
  it('writes generated secrets readable by the owner only, and tightens an old file', () => {
    const dir = tempDir();
    loadConfig({ DATA_DIR: dir });
    expect(mode(path.join(dir, 'secrets.json'))).toBe(0o600);

    const old = tempDir();
    writeFileSync(path.join(old, 'secrets.json'), JSON.stringify({ appId: 'a', masterKey: 'm'.repeat(32) }), {
      mode: 0o644,
    });
    const config = loadConfig({ DATA_DIR: old });
    expect(mode(path.join(old, 'secrets.json'))).toBe(0o600);
    expect(config.readOnlyMasterKey).toHaveLength(43);
  });

  it('says in one line that DATA_DIR cannot hold the secrets, or that its secrets file is broken', () => {
    const file = path.join(tempDir(), 'a-file');
    writeFileSync(file, '');
    expect(() => loadConfig({ DATA_DIR: path.join(file, 'x') })).toThrow(
      /^Invalid configuration: DATA_DIR .*a-file\/x cannot be used: .*secrets\.json cannot be written \(ENOTDIR/,
    );
    for (const broken of ['{bad', '[]', 'null']) {
      const dir = tempDir();
      writeFileSync(path.join(dir, 'secrets.json'), broken);
      expect(() => loadConfig({ DATA_DIR: dir }), broken).toThrow(
        /^Invalid configuration: DATA_DIR .*secrets\.json (cannot be read as JSON|must hold a JSON object).*: correct it by hand$/,
      );
      // Left as it was, for the operator to correct: nothing is regenerated over it.
      expect(readFileSync(path.join(dir, 'secrets.json'), 'utf8')).toBe(broken);
    }
  });

  it('gives the generated admin login to print to the first command on a DATA_DIR only', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(newAdminLogin(first)).toBe(
      `Admin login: ${first.admin.email} / ${first.admin.password} (kept in ${dir}/secrets.json, not printed again)`,
    );
    expect(newAdminLogin(loadConfig({ DATA_DIR: dir }))).toBeUndefined();
    expect(newAdminLogin(loadConfig(production))).toBeUndefined();
  });

  it('reports the development admin password as new once only', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).admin.generated).toBe(true);
    expect(loadConfig({ DATA_DIR: dir }).admin.generated).toBe(false);
  });

  it('logs the dashboard in with the admin login unless DASHBOARD_USER / DASHBOARD_PASSWORD say otherwise', () => {
    const dev = loadConfig({ DATA_DIR: tempDir() });
    // No password of its own: the admin account's, as it is now (dashboard.ts).
    expect(dev.dashboard).toMatchObject({ user: dev.admin.email, password: undefined });
    const prod = loadConfig({ ...production, DASHBOARD_USER: undefined, DASHBOARD_PASSWORD: undefined });
    expect(prod.dashboard).toMatchObject({ user: production.ADMIN_EMAIL, password: undefined });
    expect(loadConfig(production).dashboard).toMatchObject({
      user: production.ADMIN_EMAIL,
      password: production.DASHBOARD_PASSWORD,
    });
    expect(loadConfig({ ...production, DASHBOARD_USER: 'operator' }).dashboard.user).toBe('operator');
    expect(() => loadConfig({ ...production, DASHBOARD_PASSWORD: 'short' })).toThrow(/DASHBOARD_PASSWORD/);
    expect(loadConfig({ ...production, DASHBOARD_ENABLED: 'false' }).dashboard.enabled).toBe(false);
    expect(prod.readOnlyMasterKey).not.toBe(prod.masterKey);
  });

  it('accepts the master key from the loopback by default, and addresses or networks when widened', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).masterKeyIps).toEqual(['127.0.0.1', '::1']);
    expect(loadConfig({ DATA_DIR: tempDir(), MASTER_KEY_IPS: '10.0.0.0/8, ::1' }).masterKeyIps).toEqual([
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => loadConfig({ DATA_DIR: tempDir(), MASTER_KEY_IPS: '0.0.0.0/99' })).toThrow(/MASTER_KEY_IPS/);
  });

  it('takes TRUST_PROXY as a hop count or as the proxy network (CIDR)', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: '172.16.0.0/12' }).trustProxy).toEqual(['172.16.0.0/12']);
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: 'loopback, 10.1.2.3' }).trustProxy).toEqual([
      'loopback',
      '10.1.2.3',
    ]);
    expect(() => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
    // Every hop believed: a client's own X-Forwarded-For would name it (127.0.0.1 included).
    expect(() => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY.*not true/);
  });

  it('takes the default for a variable set empty, but refuses an empty NODE_ENV', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), RATE_LIMIT_MAX: '', SHUTDOWN_GRACE_S: ' ', PORT: '' });
    expect(config.rateLimit.max).toBe(100);
    expect(config.port).toBe(1337);
    // Never a quiet development site (generated secrets, mail to the outbox) where production was meant.
    expect(() => loadConfig({ ...production, NODE_ENV: '' })).toThrow(/^Invalid configuration: NODE_ENV /);
  });

  it('keeps admin sessions shorter than student ones by default', () => {
    const { sessions } = loadConfig({ DATA_DIR: tempDir() });
    expect(sessions.admin.idleSeconds).toBeLessThan(sessions.student.idleSeconds);
    expect(sessions.admin.maxSeconds).toBeLessThan(sessions.student.maxSeconds);
  });
});

describe('development outbox', () => {
  it('is readable by the owner only', async () => {
    const outbox = new Outbox(tempDir());
    await outbox.write('SMS', '9000000000', 'Your code is 123456');
    expect(mode(outbox.file)).toBe(0o600);
  });
});

describe('CENTRE_TIMEZONE', () => {
  it('refuses a value that is not a time zone, naming it, and defaults to Asia/Kolkata', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: tempDir() };
    expect(() => loadConfig({ ...base, CENTRE_TIMEZONE: 'Mars/Olympus' })).toThrow(/CENTRE_TIMEZONE/);
    expect(loadConfig(base).centreTimeZone).toBe('Asia/Kolkata');
    expect(loadConfig({ ...base, CENTRE_TIMEZONE: 'Europe/London' }).centreTimeZone).toBe('Europe/London');
  });

  it('refuses a zone the calendar feed cannot describe to calendar apps, and takes an older name of one', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: tempDir() };
    expect(() => loadConfig({ ...base, CENTRE_TIMEZONE: 'Europe/Kyiv' })).toThrow(/CENTRE_TIMEZONE.*Europe\/Kiev/);
    expect(loadConfig({ ...base, CENTRE_TIMEZONE: 'Asia/Calcutta' }).centreTimeZone).toBe('Asia/Calcutta');
  });
});

describe('the configuration schema', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
  // Read by docker-compose.yml only, not by the site.
  const composeOnly = ['SITE_ADDRESS', 'POSTGRES_PASSWORD', 'POSTGRES_SUPERUSER_PASSWORD'];

  it('documents every variable it reads, in the README table and .env.example, and no other', () => {
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Architecture'));
    const documented = new Set(
      table
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((m) => m[1])),
    );
    expect([...documented].sort()).toEqual([...VARIABLES].sort());
    const example = read('.env.example')
      .split('\n')
      .map((line) => /^([A-Z_]+)=/.exec(line)?.[1])
      .filter((name) => name !== undefined);
    expect(
      example.filter((name, i) => example.indexOf(name) !== i),
      'listed twice',
    ).toEqual([]);
    expect(example.filter((name) => !composeOnly.includes(name)).sort()).toEqual([...VARIABLES].sort());
  });

  it('uses every variable it checks', () => {
    const source = read('server/src/config.ts');
    const body = source.slice(source.indexOf('function toConfig'));
    expect(VARIABLES.filter((name) => !body.includes(`e.${name}`))).toEqual([]);
  });

  it('is the only reader of the environment in the site (but for NODE_ENV, read before it by the logger)', () => {
    const readers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!['scripts', 'node_modules'].includes(entry.name)) walk(file);
        } else if (/(?<!\.test)\.ts$/.test(entry.name)) {
          for (const [, name] of read(file).matchAll(/process\.env\.([A-Z_]+)(?![A-Z_]|\s*\?\?=)/g)) {
            if (!(file === 'server/src/logger.ts' && name === 'NODE_ENV')) readers.push(`${file}: ${name}`);
          }
        }
      }
    };
    for (const dir of ['domain/src', 'cloud/src', 'server/src']) walk(dir);
    expect(readers).toEqual([]);
  });

  it('checks the administrator with the rules of the forms (domain/), normalised the same way', () => {
    const base = { NODE_ENV: 'test', DATA_DIR: tempDir() };
    const admin = loadConfig({ ...base, ADMIN_EMAIL: ' Head@Example.COM ', ADMIN_PASSWORD: '  long-enough-1  ' }).admin;
    expect(admin).toMatchObject({ email: 'head@example.com', password: 'long-enough-1', generated: false });
    // A look-alike address with a zero-width space, which a plain pattern lets through.
    expect(() => loadConfig({ ...base, ADMIN_EMAIL: 'vic\u200btim@example.com' })).toThrow(
      'Invalid configuration: ADMIN_EMAIL must be an e-mail address',
    );
    expect(() => loadConfig({ ...base, ADMIN_EMAIL: 'not-an-address' })).toThrow(/ADMIN_EMAIL/);
    for (const password of ['short-1', '   seven   ', 'a'.repeat(65), '€'.repeat(25)]) {
      expect(() => loadConfig({ ...base, ADMIN_PASSWORD: password }), password).toThrow(
        'Invalid configuration: ADMIN_PASSWORD must be 8 to 64 characters',
      );
    }
    expect(loadConfig({ ...base, ADMIN_PASSWORD: 'a'.repeat(64) }).admin.password).toHaveLength(64);
  });

  it('reports a bad value before a rule between variables, and each rule naming its variable', () => {
    expect(() => loadConfig({ ...production, APP_ID: '', PORT: 'x' })).toThrow(/^Invalid configuration: PORT /);
    expect(() => loadConfig({ ...production, APP_ID: '' })).toThrow(
      'Invalid configuration: APP_ID is required when NODE_ENV=production',
    );
    expect(() => loadConfig({ ...production, READ_ONLY_MASTER_KEY: production.MASTER_KEY })).toThrow(
      'Invalid configuration: READ_ONLY_MASTER_KEY must differ from MASTER_KEY',
    );
  });

  it('keeps time limits where timers and PostgreSQL take them (100 ms to 10 minutes)', () => {
    for (const name of [
      'DATABASE_CONNECT_TIMEOUT_MS',
      'DATABASE_STATEMENT_TIMEOUT_MS',
      'HEALTH_TIMEOUT_MS',
      'SMTP_TIMEOUT_MS',
    ]) {
      expect(() => loadConfig({ ...production, [name]: '3000000000' }), name).toThrow(
        new RegExp(`^Invalid configuration: ${name} `),
      );
      expect(() => loadConfig({ ...production, [name]: '99' }), name).toThrow(
        new RegExp(`^Invalid configuration: ${name} `),
      );
    }
    expect(loadConfig({ ...production, DATABASE_STATEMENT_TIMEOUT_MS: '600000' }).timeouts.databaseStatementMs).toBe(
      600_000,
    );
    expect(() => loadConfig({ ...production, REQUEST_TIMEOUT_S: '3000000' })).toThrow(/REQUEST_TIMEOUT_S/);
  });

  it('takes MAIL_FROM as an address, or a name and an address, and requires it in production', () => {
    expect(() => loadConfig({ ...production, MAIL_FROM: '' })).toThrow(
      'Invalid configuration: MAIL_FROM is required when NODE_ENV=production',
    );
    for (const from of ['Guided Learning', 'Guided Learning <>', 'no reply@example.com', '<a@b> trailing']) {
      expect(() => loadConfig({ ...production, MAIL_FROM: from }), from).toThrow(/^Invalid configuration: MAIL_FROM /);
    }
    for (const from of [
      'no-reply@tuition.example.com',
      'Guided Learning <no-reply@localhost>',
      '"Centre, Pune" <a@b.in>',
    ]) {
      expect(loadConfig({ ...production, MAIL_FROM: from }).mailFrom, from).toBe(from);
    }
  });

  it('never reads or writes development secrets in production', () => {
    const dir = tempDir();
    const config = loadConfig({ ...production, DATA_DIR: dir });
    expect(existsSync(path.join(dir, 'secrets.json'))).toBe(false);
    expect(config.masterKey).toBe(production.MASTER_KEY);
    expect(config.admin.generated).toBe(false);
  });

  it('leaves PUBLIC_URL unset to the site, which knows its port once it listens', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).publicUrl).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://tuition.example.com//' }).publicUrl).toBe(
      'https://tuition.example.com',
    );
    const config = loadConfig({ DATA_DIR: tempDir() });
    // @ts-expect-error the configuration is read-only once loaded (npm run typecheck fails otherwise)
    config.publicUrl = 'http://elsewhere';
    // @ts-expect-error nested values too
    config.admin.password = 'changed';
  });
});

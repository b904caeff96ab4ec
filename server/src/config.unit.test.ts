// Configuration rules of the hardening round.

import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { Outbox } from './delivery/outbox.ts';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'tc-config-'));
const production = {
  NODE_ENV: 'production',
  APP_ID: 'app',
  MASTER_KEY: 'master-key-0123456789',
  DATABASE_URI: 'postgres://u:p@db:5432/tuition',
  SMTP_URL: 'smtp://mail:25',
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

  it('reports the development admin password as new once only', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).admin.generated).toBe(true);
    expect(loadConfig({ DATA_DIR: dir }).admin.generated).toBe(false);
  });

  it('gives the dashboard its own password, required and distinct from the admin one in production', () => {
    const dev = loadConfig({ DATA_DIR: tempDir() });
    expect(dev.dashboard.password).not.toBe(dev.admin.password);
    expect(() => loadConfig({ ...production, DASHBOARD_PASSWORD: '' })).toThrow(/DASHBOARD_PASSWORD is required/);
    expect(() =>
      loadConfig({ ...production, DASHBOARD_PASSWORD: 'admin-pass-1-long', ADMIN_PASSWORD: 'admin-pass-1-long' }),
    ).toThrow(/DASHBOARD_PASSWORD must differ/);
    expect(loadConfig({ ...production, DASHBOARD_PASSWORD: '', DASHBOARD_ENABLED: 'false' }).dashboard.enabled).toBe(
      false,
    );
    const prod = loadConfig(production);
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
});

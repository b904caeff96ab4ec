// End-to-end tests: the real server (embedded PostgreSQL, development outbox)
// started once by Playwright's webServer, driven through Debian's headless Chromium.

import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium.ts';

// This file is read by the runner and again by every worker; the workers inherit the
// runner's environment, so what is set here once is the same everywhere.
const admin = { email: 'e2e-admin@example.com', password: 'E2e-Admin-Pass-2024', name: 'E2E Admin' };
process.env.E2E_ADMIN_EMAIL = admin.email;
process.env.E2E_ADMIN_PASSWORD = admin.password;
process.env.E2E_ADMIN_NAME = admin.name;

function freshDataDir(): string {
  // A fresh data folder per run (embedded PostgreSQL, outbox.log). The webServer stops
  // the site after every teardown hook has run, so the folder goes when the runner exits.
  const dir = mkdtempSync(path.join(tmpdir(), 'tc-e2e-'));
  // The embedded PostgreSQL runs as the `postgres` user and must traverse this folder.
  chmodSync(dir, 0o755);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const dataDir = (process.env.E2E_DATA_DIR ??= freshDataDir());

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Checks that Chromium and the built client are there (it runs once the site is up).
  globalSetup: './e2e/global-setup.ts',
  webServer: {
    command: 'node --import tsx server/src/index.ts',
    // PORT=0: the site takes a free port and prints its URL, which `wait` reads into
    // E2E_BASE_URL (named groups become environment variables of the workers).
    wait: { stdout: /Tuition centre site running at (?<e2e_base_url>http:\/\/\S+)/ },
    timeout: 120_000,
    // SIGTERM: the site's clean shutdown (HTTP server, Parse Server, embedded PostgreSQL).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'development',
      PORT: '0',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ADMIN_NAME: admin.name,
      RATE_LIMIT_MAX: '10000',
      // Specs play clients at other addresses through X-Forwarded-For (the login spray).
      TRUST_PROXY: 'loopback',
      // Empty values are set, so a local .env cannot turn real delivery on.
      SMTP_URL: '',
      SMS_WEBHOOK_URL: '',
      DATABASE_URI: '',
      REDIS_URL: '',
      PUBLIC_URL: '',
    },
  },
  use: {
    // Read from the site's start-up line by `webServer.wait`, before the workers start.
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    viewport: { width: 1280, height: 900 },
    // A browser away from the centre (Asia/Kolkata), whatever zone the machine is in: times
    // shown in the centre's zone then differ from the browser's own.
    timezoneId: 'UTC',
    screenshot: 'only-on-failure',
    trace: 'off',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
});

// Starts the real site once for the whole run: `node --import tsx server/src/index.ts`
// on a free port, a fresh DATA_DIR (embedded PostgreSQL, outbox.log), a known admin.
// Everything the workers need goes into process.env (Playwright passes it on).

import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../server/src/net.ts';
import { CHROMIUM_PATH } from './chromium.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START_TIMEOUT_MS = 120_000;

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/health`);
    if (response.status !== 200) return false;
    const body = (await response.json()) as { status?: string };
    return body.status === 'ok';
  } catch {
    return false;
  }
}

export default async function globalSetup(): Promise<void> {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
  } catch {
    throw new Error(
      `The end-to-end tests need Debian's Chromium at ${CHROMIUM_PATH}; install it with 'apt-get install chromium'.`,
    );
  }
  const index = path.join(ROOT, 'client/dist/index.html');
  if (!existsSync(index)) {
    throw new Error(`${index} is missing: build the client first with 'npm run build -w client'.`);
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), 'tc-e2e-'));
  // The embedded PostgreSQL runs as the `postgres` user and must traverse this folder.
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const admin = {
    email: 'e2e-admin@example.com',
    password: 'E2e-Admin-Pass-2024',
    name: 'E2E Admin',
  };

  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/index.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      PUBLIC_URL: url,
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exitCode: number | null = null;
  child.on('exit', (code) => (exitCode = code ?? -1));

  process.env.E2E_BASE_URL = url;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_SERVER_PID = String(child.pid);
  process.env.E2E_ADMIN_EMAIL = admin.email;
  process.env.E2E_ADMIN_PASSWORD = admin.password;
  process.env.E2E_ADMIN_NAME = admin.name;

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(output.includes('Tuition centre site running at') && (await healthy(url)))) {
    if (exitCode !== null || Date.now() > deadline) {
      if (exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(
        `The site did not start (${exitCode !== null ? `exit code ${exitCode}` : 'timed out'}). Its output:\n${output}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // The server's console is not needed any more; stop buffering it.
  child.stdout!.removeListener('data', keep);
  child.stderr!.removeListener('data', keep);
  child.stdout!.resume();
  child.stderr!.resume();
  if (process.env.E2E_VERBOSE) console.log(`e2e: site at ${url}, data in ${dataDir}`);
}

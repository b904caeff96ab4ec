// The site as a real process (`node --import tsx server/src/index.ts`), and a
// throw-away redis-server, for tests that need more than one instance.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../server/src/net.ts';

const root = path.resolve(import.meta.dirname, '..');

export interface SiteProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  waitFor(text: string, ms?: number): Promise<void>;
}

export function runSite(env: Record<string, string>): SiteProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/index.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    waitFor: async (text, ms = 90_000) => {
      const deadline = Date.now() + ms;
      while (!output.includes(text)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no "${text}" in:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

export interface RedisProcess {
  url: string;
  stop(): void;
}

export async function startRedis(): Promise<RedisProcess> {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error("redis-server is not installed: run 'apt-get install redis-server' (.ci/run does)");
  }
  const port = await freePort();
  const child = spawn('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  const deadline = Date.now() + 10_000;
  while (!output.includes('Ready to accept connections')) {
    if (Date.now() > deadline) throw new Error(`redis-server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

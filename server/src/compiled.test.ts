// Production runs the compiled JavaScript (`npm run build`: server/dist, cloud/dist,
// domain/dist) with no devDependencies (docs/decisions/0012-compiled-production.md).
// This starts that build as the image does (`node` with the `compiled` export
// condition), answers health and the API document, and records every module the
// process loads: none may be TypeScript source or a package that
// `npm ci --omit=dev` leaves out (`"dev": true` in package-lock.json).
// scripts/check-runtime.sh does the full install in a scratch directory.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './net.ts';
import { createDatabase } from '../../testing/site.ts';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'tc-compiled-'));
const loadedLog = path.join(scratch, 'loaded.log');

// Records what both module systems load: the ESM resolve hook (imports), and
// CommonJS's resolver (require() inside packages, which Node 20's hooks do not see).
const hooks = path.join(scratch, 'hooks.mjs');
const record = `import { appendFileSync } from 'node:fs';
const note = (file) => appendFileSync(${JSON.stringify(loadedLog)}, file + '\\n');`;
writeFileSync(
  hooks,
  `${record}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith('file:')) note(new URL(result.url).pathname);
  return result;
}`,
);
const preload = path.join(scratch, 'preload.mjs');
writeFileSync(
  preload,
  `${record}
import Module from 'node:module';
import { register } from 'node:module';
register(${JSON.stringify(new URL(`file://${hooks}`).href)});
const original = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = original.apply(this, args);
  if (file.startsWith('/')) note(file);
  return file;
};`,
);

/** package-lock.json's entries installed only with the devDependencies. */
function devOnlyPackages(): string[] {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([key, entry]) => key.includes('node_modules/') && entry.dev)
    .map(([key]) => key);
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the compiled server', () => {
  beforeAll(() => {
    // Incremental: quick when `npm run build` has run since the last change.
    const built = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'server/tsconfig.build.json'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(built.status, built.stdout + built.stderr).toBe(0);
  }, 240_000);

  it('starts from dist without TypeScript sources or devDependencies, and answers', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ['--conditions=compiled', '--import', preload, path.join(root, 'server/dist/index.js')],
      {
        cwd: scratch,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          PORT: String(port),
          DATA_DIR: path.join(scratch, 'data'),
          DATABASE_URI: await createDatabase(),
          ADMIN_PASSWORD: 'compiled-admin-1',
          BACKUP_SCHEDULE: 'off',
        },
      },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('running at')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const openapi = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
      expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }

    const loaded = [...new Set(readFileSync(loadedLog, 'utf8').split('\n').filter(Boolean))];
    const ours = loaded.filter((file) => !file.includes('/node_modules/'));
    expect(ours.filter((file) => !/\/(domain|cloud|server)\/dist\/.+\.js$/.test(file))).toEqual([]);
    // Sanity check of the recording itself: the workspaces' compiled code and packages of both kinds.
    expect(ours.some((file) => file.endsWith('/domain/dist/api/contract.js'))).toBe(true);
    expect(loaded.some((file) => file.includes('/node_modules/parse-server/'))).toBe(true);
    expect(loaded.some((file) => file.includes('/node_modules/express/'))).toBe(true);

    // `debug` tries supports-color (which needs has-flag) and carries on without it.
    const optional = ['node_modules/supports-color', 'node_modules/has-flag'];
    const devOnly = devOnlyPackages().filter((pkg) => !optional.includes(pkg));
    expect(devOnly).toContain('node_modules/tsx');
    const fromDevOnly = loaded
      .map((file) => path.relative(root, file))
      .filter((file) => devOnly.some((pkg) => file.startsWith(`${pkg}/`)));
    expect(fromDevOnly).toEqual([]);
  }, 150_000);

  it('runs backup and restore from dist too (their imports all resolve)', () => {
    for (const [script, status, text] of [
      ['restore', 2, 'Usage: npm run restore -- FILE'],
      ['backup', 1, 'Invalid configuration: PORT'],
    ] as const) {
      const run = spawnSync(
        process.execPath,
        ['--conditions=compiled', path.join(root, `server/dist/scripts/${script}.js`)],
        { cwd: scratch, env: { PATH: process.env.PATH, PORT: 'none' }, encoding: 'utf8' },
      );
      expect(run.status, run.stderr).toBe(status);
      expect(run.stdout + run.stderr).toContain(text);
    }
  });
});

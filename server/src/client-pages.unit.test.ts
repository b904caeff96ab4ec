// The server answers the public routes with their pre-rendered pages, every
// other client route with the empty shell, and unknown paths with the shell and 404.

import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { loadConfig } from './config.ts';

let server: Server;
let base: string;
const clientDir = mkdtempSync(path.join(tmpdir(), 'tc-client-pages-'));

beforeAll(async () => {
  writeFileSync(path.join(clientDir, 'index.html'), '<div id="root"></div>shell');
  mkdirSync(path.join(clientDir, 'prerendered'));
  writeFileSync(path.join(clientDir, 'prerendered/index.html'), 'home page');
  writeFileSync(path.join(clientDir, 'prerendered/registeruser.html'), 'registration page');
  const app = createApp({
    config: loadConfig({ NODE_ENV: 'test' }),
    parseApp: (_req, _res, next) => next(),
    isDatabaseHealthy: () => Promise.resolve(true),
    clientDir,
    // The server's own admin call needs the backup state; pages do not.
    apiHandlers: { getOperationsStatus: (_req, res) => void res.json({}) },
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(clientDir, { recursive: true, force: true });
});

async function get(route: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${route}`, { headers });
  return { status: response.status, body: await response.text(), headers: response.headers };
}

describe('client pages', () => {
  it('redirects /admindashboard to /admindashborad in HTTP, keeping the query', async () => {
    for (const alias of ['/admindashboard', '/AdminDashboard/', '/admindashboard?x=1']) {
      const response = await fetch(`${base}${alias}`, { redirect: 'manual' });
      expect(response.status, alias).toBe(308);
      expect(response.headers.get('location'), alias).toBe(
        alias.endsWith('?x=1') ? '/admindashborad?x=1' : '/admindashborad',
      );
    }
  });

  it('answers a pre-rendered route with its page, whatever the case or trailing slash', async () => {
    expect(await get('/')).toMatchObject({ status: 200, body: 'home page' });
    expect(await get('/Registeruser')).toMatchObject({ status: 200, body: 'registration page' });
    expect(await get('/registeruser/')).toMatchObject({ status: 200, body: 'registration page' });
  });

  it('answers a route that is not pre-rendered (or not yet built) with the shell', async () => {
    expect(await get('/dashboard')).toMatchObject({ status: 200, body: '<div id="root"></div>shell' });
    expect(await get('/studentlogin')).toMatchObject({ status: 200, body: '<div id="root"></div>shell' });
  });

  it('answers an unknown path with the shell and 404', async () => {
    expect(await get('/no-such-page')).toMatchObject({ status: 404, body: '<div id="root"></div>shell' });
  });

  it('serves a new build without a restart', async () => {
    writeFileSync(path.join(clientDir, 'prerendered/registeruser.html'), 'registration page, new release');
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(clientDir, 'prerendered/registeruser.html'), later, later);
    expect((await get('/registeruser')).body).toBe('registration page, new release');
  });

  it('compresses what it sends when the browser accepts gzip', async () => {
    writeFileSync(path.join(clientDir, 'prerendered/index.html'), `home page ${'x'.repeat(5000)}`);
    const later = new Date(Date.now() + 10_000);
    utimesSync(path.join(clientDir, 'prerendered/index.html'), later, later);
    const response = await get('/', { 'accept-encoding': 'gzip' });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.body).toMatch(/^home page x+$/);
  });
});

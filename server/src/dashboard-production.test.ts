// Parse Dashboard in production: its cookie is Secure, and the site reached over HTTPS
// sends HSTS. A site of its own: one Parse Server per test process.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../testing/site.ts';

let prod: TestSite;

beforeAll(async () => {
  prod = await startTestSite({
    NODE_ENV: 'production',
    APP_ID: 'prod-app',
    MASTER_KEY: 'production-master-key-0123456789',
    DASHBOARD_PASSWORD: 'dashboard-password-123',
    PUBLIC_URL: 'https://tuition.example',
  });
});
afterAll(async () => {
  await prod?.stop();
});

/** The site here (its public address is the HTTPS one a proxy would serve). */
const local = () => `http://localhost:${prod.site.port}`;

describe('Parse Dashboard in production', () => {
  it('sets a Secure session cookie and browses with a read-only key of its own', async () => {
    const res = await fetch(`${local()}/parse-dashboard/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/parse_dash=.*;\s*Secure/i);
    expect(prod.site.config.readOnlyMasterKey).not.toBe(prod.site.config.masterKey);
  });

  it('tells browsers to come back over HTTPS only, the site reached over HTTPS', async () => {
    for (const path of ['/api/health', '/parse-dashboard/login', '/']) {
      const res = await fetch(`${local()}${path}`);
      expect(res.headers.get('strict-transport-security'), path).toMatch(/^max-age=\d{7,}/);
    }
  });
});

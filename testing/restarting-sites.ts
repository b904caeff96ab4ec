// Sites a test starts, stops and starts again on the same database (a restart
// of the site with its queue still holding mails), each stopped after the file.

import { afterAll } from 'vitest';
import { startTestSite, type TestSite } from './site.ts';

/**
 * `start` starts a site whose failed mails are retried after a second (on top of `env`);
 * `restart` stops a site and starts another on its database, with `env` on top.
 */
export function restartingSites(baseEnv: Record<string, string> = { MAIL_RETRY_DELAY_S: '1' }) {
  const running = new Set<TestSite>();
  afterAll(async () => {
    for (const site of running) await site.stop().catch(() => undefined);
  });

  const start = async (env: Record<string, string> = {}): Promise<TestSite> => {
    const site = await startTestSite({ ...baseEnv, ...env });
    running.add(site);
    return site;
  };

  const restart = async (site: TestSite, env: Record<string, string> = {}): Promise<TestSite> => {
    const databaseUri = site.site.databaseUri;
    await site.stop();
    running.delete(site);
    return start({ DATABASE_URI: databaseUri, ...env });
  };

  return { start, restart };
}

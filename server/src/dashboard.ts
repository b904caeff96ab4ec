// Parse Dashboard at /parse-dashboard, behind its own login (product.md §3).

import ParseDashboard from 'parse-dashboard';
import type { RequestHandler } from 'express';
import type { Config } from './config.ts';

export function createDashboard(config: Config): RequestHandler {
  return new ParseDashboard(
    {
      apps: [
        {
          serverURL: `${config.publicUrl}/parse`,
          appId: config.appId,
          masterKey: config.masterKey,
          appName: 'Guided Learning',
        },
      ],
      users: [{ user: config.dashboard.user, pass: config.dashboard.password }],
      useEncryptedPasswords: false,
      trustProxy: config.trustProxy ? 1 : 0,
    },
    {
      allowInsecureHTTP: config.env !== 'production',
      cookieSessionSecret: config.cookieSecret,
      cookieSessionMaxAge: 8 * 3600 * 1000,
    },
  ) as RequestHandler;
}

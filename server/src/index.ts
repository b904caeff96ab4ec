// `npm start`: read the configuration, start the site, stop cleanly on a signal.

import 'dotenv/config';
import { ConfigError, loadConfig, newAdminLogin, type Config } from './config.ts';
import { startSite } from './start.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

try {
  const site = await startSite(config, {
    // The embedded database died and would not start again: exit at once, non-zero,
    // so that a supervisor (systemd, Docker) starts the site afresh.
    onFatal: () => process.exit(1),
  });
  // One write, so that whoever reads the output sees the whole banner at once.
  const banner = [`Tuition centre site running at ${site.url}`];
  const adminLogin = newAdminLogin(config);
  if (adminLogin) {
    banner.push(adminLogin);
    if (config.dashboard.enabled && config.dashboard.password === undefined) {
      banner.push(
        `Parse Dashboard (read-only): ${site.url}/parse-dashboard with ${config.dashboard.user} and the same password`,
      );
    }
  } else if (config.env !== 'production') {
    banner.push(
      `Admin login: ${config.admin.email} (the password is in ${config.dataDir}/secrets.json or ADMIN_PASSWORD)`,
    );
  }
  console.log(banner.join('\n'));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down...`);
    // Never hang on the way out: a stop that takes this much longer than the
    // grace period for the requests in flight has stuck somewhere.
    const limit = config.shutdownGraceSeconds + 15;
    setTimeout(() => {
      console.error(`Shutdown took over ${limit} s; exiting anyway.`);
      process.exit(1);
    }, limit * 1000).unref();

    await site.stop();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  // The stack too when asked for details (LOG_LEVEL=debug or trace).
  if (config.logLevel === 'debug' || config.logLevel === 'trace') console.error(error);
  process.exit(1);
}

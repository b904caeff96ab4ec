// Stops the site started by global-setup.ts with SIGTERM (a clean shutdown of
// the HTTP server, Parse Server and the embedded PostgreSQL) and removes its data.

import { rmSync } from 'node:fs';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env.E2E_SERVER_PID);
  const dataDir = process.env.E2E_DATA_DIR;
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 30_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (alive(pid)) {
      console.error(`e2e: the site (pid ${pid}) did not stop within 30 s of SIGTERM; killing it`);
      process.kill(pid, 'SIGKILL');
    }
  }
  if (dataDir && dataDir.includes('tc-e2e-')) rmSync(dataDir, { recursive: true, force: true });
}

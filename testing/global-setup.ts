// One embedded PostgreSQL for the whole integration run; each test file makes
// its own database in it (see site.ts), so files own their data.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../server/src/database/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUri: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tc-pg-'));
  const database = await startEmbeddedPostgres(dir);
  project.provide('postgresUri', database.uri);
  return async () => {
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

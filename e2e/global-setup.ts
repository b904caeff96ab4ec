// Checks what the run needs beside the site (which Playwright's webServer starts):
// Debian's Chromium and the built client, with a message that says how to get them.

import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH } from './chromium.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

export default function globalSetup(): void {
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
}

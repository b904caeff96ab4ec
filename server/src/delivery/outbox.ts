// The development outbox: every SMS and e-mail that would have
// been sent is printed and appended to DATA_DIR/outbox.log.

import { appendFile, chmod } from 'node:fs/promises';
import path from 'node:path';

export class Outbox {
  readonly file: string;
  private checked = false;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'outbox.log');
  }

  async write(kind: 'SMS' | 'E-MAIL', to: string, body: string): Promise<void> {
    const entry = `--- ${kind} to ${to} at ${new Date().toISOString()}\n${body}\n`;
    console.log(`[outbox] ${entry}`);
    // Codes are in it: readable by the owner only (mode applies when the file is made).
    await appendFile(this.file, entry + '\n', { mode: 0o600 });
    if (!this.checked) {
      this.checked = true;
      await chmod(this.file, 0o600);
    }
  }
}

// The ledger of erasures, beside the backups (BACKUP_DIR/erasures.jsonl): one line per
// erased account, written when the erasure is made. A database lost entirely knows no
// erasure, and a backup made before one holds the child whole; `npm run restore` reads
// the ledger too, so that the children erased since the backup are shut by the restore
// and erased again when the site starts (erasures-after-restore.ts), onto an empty
// database as over the live one. A line holds the account's id, when it was erased and
// the erasure's entries of the activity log (who erased it; the entries name fields,
// never the values that went): nothing that identifies the child, and nothing the
// database does not keep about an erased account anyway. It is never pruned: a copy of an
// old backup may be restored. Should a write fail, the next start writes what it lacks.

import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { CarriedErasures } from './erasures-after-restore.ts';

export const LEDGER_FILE = 'erasures.jsonl';

type Database = Pick<pg.Pool, 'query'>;

interface LedgerLine {
  id: string;
  erasedAt: string;
  entries: unknown[];
}

const ledgerPath = (dir: string) => path.join(dir, LEDGER_FILE);

/** Appends these accounts' erasures, as the database has them now, to the ledger; gives how many. */
export async function writeToLedger(db: Database, dir: string, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  const { rows } = await db.query<LedgerLine>(
    `SELECT u."objectId" AS id, u."erasedAt" AS "erasedAt",
       COALESCE((SELECT json_agg(row_to_json(a) ORDER BY a."createdAt") FROM "ActivityEntry" a
                 WHERE a.kind = 'student.erase' AND a."targetId" = u."objectId"), '[]') AS entries
     FROM "_User" u WHERE u."objectId" = ANY($1) AND u."erasedAt" IS NOT NULL`,
    [ids],
  );
  if (!rows.length) return 0;
  await mkdir(dir, { recursive: true });
  const file = await open(ledgerPath(dir), 'a+', 0o600);
  try {
    // After a line cut short by a crash, a new line starts on its own.
    const { size } = await file.stat();
    const last = Buffer.alloc(1);
    if (size) await file.read(last, 0, 1, size - 1);
    const start = size && last[0] !== 0x0a ? '\n' : '';
    await file.write(start + rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    await file.datasync();
  } finally {
    await file.close();
  }
  return rows.length;
}

/** Writes every erasure the database has and the ledger lacks (at start); gives how many. */
export async function bringLedgerUpToDate(db: Database, dir: string): Promise<number> {
  const { rows: tables } = await db.query<{ found: boolean }>(
    `SELECT to_regclass('public."_User"') IS NOT NULL AS found`,
  );
  if (!tables[0]?.found) return 0;
  const known = new Set((await readLedger(dir)).ids);
  const { rows } = await db.query<{ id: string }>(`SELECT "objectId" AS id FROM "_User" WHERE "erasedAt" IS NOT NULL`);
  return writeToLedger(
    db,
    dir,
    rows.map((row) => row.id).filter((id) => !known.has(id)),
  );
}

export interface LedgerRead extends CarriedErasures {
  /** Whether there was a ledger at all. */
  found: boolean;
  /** Lines that could not be read, and whose account no whole line names. */
  unreadable: number;
}

/**
 * The erasures of the ledgers in these folders (BACKUP_DIR's, and the one beside a backup
 * copied back from elsewhere), none without one. A line that is not whole (a write cut
 * short by a crash) is skipped; the next start writes the erasure again in full, and the
 * line counts as unreadable only until then (in any ledger read).
 */
export async function readLedgers(dirs: readonly string[]): Promise<LedgerRead> {
  const read = await Promise.all([...new Set(dirs.map((dir) => path.resolve(dir)))].map(readOne));
  const ids = new Set(read.flatMap((one) => one.ids));
  return {
    ids: [...ids],
    entries: read.flatMap((one) => one.entries),
    found: read.some((one) => one.found),
    unreadable: read.flatMap((one) => one.cut).filter((id) => id === undefined || !ids.has(id)).length,
  };
}

export const readLedger = (dir: string): Promise<LedgerRead> => readLedgers([dir]);

/** One ledger's whole lines, and the accounts of its cut ones as far as they tell (undefined: not at all). */
async function readOne(dir: string): Promise<CarriedErasures & { found: boolean; cut: (string | undefined)[] }> {
  let text: string;
  try {
    text = await readFile(ledgerPath(dir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ids: [], entries: [], found: false, cut: [] };
    throw error;
  }
  const ids: string[] = [];
  const entries: unknown[] = [];
  const cut: (string | undefined)[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const parsed = parseLine(line);
    if (!parsed) {
      cut.push(/^\{"id":"([^"\\]+)"/.exec(line)?.[1]);
      continue;
    }
    ids.push(parsed.id);
    entries.push(...parsed.entries);
  }
  return { ids, entries, found: true, cut };
}

function parseLine(line: string): LedgerLine | undefined {
  try {
    const value = JSON.parse(line) as Partial<LedgerLine> | null;
    if (typeof value?.id !== 'string' || !value.id) return undefined;
    return {
      id: value.id,
      erasedAt: String(value.erasedAt),
      entries: Array.isArray(value.entries) ? value.entries : [],
    };
  } catch {
    return undefined;
  }
}

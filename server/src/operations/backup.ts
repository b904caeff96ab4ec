// Backups of the database as a gzipped plain-SQL dump, and their restore.
//
// Why not pg_dump: the embedded PostgreSQL package ships only initdb, pg_ctl and
// postgres (no pg_dump), and Debian's pg_dump (15) refuses a newer server (the
// embedded one is 18). So the dump is written here, the way pg_dump's plain
// format is: inside one REPEATABLE READ snapshot, with every table locked
// against schema changes (ACCESS SHARE: reads and writes go on), it writes the
// extensions, sequences, tables, functions, then each table's rows with
// `COPY ... TO STDOUT`, then sequence values, constraints, indexes and triggers.
// The same code serves the embedded and an external database, and the file can
// also be restored by hand with `gunzip -c FILE | psql DATABASE_URI`.
// The record of backup runs (operations_backups) stays out: a restored site
// starts a new history rather than one whose last run never finished.
// An object the dump does not know how to write (a view, a custom type, an
// identity or generated column) fails the backup loudly rather than dropping it.

import { MAIL_QUEUE_SCHEMA } from '../mail-queue/mail-queue.ts';
import { readLedgers } from './erasure-ledger.ts';
import { carryErasures, joinErasures, readErasures } from './erasures-after-restore.ts';
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

export const BACKUP_PREFIX = 'tuition-';
export const BACKUP_SUFFIX = '.sql.gz';
const FORMAT_LINE = '-- tuition-centre backup, format 1';

export class BackupError extends Error {}

export interface BackupResult {
  file: string;
  bytes: number;
  sha256: string;
  ms: number;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** `tuition-2026-11-23T02-00-00Z.sql.gz`: sorts by time, safe in every file system. */
export function backupName(at = new Date()): string {
  return `${BACKUP_PREFIX}${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z${BACKUP_SUFFIX}`;
}

/** The backups in a folder, oldest first. */
export function listBackups(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith(BACKUP_PREFIX) && name.endsWith(BACKUP_SUFFIX))
    .sort()
    .map((name) => path.join(dir, name));
}

/** A backup being written: renamed to its name once whole. */
const PARTIAL = '.partial';

/**
 * A partial file left this long without a write is no backup being written: one cut off by
 * a crash or a kill (a live dump writes as it reads, every few seconds at most).
 */
const STALE_PARTIAL_MS = 60 * 60 * 1000;

/**
 * Keeps the newest `keep` backups (and their checksums); returns the removed ones. Also
 * removes what a dump cut off by a crash left (a partial copy of every child's data that
 * would otherwise stay past the backups' own keeping).
 */
export function pruneBackups(dir: string, keep: number, now = Date.now()): string[] {
  const all = listBackups(dir);
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const file of old) {
    rmSync(file, { force: true });
    rmSync(`${file}.sha256`, { force: true });
  }
  const stale = readdirSync(dir)
    .filter((name) => name.startsWith(BACKUP_PREFIX) && name.endsWith(`${BACKUP_SUFFIX}${PARTIAL}`))
    .map((name) => path.join(dir, name))
    .filter((file) => now - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? now) > STALE_PARTIAL_MS);
  for (const file of stale) rmSync(file, { force: true });
  return [...old, ...stale];
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Checks FILE against FILE.sha256 (`sha256sum -c` reads the same file). */
export async function verifyChecksum(file: string): Promise<void> {
  const sumFile = `${file}.sha256`;
  if (!existsSync(file)) throw new BackupError(`No such backup: ${file}`);
  if (!existsSync(sumFile)) throw new BackupError(`No checksum file ${sumFile} beside the backup`);
  const expected = readFileSync(sumFile, 'utf8').trim().split(/\s+/)[0];
  const actual = await sha256Of(file);
  if (expected !== actual)
    throw new BackupError(`Checksum mismatch: ${file} is damaged or not the file ${sumFile} describes`);
}

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  defaultValue: string | null;
  identity: string;
  generated: string;
}

/** Writes the database's `public` schema and rows into a new backup in `dir`. */
export async function backupDatabase(
  databaseUri: string,
  dir: string,
  at = new Date(),
  /** Aborted (the site stopping), the dump ends its connection and fails, leaving no file. */
  signal?: AbortSignal,
): Promise<BackupResult> {
  const started = Date.now();
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, backupName(at));
  const partial = `${file}${PARTIAL}`;
  const client = new pg.Client({ connectionString: databaseUri, application_name: 'tuition-backup' });
  // A connection lost mid-dump fails the query under way; unheard, its 'error' event would end the site.
  client.on('error', () => undefined);
  await client.connect();
  const cutShort = () => void client.end().catch(() => undefined);
  signal?.addEventListener('abort', cutShort, { once: true });
  // Aborted while connecting: no 'abort' comes any more.
  if (signal?.aborted) cutShort();
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(partial, { mode: 0o600 }));
  // A failed write (a full disk) is seen by the next write, or at the end: never unhandled.
  written.catch(() => undefined);
  const write = async (text: string | Buffer) => {
    if (!gzip.write(text)) await Promise.race([once(gzip, 'drain'), written]);
  };
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await refuseUnsupported(client);
    const { rows: version } = await client.query<{ server_version: string }>('SHOW server_version');
    const tables = (
      await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT ${isExtensionMember('c.oid')}
           AND c.relname <> 'operations_backups'
         ORDER BY c.relname`,
      )
    ).rows.map((r) => r.name);
    const dumped = tables.map((table) => `public.${ident(table)}`);
    // Schema changes wait for the dump; reads and writes go on.
    for (const table of tables) await client.query(`LOCK TABLE public.${ident(table)} IN ACCESS SHARE MODE`);

    await write(
      `${FORMAT_LINE}, taken ${at.toISOString()} from PostgreSQL ${version[0]!.server_version}\n` +
        `SET client_encoding = 'UTF8';\nSET standard_conforming_strings = on;\nSET check_function_bodies = false;\n\n`,
    );
    const { rows: extensions } = await client.query<{ name: string }>(
      `SELECT extname AS name FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY extname`,
    );
    for (const e of extensions) await write(`CREATE EXTENSION IF NOT EXISTS ${ident(e.name)} WITH SCHEMA public;\n`);

    const { rows: sequences } = await client.query<{
      name: string;
      start_value: string;
      increment_by: string;
      min_value: string;
      max_value: string;
      cache_size: string;
      cycle: boolean;
    }>(
      `SELECT sequencename AS name, start_value, increment_by, min_value, max_value, cache_size, cycle
       FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename`,
    );
    for (const s of sequences) {
      await write(
        `CREATE SEQUENCE public.${ident(s.name)} INCREMENT BY ${s.increment_by} MINVALUE ${s.min_value} ` +
          `MAXVALUE ${s.max_value} START WITH ${s.start_value} CACHE ${s.cache_size}${s.cycle ? ' CYCLE' : ''};\n`,
      );
    }

    const columnsOf = new Map<string, Column[]>();
    for (const table of tables) {
      const { rows: columns } = await client.query<Column>(
        `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull",
                pg_get_expr(d.adbin, d.adrelid) AS "defaultValue", a.attidentity AS identity, a.attgenerated AS generated
         FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
        [`public.${ident(table)}`],
      );
      const odd = columns.find((c) => c.identity || c.generated);
      if (odd) throw new BackupError(`The backup cannot write the identity or generated column ${table}.${odd.name}`);
      columnsOf.set(table, columns);
      const lines = columns.map(
        (c) =>
          `  ${ident(c.name)} ${c.type}${c.defaultValue ? ` DEFAULT ${c.defaultValue}` : ''}${c.notNull ? ' NOT NULL' : ''}`,
      );
      await write(`\nCREATE TABLE public.${ident(table)} (\n${lines.join(',\n')}\n);\n`);
    }

    const { rows: functions } = await client.query<{ def: string }>(
      `SELECT pg_get_functiondef(p.oid) AS def FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p') AND NOT ${isExtensionMember('p.oid')}
       ORDER BY p.proname, p.oid`,
    );
    for (const f of functions) await write(`\n${f.def.trimEnd()};\n`);

    for (const table of tables) {
      const columns = columnsOf
        .get(table)!
        .map((c) => ident(c.name))
        .join(', ');
      await write(`\nCOPY public.${ident(table)} (${columns}) FROM stdin;\n`);
      const rows = client.query(copyTo(`COPY public.${ident(table)} (${columns}) TO STDOUT`));
      for await (const chunk of rows) await write(chunk as Buffer);
      await write('\\.\n');
    }

    await write('\n');
    for (const s of sequences) {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
        `SELECT last_value, is_called FROM public.${ident(s.name)}`,
      );
      await write(
        `SELECT pg_catalog.setval('public.${ident(s.name)}', ${rows[0]!.last_value}, ${rows[0]!.is_called});\n`,
      );
    }

    // Keys, unique and check constraints, then foreign keys, indexes and triggers.
    const { rows: constraints } = await client.query<{ tbl: string; name: string; def: string }>(
      `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE n.nspname = 'public' AND c.conrelid = ANY($1::regclass[]) AND c.contype IN ('p', 'u', 'c', 'x', 'f')
       ORDER BY c.contype = 'f', c.conrelid::regclass::text, c.conname`,
      [dumped],
    );
    for (const c of constraints) await write(`ALTER TABLE ONLY ${c.tbl} ADD CONSTRAINT ${ident(c.name)} ${c.def};\n`);
    const { rows: indexes } = await client.query<{ def: string }>(
      `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE i.indrelid = ANY($1::regclass[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
       ORDER BY c.relname`,
      [dumped],
    );
    for (const i of indexes) await write(`${i.def};\n`);
    const { rows: triggers } = await client.query<{ def: string }>(
      `SELECT pg_get_triggerdef(t.oid) AS def FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE t.tgrelid = ANY($1::regclass[]) AND NOT t.tgisinternal`,
      [dumped],
    );
    for (const t of triggers) await write(`${t.def};\n`);
    await write('-- end of backup\n');
    await client.query('COMMIT');
    gzip.end();
    await written;
  } catch (error) {
    gzip.destroy();
    await written.catch(() => undefined);
    rmSync(partial, { force: true });
    throw error;
  } finally {
    signal?.removeEventListener('abort', cutShort);
    await client.end().catch(() => undefined);
  }
  // On the disk before it takes a backup's name: a power cut right after leaves a whole file or none.
  const fd = openSync(partial, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  const sha256 = await sha256Of(file);
  writeFileSync(`${file}.sha256`, `${sha256}  ${path.basename(file)}\n`, { mode: 0o600 });
  return { file, bytes: statSync(file).size, sha256, ms: Date.now() - started };
}

const isExtensionMember = (oid: string) =>
  `EXISTS (SELECT 1 FROM pg_depend dep WHERE dep.objid = ${oid} AND dep.deptype = 'e')`;

/**
 * The mail queue's own schema is working state, not data: the mails it holds are
 * also in public.mail_delivery with their message, and the queue sends those
 * again when the site starts on a restored database (mail-queue.ts).
 */
async function refuseUnsupported(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ what: string }>(
    `SELECT c.relkind::text || ' ' || c.relname AS what FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('v', 'm', 'f', 'c') AND NOT ${isExtensionMember('c.oid')}
     UNION ALL
     SELECT 'type ' || t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = 'public' AND t.typtype IN ('e', 'd', 'r', 'm') AND NOT ${isExtensionMember('t.oid')}
     UNION ALL
     SELECT 'schema ' || nspname FROM pg_namespace
     WHERE nspname NOT IN ('public', 'information_schema', '${MAIL_QUEUE_SCHEMA}') AND nspname NOT LIKE 'pg\\_%'
       AND NOT EXISTS (SELECT 1 FROM pg_depend dep WHERE dep.objid = pg_namespace.oid AND dep.deptype = 'e')
       AND EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = pg_namespace.oid)`,
  );
  if (rows.length) {
    throw new BackupError(`The backup cannot write these database objects: ${rows.map((r) => r.what).join(', ')}`);
  }
}

/** Does the database hold any table of its own? */
export async function holdsData(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'S', 'v', 'm') AND NOT ${isExtensionMember('c.oid')}`,
  );
  return rows[0]!.n > 0;
}

/** Other sessions on the database: a running site (or anything else) using it. */
export async function otherSessions(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  );
  return rows[0]!.n;
}

/**
 * Restores a backup into the database in one transaction: all of it or nothing.
 * Refuses a database that holds data unless `force`, which empties it first. The
 * children erased since the backup, as the database it replaces and the ledgers in
 * `ledgerDirs` know them, stay erased (erasures-after-restore.ts).
 */
export async function restoreDatabase(
  databaseUri: string,
  file: string,
  options: { force?: boolean; ledgerDirs?: readonly string[] } = {},
): Promise<{ erasuresCarried: number; ledgerFound: boolean; unreadableLedgerLines: number }> {
  await verifyChecksum(file);
  const ledger = await readLedgers(options.ledgerDirs ?? []);
  const client = new pg.Client({ connectionString: databaseUri, application_name: 'tuition-restore' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const others = await otherSessions(client);
    if (others > 0) {
      throw new BackupError(`${others} other connection(s) use this database: stop the site before restoring`);
    }
    if ((await holdsData(client)) && !options.force) {
      throw new BackupError('The database already holds data; add --force to replace it with the backup');
    }
    // Children erased in the database about to be replaced, or in the ledger, stay erased.
    const erasures = joinErasures(ledger, options.force ? await readErasures(client) : { ids: [], entries: [] });
    await client.query('BEGIN');
    if (options.force) await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
    let sql = '';
    let copy: ReturnType<typeof copyFrom> | undefined;
    let copyDone: Promise<void> | undefined;
    // PostgreSQL's refusal of a row, kept: the stream cannot be written after it.
    let copyError: Error | undefined;
    let first = true;
    let complete = false;
    try {
      for await (const line of lines) {
        if (first) {
          if (!line.startsWith(FORMAT_LINE)) throw new BackupError(`${file} is not a backup of this site`);
          first = false;
        }
        if (copy) {
          if (copyError) throw copyError;
          if (line === '\\.') {
            copy.end();
            await copyDone;
            copy = undefined;
          } else if (!copy.write(`${line}\n`)) {
            await once(copy, 'drain');
          }
          continue;
        }
        if (line === '-- end of backup') complete = true;
        const copyStart = /^COPY .* FROM stdin;$/.exec(line);
        if (copyStart) {
          if (sql.trim()) await client.query(sql);
          sql = '';
          copy = client.query(copyFrom(line.replace(/ FROM stdin;$/, ' FROM STDIN')));
          const stream = copy;
          copyDone = new Promise((resolve, reject) => {
            stream.on('finish', resolve);
            stream.on('error', (error: Error) => {
              // A row refused: PostgreSQL has left the copy. The stream is let go at once, with
              // any rows still waiting to be sent (which would otherwise be flushed later onto
              // a connection the stream no longer has, an uncaught error).
              copyError ??= error;
              stream.destroy();
              reject(error);
            });
          });
          // Awaited at the copy's end; a row PostgreSQL refuses before that ends the loop instead.
          copyDone.catch(() => undefined);
          continue;
        }
        sql += `${line}\n`;
      }
      if (!complete || copy) throw new BackupError(`${file} is cut short: it does not end as a whole backup does`);
    } catch (error) {
      // What stopped the restore: a row PostgreSQL refused, or what was thrown here.
      const failure = copyError ?? error;
      // A table's rows being copied: PostgreSQL is told the copy failed (CopyFail), or the
      // connection would wait for the rest of it and the rollback below for ever.
      if (copy && !copyError) {
        copy.destroy(new Error('restore stopped'));
        await copyDone?.catch(() => undefined);
      }
      // A gzip stream cut short (zlib's "unexpected end of file", its checksum made after the
      // cut), a row PostgreSQL refuses ("missing data for column ...", 22P04) or a statement
      // cut short: the file's fault. Anything else (the connection lost, a full disk) is not.
      const code = (failure as { code?: unknown }).code;
      if (!(failure instanceof BackupError) && typeof code === 'string' && /^(Z_|22|42601)/.test(code)) {
        throw new BackupError(`${file} is damaged or cut short (${(failure as Error).message})`);
      }
      throw failure;
    }
    if (sql.trim()) await client.query(sql);
    const carried = await carryErasures(client, erasures);
    await client.query('COMMIT');
    return { erasuresCarried: carried, ledgerFound: ledger.found, unreadableLedgerLines: ledger.unreadable };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

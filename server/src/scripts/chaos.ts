// `npm run chaos`: fault injection against `npm start`'s server as a real process
// on its embedded PostgreSQL (issue 12). Each fault hits a burst of registrations;
// afterwards the script counts, per fault, the registrations acknowledged (201)
// against the accounts present, the parents who could still finish with the code
// they hold, the answers' statuses and how long the site took to be ready again.
// Nothing here is a test: it prints a table, and exits 1 if any acknowledged
// registration is missing or any parent is left with a spent code and no account.

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stopOrphanedPostmaster } from '../database/embedded.ts';
import { freePort } from '../net.ts';
import { type Captures, startCaptures } from '../../../testing/captures.ts';
import { codeIn } from '../../../testing/codes.ts';
import { runSite, type SiteProcess } from '../../../testing/processes.ts';
import { newStudent } from '../../../testing/students.ts';

const BURST = Number(process.env.CHAOS_BURST ?? 30);
const dataDir = mkdtempSync(path.join(tmpdir(), 'tc-chaos-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let captures = undefined as unknown as Captures;
let port: number;
let site: SiteProcess | undefined;

async function start(): Promise<SiteProcess> {
  site = runSite({
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'chaos-admin-1',
    SMTP_URL: captures.smtpUrl,
    SMS_WEBHOOK_URL: captures.smsUrl,
    RATE_LIMIT_MAX: '100000',
    SMS_TIMEOUT_MS: '2000',
  });
  await site.waitFor('running at', 120_000);
  return site;
}

async function call(method: string, route: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      return { status: res.status, body: text };
    }
  } catch {
    return { status: 0, body: null }; // no answer: connection refused, reset or timed out
  }
}

async function parents(n: number) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const student = newStudent();
      await call('POST', '/api/send-sms', { mobile: student.mobile });
      for (let i = 0; i < 200; i++) {
        const sms = captures.sms.find((s) => s.to === student.mobile);
        if (sms) return { student, otp: codeIn(sms.message) };
        await sleep(50);
      }
      throw new Error('no SMS');
    }),
  );
}

function postmasterPid(): number {
  return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function backendsOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function readyAgain(since: number): Promise<number> {
  for (;;) {
    if ((await call('GET', '/api/ready')).status === 200) return Date.now() - since;
    if (Date.now() - since > 120_000) return -1;
    await sleep(100);
  }
}

interface Fault {
  name: string;
  /** Does the fault; returns when the site should be up again (restarting it if needed). */
  inject(): Promise<void>;
}

const allFaults: Fault[] = [
  {
    name: 'SIGTERM (drain)',
    inject: async () => {
      site!.child.kill('SIGTERM');
      await site!.exited;
      await start();
    },
  },
  {
    name: 'kill -9 of the app',
    inject: async () => {
      site!.child.kill('SIGKILL');
      await site!.exited;
      await start();
    },
  },
  {
    name: 'kill -9 of the postmaster',
    inject: () => {
      process.kill(postmasterPid(), 'SIGKILL');
      return Promise.resolve();
    },
  },
  {
    name: 'database frozen 5 s',
    inject: async () => {
      const pid = postmasterPid();
      const frozen = [pid, ...backendsOf(pid)];
      for (const p of frozen) process.kill(p, 'SIGSTOP');
      await sleep(5_000);
      for (const p of frozen) process.kill(p, 'SIGCONT');
    },
  },
  {
    name: 'SMS gateway slower than its timeout',
    inject: async () => {
      captures.smsDelayMs = 3_000;
      await sleep(3_000);
    },
  },
];

const faults = process.env.CHAOS_ONLY
  ? allFaults.filter((fault) => fault.name.includes(process.env.CHAOS_ONLY!))
  : allFaults;

async function main() {
  captures = await startCaptures();
  port = await freePort();
  await start();
  const rows: Array<Record<string, string | number>> = [];
  let bad = false;
  for (const fault of faults) {
    captures.smsDelayMs = 0;
    const held = await parents(BURST);
    const burst = held.map(({ student, otp }) => call('POST', '/api/register', { ...student, otp }));
    await sleep(150);
    const faultAt = Date.now();
    await fault.inject();
    const answers = await Promise.all(burst);
    const readyMs = await readyAgain(faultAt);
    captures.smsDelayMs = 0;

    let present = 0;
    let lost = 0;
    let finishedLater = 0;
    let stuck = 0;
    for (const [i, { student, otp }] of held.entries()) {
      const exists = (await call('POST', '/api/check-email', { email: student.email })).body as { exists?: boolean };
      if (exists?.exists) present++;
      if (answers[i]!.status === 201 && !exists?.exists) lost++;
      if (!exists?.exists) {
        const again = await call('POST', '/api/register', { ...student, otp });
        if (again.status === 201) finishedLater++;
        else stuck++;
      }
    }
    const statuses: Record<number, number> = {};
    for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    const acknowledged = answers.filter((a) => a.status === 201).length;
    if (lost || stuck) bad = true;
    rows.push({
      fault: fault.name,
      acknowledged,
      present,
      'lost (acknowledged, absent)': lost,
      'finished later with their code': finishedLater,
      'code spent, no account': stuck,
      statuses: Object.entries(statuses)
        .map(([status, n]) => `${status === '0' ? 'no answer' : status}×${n}`)
        .join(' '),
      'ready again after ms': readyMs,
    });
    console.log(`${fault.name}: done`);
    if (process.env.CHAOS_VERBOSE) console.log(site!.output().slice(-6000));
  }
  console.table(rows);
  return bad ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error);
} finally {
  if (site && site.child.exitCode === null) {
    site.child.kill('SIGTERM');
    await site.exited;
  }
  await stopOrphanedPostmaster(path.join(dataDir, 'postgres')).catch(() => undefined);
  await (captures as Captures | undefined)?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);

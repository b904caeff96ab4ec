// Live updates on the real site (docs/decisions/0013-live-updates.md): Parse's
// LiveQuery server on the site's own port at /parse, spoken to with plain `ws`
// as the browser's SDK does. Each "receives nothing" is checked while a real
// change of that very data happens, against a socket that does hear of it.

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@tc/domain/errors';
import { HOLIDAYS_SIGNAL, LIVE_SIGNAL_CLASS, STUDENTS_SIGNAL, timetableSignal } from '@tc/domain/live';
import { ServerMessage } from '@tc/domain/server-messages';
import { LiveSocket } from '../../testing/live-socket.ts';
import { LIVE_SOCKETS_PER_ADDRESS } from './live-query.ts';
import { CONNECT_DEADLINE_MS } from './live-query-guard.ts';
import { loginAdmin, loginStudent, register, smsCode, startTestSite, type TestSite } from '../../testing/site.ts';
import { newStudent } from '../../testing/students.ts';
import { until } from '../../testing/until.ts';

let t: TestSite;
let admin: string;
let student: { token: string; objectId: string; email: string };
const sockets: LiveSocket[] = [];
/** How long "nothing arrives" is watched after a change that a control socket did hear of. */
const QUIET_MS = 1_000;

beforeAll(async () => {
  // Clients at other addresses are played through X-Forwarded-For (the rate-limit test below).
  t = await startTestSite({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT_MAX: '20' });
  admin = await loginAdmin(t);
  const { student: made, result } = await register(t, newStudent({ grade: 6, board: 'CBSE' }));
  student = {
    token: await loginStudent(t, made.email, made.password),
    objectId: result.body.objectId as string,
    email: made.email,
  };
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.stop();
});

async function open(token?: string): Promise<LiveSocket> {
  const socket = await LiveSocket.open(t.url, t.site.config.appId, token);
  sockets.push(socket);
  return socket;
}

const slot = (grade: number, board: string, start: string) => ({
  grade,
  board,
  subject: 'Mathematics',
  weekday: 2,
  start,
  duration: 30,
  teacher: 'Mrs Rao',
  link: 'https://meet.example.com/maths',
});

async function addSlot(grade: number, board: string, start: string): Promise<void> {
  const res = await t.api('POST', '/api/timetable/slots', slot(grade, board, start), admin);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the LiveQuery server', () => {
  it("is the only WebSocket the pages' content security policy allows", async () => {
    const page = await fetch(`${t.url}/api/health`);
    const policy = page.headers.get('content-security-policy') ?? '';
    const connect = policy.split(';').find((directive) => directive.trim().startsWith('connect-src'));
    const host = new URL(t.site.url).host;
    expect(connect?.trim()).toBe(`connect-src 'self' ws://${host}`);
    // What the browser's SDK is initialised with: the app id and the path, never a key.
    const config = await t.api('GET', '/api/parse-config');
    expect(config.body).toEqual({ appId: t.site.config.appId, serverPath: '/parse' });
    expect(policy).not.toMatch(/wss?:\/\/(?!localhost:|127\.0\.0\.1:)/);
  });

  it('shares the site port at /parse only, and never takes the master key from a socket', async () => {
    const elsewhere = LiveSocket.open(t.url, t.site.config.appId, undefined, '/api/health');
    await expect(elsewhere).rejects.toThrow(/404/);
    // A socket that sends the master key is an anonymous socket all the same.
    const claimed = await LiveSocket.open(t.url, t.site.config.appId, undefined, '/parse', {
      masterKey: t.site.config.masterKey,
    });
    sockets.push(claimed);
    expect((await claimed.subscribe('_User', {})).op).toBe('error');
    expect((await claimed.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL })).op).toBe('error');
  });

  it('tells an admin socket of a registration, an edit and a deactivation, with no personal data', async () => {
    const socket = await open(admin);
    const sub = await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, admin);
    expect(sub.op).toBe('subscribed');

    const { result } = await register(t, newStudent());
    expect(result.status).toBe(201);
    await until(() => socket.events(sub.id).length >= 1, 3_000);
    const [event] = socket.events(sub.id);
    // The key, a counter and Parse's own fields: nothing about the student.
    expect(Object.keys(event!.object!).sort()).toEqual(
      ['ACL', 'changes', 'className', 'createdAt', 'key', 'objectId', 'updatedAt', '__type'].filter(
        (key) => key in event!.object!,
      ),
    );
    expect(JSON.stringify(event)).not.toMatch(/@example\.com|Student /);

    const edited = await t.api('PUT', `/api/users/${result.body.objectId}`, { board: 'ICSE' }, admin);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await until(() => socket.events(sub.id).length >= 2, 3_000);
    const status = await t.api('PUT', `/api/users/${result.body.objectId}/status`, { status: 'deactivated' }, admin);
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    await until(() => socket.events(sub.id).length >= 3, 3_000);
  });

  it('gives an anonymous socket nothing: no account, no activity log, no signal', async () => {
    const control = await open(admin);
    const heard = await control.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, admin);
    const anonymous = await open();
    const answers = [
      await anonymous.subscribe('_User', {}),
      await anonymous.subscribe('_User', { objectId: student.objectId }),
      await anonymous.subscribe('ActivityEntry', {}),
      await anonymous.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }),
      await anonymous.subscribe(LIVE_SIGNAL_CLASS, { key: HOLIDAYS_SIGNAL }),
      await anonymous.subscribe(LIVE_SIGNAL_CLASS, {}),
    ];
    expect(answers.map((a) => a.op)).toEqual(Array(answers.length).fill('error'));

    // A real change of each: an account edited (and so logged), a registration.
    const before = heard.id && control.events(heard.id).length;
    expect((await t.api('PUT', `/api/users/${student.objectId}`, { gender: 'Daughter' }, admin)).status).toBe(200);
    await register(t, newStudent());
    await until(() => control.events(heard.id).length >= before + 2, 3_000);
    await sleep(QUIET_MS);
    expect(anonymous.others().filter((m) => m.op !== 'error')).toEqual([]);
  });

  it("gives a student's socket only their own batch's timetable and the holidays", async () => {
    const control = await open(admin);
    const otherBatch = await control.subscribe(LIVE_SIGNAL_CLASS, { key: timetableSignal(7, 'ICSE') }, admin);
    const adminStudents = await control.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, admin);
    expect([otherBatch.op, adminStudents.op]).toEqual(['subscribed', 'subscribed']);

    const socket = await open(student.token);
    const refused = [
      await socket.subscribe('_User', {}, student.token),
      // Their own account, by id: still no (the class is closed to LiveQuery).
      await socket.subscribe('_User', { objectId: student.objectId }, student.token),
      await socket.subscribe('ActivityEntry', {}, student.token),
      await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, student.token),
      await socket.subscribe(LIVE_SIGNAL_CLASS, { key: timetableSignal(7, 'ICSE') }, student.token),
      await socket.subscribe(LIVE_SIGNAL_CLASS, { key: timetableSignal(6, 'ICSE') }, student.token),
      // Every key at once, or a trick around the one-key rule.
      await socket.subscribe(LIVE_SIGNAL_CLASS, {}, student.token),
      await socket.subscribe(LIVE_SIGNAL_CLASS, { key: { $in: [STUDENTS_SIGNAL] } }, student.token),
      await socket.subscribe(
        LIVE_SIGNAL_CLASS,
        { key: timetableSignal(6, 'CBSE'), $or: [{ key: STUDENTS_SIGNAL }] },
        student.token,
      ),
      // Someone else's token-less subscription on the student's socket is the socket's session.
      await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }),
    ];
    for (const answer of refused) {
      expect(answer.op, JSON.stringify(answer)).toBe('error');
    }
    expect(refused.find((a) => a.code === ErrorCode.Forbidden)?.error).toBe(ServerMessage.liveKeyRefused);

    const own = await socket.subscribe(LIVE_SIGNAL_CLASS, { key: timetableSignal(6, 'CBSE') }, student.token);
    const holidays = await socket.subscribe(LIVE_SIGNAL_CLASS, { key: HOLIDAYS_SIGNAL }, student.token);
    expect([own.op, holidays.op]).toEqual(['subscribed', 'subscribed']);

    // Another batch's change and a registration: heard by the admin, not by the student.
    await addSlot(7, 'ICSE', '16:00');
    await register(t, newStudent());
    await until(() => control.events(otherBatch.id).length >= 1 && control.events(adminStudents.id).length >= 1, 3_000);
    await sleep(QUIET_MS);
    expect(socket.events(own.id)).toEqual([]);
    expect(socket.others().filter((m) => m.op !== 'error')).toEqual([]);

    // Their own batch's change, and a slot for all boards of their grade: heard.
    await addSlot(6, 'CBSE', '16:00');
    await until(() => socket.events(own.id).length === 1, 3_000);
    await addSlot(6, 'All', '17:00');
    await until(() => socket.events(own.id).length === 2, 3_000);
    expect(JSON.stringify(socket.events(own.id))).not.toMatch(/Mathematics|Rao|meet\.example/);
  });

  it('refuses a deactivated student and an ended session', async () => {
    const { student: made, result } = await register(t, newStudent({ grade: 3, board: 'State' }));
    const token = await loginStudent(t, made.email, made.password);
    const key = { key: timetableSignal(3, 'State') };
    const socket = await open(token);
    expect((await socket.subscribe(LIVE_SIGNAL_CLASS, key, token)).op).toBe('subscribed');
    expect((await t.api('POST', '/api/student/logout', {}, token)).status).toBe(200);
    // The socket's session cache lasts a few seconds (live-query.ts).
    await sleep(5_500);
    expect((await socket.subscribe(LIVE_SIGNAL_CLASS, key, token)).op).toBe('error');

    const again = await loginStudent(t, made.email, made.password);
    const status = await t.api('PUT', `/api/users/${result.body.objectId}/status`, { status: 'deactivated' }, admin);
    expect(status.status).toBe(200);
    const later = await open(again);
    expect((await later.subscribe(LIVE_SIGNAL_CLASS, key, again)).op).toBe('error');
  });
});

describe('what a socket may ask', () => {
  it('only one LiveSignal key per subscription, of any session', async () => {
    const socket = await open(admin);
    for (const [className, where] of [
      ['Nope', { key: STUDENTS_SIGNAL }],
      ['_Session', {}],
      [LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL, other: 1 }],
      [LIVE_SIGNAL_CLASS, { key: { $regex: '.*' } }],
      [LIVE_SIGNAL_CLASS, { key: 'x'.repeat(65) }],
    ] as const) {
      const answer = await socket.subscribe(className, where, admin);
      expect(answer, JSON.stringify({ className, where })).toMatchObject({
        op: 'error',
        code: ErrorCode.Forbidden,
        error: ServerMessage.liveKeyRefused,
      });
    }
    // The same socket still follows what it may.
    expect((await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, admin)).op).toBe('subscribed');
  });

  it('at most ten subscriptions at once', async () => {
    const socket = await open(admin);
    const held: Awaited<ReturnType<LiveSocket['subscribe']>>[] = [];
    for (let i = 0; i < 10; i++) held.push(await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, admin));
    expect(held.map((answer) => answer.op)).toEqual(Array(10).fill('subscribed'));
    const eleventh = await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, admin);
    expect(eleventh).toMatchObject({ op: 'error', error: ServerMessage.liveTooManySubscriptions });
    socket.send(JSON.stringify({ op: 'unsubscribe', requestId: held[0]!.id }));
    expect((await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, admin)).op).toBe('subscribed');
    // A held id asked for again in a way the guard refuses frees no place: Parse still holds it.
    socket.send(
      JSON.stringify({
        op: 'subscribe',
        requestId: held[1]!.id,
        query: { className: LIVE_SIGNAL_CLASS, where: { key: 1 } },
        sessionToken: admin,
      }),
    );
    await socket.next((m) => m.op === 'error' && m.requestId === held[1]!.id);
    const more = await socket.subscribe(LIVE_SIGNAL_CLASS, { key: STUDENTS_SIGNAL }, admin);
    expect(more).toMatchObject({ op: 'error', error: ServerMessage.liveTooManySubscriptions });
  });

  it('is closed for a flood, a binary frame or a frame that is not text', async () => {
    const flood = await open();
    const floodClosed = flood.closed;
    for (let i = 0; i < 70; i++) flood.send(JSON.stringify({ op: 'unsubscribe', requestId: i }));
    expect(await floodClosed).toBe(1008);

    const binary = await open();
    const binaryClosed = binary.closed;
    binary.send(Buffer.from('{"op":"connect"}'));
    expect(await binaryClosed).toBe(1008);

    // A masked text frame that is not UTF-8: ws refuses it; the site logs one line and goes on.
    const broken = await open();
    const brokenClosed = broken.closed;
    (broken as unknown as { ws: { _socket: { write(b: Buffer): void } } }).ws._socket.write(
      Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xff, 0xfe]),
    );
    expect(await brokenClosed).toBeGreaterThan(1000);
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });

  it('is closed for anything but the four operations, for text that is not JSON, and for a second connect', async () => {
    for (const frame of [
      'hello',
      JSON.stringify({ op: 'delete' }),
      JSON.stringify([1]),
      JSON.stringify({ op: 'subscribe', query: {} }),
      // Each connect is a client Parse keeps until the process ends: one per socket.
      JSON.stringify({ op: 'connect', applicationId: t.site.config.appId }),
    ]) {
      const socket = await open();
      const closed = socket.closed;
      socket.send(frame);
      expect(await closed, frame).toBe(1008);
    }
  });
});

describe('how many sockets, and for how long', () => {
  /**
   * A socket at /parse from `address` (played through X-Forwarded-For), connected as a page's
   * is when `connect` (a minute before the sweep closes it, with no subscription), or the
   * status it was refused with.
   */
  async function bare(address: string, connect = true): Promise<WebSocket | number> {
    const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/parse`, { headers: { 'x-forwarded-for': address } });
    const opened = await new Promise<WebSocket | number>((resolve, reject) => {
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      });
      ws.once('error', reject);
    });
    if (opened instanceof WebSocket && connect) {
      const connected = once(ws, 'message');
      ws.send(JSON.stringify({ op: 'connect', applicationId: t.site.config.appId }));
      await connected;
    }
    return opened;
  }

  it('closes a socket that never says connect once its deadline has passed', async () => {
    const ws = (await bare('203.0.113.5', false)) as WebSocket;
    const opened = Date.now();
    const [code, reason] = (await once(ws, 'close')) as [number, Buffer];
    expect([code, String(reason)]).toEqual([1008, 'no connect']);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(CONNECT_DEADLINE_MS - 50);
  }, 30_000);

  it('takes at most LIVE_SOCKETS_PER_ADDRESS sockets from one address at once, and takes the next once one goes', async () => {
    const held: WebSocket[] = [];
    try {
      for (let i = 0; i < LIVE_SOCKETS_PER_ADDRESS; i++) {
        const ws = await bare('198.51.100.7');
        expect(ws, `socket ${i + 1}`).toBeInstanceOf(WebSocket);
        held.push(ws as WebSocket);
      }
      expect(await bare('198.51.100.7')).toBe(429);
      // Another address is not held up.
      const other = await bare('198.51.100.8');
      expect(other).toBeInstanceOf(WebSocket);
      (other as WebSocket).close();
      const first = held.shift()!;
      const gone = once(first, 'close');
      first.close();
      await gone;
      await until(async () => {
        const again = await bare('198.51.100.7');
        if (again instanceof WebSocket) held.push(again);
        return again instanceof WebSocket;
      }, 5_000);
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    } finally {
      for (const ws of held) ws.terminate();
    }
  });
});

describe("registration through Parse's REST, as the browser's SDK sends it", () => {
  /** What Parse.Cloud.run sends: text/plain JSON with the app id and installation id in the body. */
  async function cloudRun(name: string, params: Record<string, unknown>, ip: string) {
    const res = await fetch(`${t.url}/parse/functions/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-forwarded-for': ip },
      body: JSON.stringify({
        ...params,
        _ApplicationId: t.site.config.appId,
        _ClientVersion: 'js8.6.0',
        _InstallationId: randomBytes(8).toString('hex'),
      }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('registers, and answers refusals with the code, the text and the field the form needs', async () => {
    const someone = newStudent();
    expect((await t.api('POST', '/api/send-sms', { mobile: someone.mobile })).status).toBe(200);
    const otp = await smsCode(t, someone.mobile);
    const ip = '198.51.100.20';

    const badName = await cloudRun('registerStudent', { ...someone, fullname: '  ', otp }, ip);
    expect(badName.status).toBe(400);
    expect(badName.body).toMatchObject({ code: ErrorCode.Validation, field: 'fullname' });
    const viaApi = await t.api('POST', '/api/register', { ...someone, fullname: '  ', otp });
    expect(badName.body.error).toBe(viaApi.body.error);

    const wrong = await cloudRun('registerStudent', { ...someone, otp: otp === '000000' ? '111111' : '000000' }, ip);
    expect(wrong.body).toMatchObject({ code: ErrorCode.WrongCode, error: ServerMessage.wrongCode });

    const done = await cloudRun('registerStudent', { ...someone, otp }, ip);
    expect(done.status).toBe(200);
    expect(done.body.result).toMatchObject({ objectId: expect.any(String), id: expect.any(Number) });

    const taken = await cloudRun('registerStudent', { ...someone, otp }, ip);
    expect(taken.body).toMatchObject({ code: ErrorCode.EmailTaken, error: ServerMessage.emailTaken });
  });

  it("counts the function's limit group per client address, as /api does", async () => {
    const first = '198.51.100.30';
    const statuses: unknown[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await cloudRun('checkEmail', { email: 'x@example.com' }, first)).status);
    }
    expect(statuses).toEqual(Array(20).fill(200));
    const limited = await cloudRun('checkEmail', { email: 'x@example.com' }, first);
    expect(limited.body.code).toBe(ErrorCode.TooManyRequests);
    // The same group through /api, from that address: spent too.
    const viaApi = await fetch(`${t.url}/api/check-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': first },
      body: JSON.stringify({ email: 'x@example.com' }),
    });
    expect(viaApi.status).toBe(429);
    // Another address has its own count.
    expect((await cloudRun('checkEmail', { email: 'x@example.com' }, '198.51.100.31')).status).toBe(200);
  });
});

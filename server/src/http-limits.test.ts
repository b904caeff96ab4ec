// The HTTP server's own limits (issue 12 item 7): connections per client, slow
// headers, and JSON answers for what Node refuses itself.

import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../testing/site.ts';
import { until } from '../../testing/until.ts';

let t: TestSite;
beforeAll(async () => {
  t = await startTestSite({ MAX_CONNECTIONS_PER_CLIENT: '5', HEADERS_TIMEOUT_S: '1', KEEP_ALIVE_TIMEOUT_S: '2' });
});
afterAll(async () => {
  await t?.stop();
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(t.site.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Everything the server writes until it closes the socket. */
function received(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
    socket.on('close', () => resolve(data));
    socket.on('error', () => undefined);
  });
}

describe('HTTP limits', () => {
  it('answers JSON 431 for headers that are too large', async () => {
    const res = await fetch(`${t.url}/api/health`, { headers: { 'x-big': 'x'.repeat(40_000) } });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    // In the shape of every error, with an id of its own, also sent as the header.
    expect(await res.json()).toEqual({
      error: expect.any(String),
      code: 107,
      requestId: res.headers.get('x-request-id'),
    });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers JSON 408 and closes when headers arrive too slowly', async () => {
    const socket = await open();
    const answer = received(socket);
    socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('"code":107');
  });

  it('caps the open connections of one client, and lets it in again once they close', async () => {
    const sockets = await Promise.all(Array.from({ length: 8 }, () => open()));
    // The three over the cap are closed at once; the five within it stay open.
    const closed: number[] = [];
    sockets.forEach((socket, i) => void received(socket).then(() => closed.push(i)));
    await until(() => closed.length >= 3, 10_000);
    // A moment more: a fourth close would come now, and fail the test.
    await new Promise((r) => setTimeout(r, 300));
    expect(closed).toHaveLength(3);
    expect(sockets.filter((socket) => !socket.destroyed && socket.readyState === 'open')).toHaveLength(5);
    for (const socket of sockets) socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });

  it('keeps an idle connection for KEEP_ALIVE_TIMEOUT_S, says so, then closes it', async () => {
    const socket = await open();
    const answers: string[] = [];
    let closedAt: number | undefined;
    socket.on('data', (chunk: Buffer) => answers.push(chunk.toString()));
    socket.on('close', () => (closedAt = Date.now()));
    const request = 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n';
    const answered = async (count: number) => {
      while (answers.length < count) await new Promise((r) => setTimeout(r, 20));
    };
    socket.write(request);
    await answered(1);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[0]).toMatch(/\r\nKeep-Alive: timeout=2\r\n/i);
    // Idle for longer than the headers may take (1 s): the connection is still good.
    await new Promise((r) => setTimeout(r, 1_300));
    socket.write(request);
    await answered(2);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 200/);
    const lastAnswer = Date.now();
    // Node closes an idle connection a second after the time it advertises; at the default (5 s) it would be 6 s.
    await new Promise((r) => setTimeout(r, 4_500));
    expect(closedAt).toBeDefined();
    expect(closedAt! - lastAnswer).toBeGreaterThanOrEqual(1_900);
    socket.destroy();
  });
});

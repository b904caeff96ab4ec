import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { failsTheAnswer, requestLogger } from './request-log.ts';

/** An app with the request log in front of a few answers, its log lines captured. */
async function logged() {
  const lines: Record<string, unknown>[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.use(requestLogger(createLogger('info', capture)));
  app.get('/api/fine', (_req, res) => {
    res.locals.call = 'fine';
    res.json({ ok: true });
  });
  app.get('/api/broken', (_req, res) => {
    res.status(500).json({ error: 'Something went wrong.' });
  });
  // Begins its answer from a stream, which then fails (as the CSV export's database may).
  app.get('/api/cut-short', async (_req, res) => {
    const source = new Readable({ read() {} });
    source.push('id,name\n');
    setTimeout(() => source.destroy(new Error('the database went away')), 20);
    failsTheAnswer(source, res);
    await pipeline(source, res).catch(() => res.destroy());
  });
  // Begins its answer from a stream that never ends: the client goes mid-way.
  app.get('/api/endless', async (_req, res) => {
    const source = new Readable({ read() {} });
    source.push('id,name\n');
    failsTheAnswer(source, res);
    await pipeline(source, res).catch(() => res.destroy());
  });
  // Never answers: the client goes first.
  let reached!: () => void;
  const slowReached = new Promise<void>((resolve) => (reached = resolve));
  app.get('/api/slow', () => reached());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines, slowReached };
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** Waits for the line of the request with this id (written after the answer has gone). */
async function lineOf(lines: Record<string, unknown>[], requestId: string) {
  await expect.poll(() => lines.find((line) => line.requestId === requestId)).toBeDefined();
  return lines.find((line) => line.requestId === requestId)!;
}

describe('the request log', () => {
  it('writes one line per answer with its id, call, status and time, but no query string', async () => {
    const { url, lines } = await logged();
    const res = await fetch(`${url}/api/fine?email=parent@example.com`);
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(/^[\w-]{36}$/);
    const line = await lineOf(lines, id);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'GET',
      path: '/api/fine',
      call: 'fine',
      status: 200,
    });
    expect(typeof line.ms).toBe('number');
    expect(line).not.toHaveProperty('aborted');
    expect(JSON.stringify(lines)).not.toContain('parent@example.com');
    expect(lines.filter((l) => l.requestId === id)).toHaveLength(1);
  });

  it("logs a server error as an error, and keeps a proxy's request id but not a strange one", async () => {
    const { url, lines } = await logged();
    const res = await fetch(`${url}/api/broken`, { headers: { 'x-request-id': 'proxy-id-12345678' } });
    expect(res.headers.get('x-request-id')).toBe('proxy-id-12345678');
    expect(await lineOf(lines, 'proxy-id-12345678')).toMatchObject({ level: 50, msg: 'request failed', status: 500 });

    const strange = await fetch(`${url}/api/fine`, { headers: { 'x-request-id': 'a b<script>' } });
    expect(strange.headers.get('x-request-id')).not.toBe('a b<script>');
  });

  it('writes one line for a request whose client went before the answer, marked as such', async () => {
    const { url, lines, slowReached } = await logged();
    const request = http.get(`${url}/api/slow`);
    request.on('error', () => {});
    await slowReached;
    request.destroy();
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ msg: 'request', path: '/api/slow', aborted: true, ip: '127.0.0.1' });
  });

  it('logs a streamed answer the server cut short as a failure, and one the client left as aborted', async () => {
    const { url, lines } = await logged();
    await fetch(`${url}/api/cut-short`)
      .then((res) => res.text())
      .catch(() => undefined);
    await expect.poll(() => lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'request failed', path: '/api/cut-short', status: 200 });
    expect(lines[0]).not.toHaveProperty('aborted');

    // The client reads the first chunk and goes.
    const request = http.get(`${url}/api/endless`, (res) => res.once('data', () => request.destroy()));
    request.on('error', () => {});
    await expect.poll(() => lines.length).toBe(2);
    expect(lines[1]).toMatchObject({ level: 30, msg: 'request', path: '/api/endless', status: 200, aborted: true });
  });
});

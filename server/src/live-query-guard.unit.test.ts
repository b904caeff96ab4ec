import { describe, expect, it } from 'vitest';
import { LIVE_SIGNAL_CLASS } from '@tc/domain/live';
import { LiveSocketGuard, MAX_MESSAGES, MESSAGE_WINDOW_MS } from './live-query-guard.ts';

const subscribe = (requestId: number, where: object = { key: 'students' }) =>
  JSON.stringify({ op: 'subscribe', requestId, query: { className: LIVE_SIGNAL_CLASS, where }, sessionToken: 'r:x' });

describe('a LiveQuery socket guard', () => {
  it('counts messages per window, and starts again in the next', () => {
    let now = 0;
    const guard = new LiveSocketGuard(() => now);
    for (let i = 0; i < MAX_MESSAGES; i++)
      expect(guard.check(JSON.stringify({ op: 'unsubscribe', requestId: i }))).toEqual({ pass: true });
    expect(guard.check(JSON.stringify({ op: 'unsubscribe', requestId: 0 }))).toEqual({
      pass: false,
      close: 'too many messages',
    });
    now += MESSAGE_WINDOW_MS;
    expect(guard.check(JSON.stringify({ op: 'unsubscribe', requestId: 0 }))).toEqual({ pass: true });
  });

  it('lets an update of a held subscription through at the limit, and the SDK connect as it sends it', () => {
    const guard = new LiveSocketGuard();
    const connect = JSON.stringify({ op: 'connect', applicationId: 'app', installationId: 'i' });
    expect(guard.check(connect)).toEqual({ pass: true });
    // Once per socket: each connect is a client Parse keeps.
    expect(guard.check(connect)).toEqual({ pass: false, close: 'connected already' });
    for (let id = 1; id <= 10; id++) expect(guard.check(subscribe(id))).toEqual({ pass: true });
    expect(guard.check(subscribe(11))).toMatchObject({ pass: false, answer: { op: 'error', requestId: 11 } });
    expect(
      guard.check(
        JSON.stringify({
          op: 'update',
          requestId: 3,
          query: { className: LIVE_SIGNAL_CLASS, where: { key: 'holidays' } },
        }),
      ),
    ).toEqual({ pass: true });
    expect(guard.check(subscribe(12, { key: 'students', $or: [] }))).toMatchObject({
      pass: false,
      answer: { requestId: 12 },
    });
    expect(guard.check(JSON.stringify({ op: 'subscribe', requestId: 1.5, query: {} }))).toEqual({
      pass: false,
      close: 'no request id',
    });
  });
});

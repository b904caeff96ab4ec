import { describe, expect, it } from 'vitest';
import { LIVE_SIGNAL_CLASS } from '@tc/domain/live';
import {
  CONNECT_DEADLINE_MS,
  LiveSocketGuard,
  MAX_MESSAGES,
  MESSAGE_WINDOW_MS,
  UNSUBSCRIBED_DEADLINE_MS,
} from './live-query-guard.ts';

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

  it('closes a socket that says no connect in time, or holds no subscription Parse took for long', () => {
    let now = 0;
    const connect = JSON.stringify({ op: 'connect', applicationId: 'app' });
    const silent = new LiveSocketGuard(() => now);
    now = CONNECT_DEADLINE_MS - 1;
    expect(silent.overdue()).toBeNull();
    now = CONNECT_DEADLINE_MS;
    expect(silent.overdue()).toBe('no connect');

    /** A socket that connected and asked for one subscription, at `now` = 0. */
    const asking = () => {
      now = 0;
      const guard = new LiveSocketGuard(() => now);
      guard.check(connect);
      guard.check(subscribe(1));
      return guard;
    };
    const page = asking();
    // Asked for but refused by Parse (no session, say): held by nothing.
    page.answered(JSON.stringify({ op: 'error', code: 403, error: 'refused', reconnect: false, requestId: 1 }));
    now = UNSUBSCRIBED_DEADLINE_MS;
    expect(page.overdue()).toBe('no subscription');

    const held = asking();
    held.answered(JSON.stringify({ op: 'subscribed', clientId: 1, requestId: 1 }));
    // Events pass unread, and do not count as an end.
    held.answered(JSON.stringify({ op: 'update', clientId: 1, requestId: 1, object: { key: 'students' } }));
    now = 10 * UNSUBSCRIBED_DEADLINE_MS;
    expect(held.overdue()).toBeNull();
    // Its last subscription ended: the deadline counts from then.
    held.answered(JSON.stringify({ op: 'unsubscribed', clientId: 1, requestId: 1 }));
    now += UNSUBSCRIBED_DEADLINE_MS - 1;
    expect(held.overdue()).toBeNull();
    now += 1;
    expect(held.overdue()).toBe('no subscription');
  });

  it("counts what Parse holds: a place is freed by Parse's answer, never by the client's word", () => {
    const guard = new LiveSocketGuard();
    const parse = (op: string, requestId: number) => guard.answered(JSON.stringify({ op, clientId: 1, requestId }));
    for (let id = 1; id <= 10; id++) expect(guard.check(subscribe(id))).toEqual({ pass: true });
    for (let id = 1; id <= 9; id++) parse('subscribed', id);
    // Refused by Parse (a session it does not take, say): the place is free.
    guard.answered(JSON.stringify({ op: 'error', code: 209, error: 'Invalid session token', requestId: 10 }));
    expect(guard.check(subscribe(11))).toEqual({ pass: true });
    parse('subscribed', 11);
    // The client's unsubscribe frees nothing until Parse says it is done.
    expect(guard.check(JSON.stringify({ op: 'unsubscribe', requestId: 1 }))).toEqual({ pass: true });
    expect(guard.check(subscribe(12))).toMatchObject({ pass: false, answer: { requestId: 12 } });
    parse('unsubscribed', 1);
    expect(guard.check(subscribe(12))).toEqual({ pass: true });
    parse('subscribed', 12);
    // A held id asked for again and refused stays held (Parse keeps it); an update refused
    // has lost the old one (Parse ends it before it tries the new).
    expect(guard.check(subscribe(2))).toEqual({ pass: true });
    guard.answered(JSON.stringify({ op: 'error', code: 141, error: 'refused', requestId: 2 }));
    expect(guard.check(subscribe(13))).toMatchObject({ pass: false, answer: { requestId: 13 } });
    expect(
      guard.check(
        JSON.stringify({ op: 'update', requestId: 3, query: { className: LIVE_SIGNAL_CLASS, where: { key: 'x' } } }),
      ),
    ).toEqual({ pass: true });
    guard.answered(JSON.stringify({ op: 'error', code: 141, error: 'refused', requestId: 3 }));
    expect(guard.check(subscribe(13))).toEqual({ pass: true });
  });
});

// What a LiveQuery socket may say, checked before Parse hears it. Anyone may open
// the socket at /parse, and Parse keeps every subscription it is sent, of any class
// and any query, for as long as the socket lives: thousands of them would run the
// site out of memory. The browser only ever follows a few LiveSignal keys
// (client/src/lib/parse-sdk.ts followLiveSignal), so that is all a socket may ask.

import { LIVE_SIGNAL_CLASS } from '@tc/domain/live';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';

/** Subscriptions one socket may hold at once (a page follows one to three keys). */
export const MAX_SUBSCRIPTIONS = 10;
/** Messages one socket may send in a window (a page sends a handful per navigation). */
export const MAX_MESSAGES = 60;
export const MESSAGE_WINDOW_MS = 10_000;
/** A signal key's longest (timetable:<grade>:<board> and the like). */
const MAX_KEY_LENGTH = 64;
/** A socket says `connect` this soon after it opens, or is closed (the SDK says it at once). */
export const CONNECT_DEADLINE_MS = 10_000;
/**
 * A socket that holds no subscription Parse took is closed after this long: an open socket
 * costs the server a connection, and only a signed-in page's subscriptions are ever taken
 * (a page that follows nothing any more closes its socket: client/src/lib/parse-sdk.ts).
 */
export const UNSUBSCRIBED_DEADLINE_MS = 60_000;

export type Verdict =
  | { pass: true }
  /** Answered with Parse's error for the request; the socket stays. */
  | { pass: false; answer: { op: 'error'; requestId?: number; code: number; error: string; reconnect: false } }
  /** The socket is closed (policy violation). */
  | { pass: false; close: string };

/** One socket's state: its subscriptions, the messages of the current window, and its deadlines. */
export class LiveSocketGuard {
  /** Asked for and let through to Parse (counted against MAX_SUBSCRIPTIONS). */
  private readonly subscriptions = new Set<number>();
  /** Taken by Parse (it answered `subscribed`), until it ends or is refused. */
  private readonly live = new Set<number>();
  private connected = false;
  private windowStart = 0;
  private messages = 0;
  private readonly openedAt: number;
  /** Since when the socket has held no live subscription. */
  private idleSince: number;

  constructor(private readonly now: () => number = Date.now) {
    this.openedAt = this.idleSince = now();
  }

  /** Parse's answer on the socket: a subscription it took, ended or refused. Events pass unread. */
  answered(text: string): void {
    if (!/"op":"(subscribed|unsubscribed|error)"/.test(text)) return;
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      return;
    }
    if (!isRecord(answer) || typeof answer.requestId !== 'number') return;
    if (answer.op === 'subscribed') {
      this.live.add(answer.requestId);
      return;
    }
    // Ended, or refused (a subscription, or an update that Parse ends before it subscribes again).
    const wasLive = this.live.delete(answer.requestId);
    this.subscriptions.delete(answer.requestId);
    if (wasLive && this.live.size === 0) this.idleSince = this.now();
  }

  /** Why the socket is to be closed now (no connect in time, no subscription for long), or null. */
  overdue(): string | null {
    const at = this.now();
    if (!this.connected && at - this.openedAt >= CONNECT_DEADLINE_MS) return 'no connect';
    if (this.live.size === 0 && at - this.idleSince >= UNSUBSCRIBED_DEADLINE_MS) return 'no subscription';
    return null;
  }

  check(text: string): Verdict {
    const at = this.now();
    if (at - this.windowStart >= MESSAGE_WINDOW_MS) {
      this.windowStart = at;
      this.messages = 0;
    }
    if (++this.messages > MAX_MESSAGES) return { pass: false, close: 'too many messages' };
    let request: unknown;
    try {
      request = JSON.parse(text);
    } catch {
      return { pass: false, close: 'not JSON' };
    }
    if (!isRecord(request)) return { pass: false, close: 'not a request' };
    const { op, requestId } = request;
    switch (op) {
      // Once per socket, as the SDK does (a reconnect opens a new socket): Parse makes a
      // client of each connect and forgets only the last one when the socket closes.
      case 'connect':
        if (this.connected) return { pass: false, close: 'connected already' };
        this.connected = true;
        return { pass: true };
      case 'unsubscribe':
        if (typeof requestId === 'number') this.subscriptions.delete(requestId);
        return { pass: true };
      case 'subscribe':
      case 'update': {
        if (typeof requestId !== 'number' || !Number.isSafeInteger(requestId)) {
          return { pass: false, close: 'no request id' };
        }
        const refused = (error: string) =>
          ({
            pass: false,
            answer: { op: 'error', requestId, code: ErrorCode.Forbidden, error, reconnect: false },
          }) as const;
        if (!followsOneKey(request.query)) return refused(ServerMessage.liveKeyRefused);
        if (!this.subscriptions.has(requestId) && this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
          return refused(ServerMessage.liveTooManySubscriptions);
        }
        this.subscriptions.add(requestId);
        return { pass: true };
      }
      default:
        return { pass: false, close: 'unknown operation' };
    }
  }
}

/** `{className: 'LiveSignal', where: {key: '<a short string>'}}`, and nothing else. */
function followsOneKey(query: unknown): boolean {
  if (!isRecord(query) || query.className !== LIVE_SIGNAL_CLASS || !isRecord(query.where)) return false;
  if (Object.keys(query).some((name) => name !== 'className' && name !== 'where')) return false;
  const { where } = query;
  const names = Object.keys(where);
  return (
    names.length === 1 && names[0] === 'key' && typeof where.key === 'string' && where.key.length <= MAX_KEY_LENGTH
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

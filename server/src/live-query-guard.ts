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
  /** Asked for and let through to Parse, not yet answered: how each was asked. */
  private readonly pending = new Map<number, 'subscribe' | 'update'>();
  /** Held by Parse: it answered `subscribed`, and has not answered `unsubscribed` since. */
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

  /**
   * Parse's answer on the socket (never the guard's own refusals): a subscription it took,
   * ended or refused. Only Parse's answers change what a socket holds, so that what is
   * counted against MAX_SUBSCRIPTIONS is what Parse keeps. Events pass unread.
   */
  answered(text: string): void {
    if (!/"op":"(subscribed|unsubscribed|error)"/.test(text)) return;
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      return;
    }
    if (!isRecord(answer) || typeof answer.requestId !== 'number') return;
    const id = answer.requestId;
    const asked = this.pending.get(id);
    this.pending.delete(id);
    const wasHeld = this.live.size > 0;
    if (answer.op === 'subscribed') this.live.add(id);
    // Refused: an update's old subscription went before Parse tried the new one; a second
    // subscribe of a held id leaves the one held.
    else if (answer.op === 'unsubscribed' || asked === 'update') this.live.delete(id);
    if (wasHeld && this.live.size === 0) this.idleSince = this.now();
  }

  /** Subscriptions held or asked for, each once. */
  private get counted(): number {
    let count = this.live.size;
    for (const id of this.pending.keys()) if (!this.live.has(id)) count++;
    return count;
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
      // Parse's answer (`unsubscribed`) frees the place.
      case 'unsubscribe':
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
        if (!this.live.has(requestId) && !this.pending.has(requestId) && this.counted >= MAX_SUBSCRIPTIONS) {
          return refused(ServerMessage.liveTooManySubscriptions);
        }
        this.pending.set(requestId, op);
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

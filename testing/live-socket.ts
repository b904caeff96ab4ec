// Parse's LiveQuery protocol spoken with plain `ws`, as a browser's SDK speaks
// it: connect (app id, optional session), subscribe (class, where, session),
// then create/update/enter/... events, or an error naming the request.

import WebSocket from 'ws';

export interface LiveMessage {
  op: string;
  requestId?: number;
  code?: number;
  error?: string;
  object?: Record<string, unknown>;
}

export class LiveSocket {
  readonly messages: LiveMessage[] = [];
  private nextId = 1;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: WebSocket.RawData) =>
      this.messages.push(JSON.parse((data as Buffer).toString('utf8')) as LiveMessage),
    );
  }

  /** Opens a socket at `${url}/parse` and connects (`connected`, or the error Parse sent). */
  static async open(
    url: string,
    appId: string,
    sessionToken?: string,
    path = '/parse',
    extra: Record<string, string> = {},
  ): Promise<LiveSocket> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${path}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const socket = new LiveSocket(ws);
    ws.send(
      JSON.stringify({ op: 'connect', applicationId: appId, ...(sessionToken ? { sessionToken } : {}), ...extra }),
    );
    await socket.next((m) => m.op === 'connected' || m.op === 'error');
    return socket;
  }

  /** Subscribes; resolves with `subscribed` or Parse's `error` for this request. */
  async subscribe(className: string, where: object, sessionToken?: string): Promise<LiveMessage & { id: number }> {
    const requestId = this.nextId++;
    this.ws.send(
      JSON.stringify({
        op: 'subscribe',
        requestId,
        query: { className, where },
        ...(sessionToken ? { sessionToken } : {}),
      }),
    );
    const answer = await this.next((m) => m.requestId === requestId && (m.op === 'subscribed' || m.op === 'error'));
    return { ...answer, id: requestId };
  }

  /** Sends a raw frame (text, or bytes as a binary frame). */
  send(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** The events (create, update, enter, leave, delete) received for a subscription so far. */
  events(requestId: number): LiveMessage[] {
    return this.messages.filter(
      (m) => m.requestId === requestId && ['create', 'update', 'enter', 'leave', 'delete'].includes(m.op),
    );
  }

  /** Every message but the connect and subscribe answers. */
  others(): LiveMessage[] {
    return this.messages.filter((m) => !['connected', 'subscribed'].includes(m.op));
  }

  /** Waits for a message that matches (up to `ms`). */
  async next(match: (m: LiveMessage) => boolean, ms = 5_000): Promise<LiveMessage> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no such LiveQuery message in ${ms} ms: ${JSON.stringify(this.messages)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  get closed(): Promise<number> {
    return new Promise((resolve) => {
      if (this.ws.readyState === WebSocket.CLOSED) resolve(1006);
      else this.ws.once('close', (code: number) => resolve(code));
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

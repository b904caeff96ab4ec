// Parse's LiveQuery server on the site's own port: a WebSocket upgrade at
// /parse (docs/decisions/0013-live-updates.md). Only the LiveSignal class is
// live; what a socket may ask is checked before Parse hears it (live-query-guard.ts),
// and what reaches it is decided by Parse (class permissions, the beforeSubscribe
// check of cloud/src/live/signals.ts, each row's ACL). With
// REDIS_URL, the changes of every instance reach the sockets of every other.

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIVE_SIGNAL_CLASS } from '@tc/domain/live';
import type { Config } from './config.ts';
import { LiveSocketGuard } from './live-query-guard.ts';
import { ParseServer } from './parse-internals/internals.ts';

/** The path the browser's LiveQuery client connects to (beside Parse's REST routes). */
export const LIVE_QUERY_PATH = '/parse';

/** The classes Parse Server publishes changes of (its `liveQuery` option), for this instance and the others. */
export function liveQueryOptions(config: Config): { classNames: string[]; redisURL?: string } {
  return { classNames: [LIVE_SIGNAL_CLASS], ...(config.redisUrl ? { redisURL: config.redisUrl } : {}) };
}

/**
 * Parse's WebSocket adapter interface (onConnection, start, close), on a `ws`
 * server of our own: upgrades at /parse only, none while the site stops, and
 * closing it closes every socket (Parse's own adapter listens on every path and
 * closes nothing).
 */
class UpgradeAdapter {
  onListen: () => void = () => {};
  onConnection: (ws: WebSocket) => void = () => {};
  onError: (error: Error) => void = () => {};
  // A page's largest message (a subscription with its session token) is well under 1 kB.
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 });
  private readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (this.closed() || (path !== LIVE_QUERY_PATH && path !== `${LIVE_QUERY_PATH}/`)) {
      socket.end(
        `HTTP/1.1 ${this.closed() ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  };

  constructor(
    private readonly server: Server,
    private readonly closed: () => boolean,
  ) {}

  start(): void {
    this.wss.on('connection', (ws) => {
      this.onConnection(ws);
      guard(ws);
    });
    this.wss.on('error', (error) => this.onError(error));
    this.server.on('upgrade', this.upgrade);
    this.onListen();
  }

  close(): void {
    this.server.off('upgrade', this.upgrade);
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }
}

/**
 * Puts a LiveSocketGuard between the socket and Parse's handler (which Parse sets as
 * `onmessage` when the socket connects), and replaces Parse's error logging (a dump
 * of the whole socket, hundreds of lines for one bad frame) with one line.
 */
function guard(ws: WebSocket): void {
  const parseHandler = ws.onmessage;
  const check = new LiveSocketGuard();
  ws.onmessage = (event) => {
    const verdict =
      typeof event.data === 'string' ? check.check(event.data) : ({ pass: false, close: 'binary' } as const);
    if (verdict.pass) parseHandler?.call(ws, event);
    else if ('answer' in verdict) ws.send(JSON.stringify(verdict.answer));
    else ws.close(1008, verdict.close);
  };
  ws.removeAllListeners('error');
  ws.on('error', (error) => {
    console.error(`live query socket: ${error.message}`);
    ws.terminate();
  });
}

export interface LiveQuery {
  /** Ends every socket and the Redis subscription. */
  close(): Promise<void>;
}

export async function startLiveQuery(
  server: Server,
  config: Config,
  internalUrl: string,
  isStopping: () => boolean,
): Promise<LiveQuery> {
  const adapter = new UpgradeAdapter(server, isStopping);
  const liveQuery = await ParseServer.createLiveQueryServer(
    server,
    {
      appId: config.appId,
      masterKey: config.masterKey,
      serverURL: internalUrl,
      // No key pairs: a socket never holds the master key, whatever it sends.
      wssAdapter: adapter,
      // How long a socket's session stays resolved before it is looked up again.
      cacheTimeout: 5_000,
      logLevel: 'ERROR',
      ...(config.redisUrl ? { redisURL: config.redisUrl } : {}),
    },
    // For the cache of sessions and roles the socket checks use.
    { appId: config.appId } as Parameters<typeof ParseServer.createLiveQueryServer>[2],
  );
  let closing: Promise<void> | undefined;
  return {
    close: () =>
      (closing ??= (async () => {
        adapter.close();
        await (liveQuery as unknown as { shutdown(): Promise<void> }).shutdown();
      })()),
  };
}

// Parse's LiveQuery server on the site's own port: a WebSocket upgrade at
// /parse (docs/decisions/0013-live-updates.md). Only the LiveSignal class is
// live; what a socket may ask is checked before Parse hears it (live-query-guard.ts),
// and what reaches it is decided by Parse (class permissions, the beforeSubscribe
// check of cloud/src/live/signals.ts, each row's ACL). With
// REDIS_URL, the changes of every instance reach the sockets of every other.

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express from 'express';
import proxyaddr from 'proxy-addr';
import { WebSocketServer, type WebSocket } from 'ws';
import { countedAddress } from '@tc/cloud/client-address';
import { LIVE_SIGNAL_CLASS } from '@tc/domain/live';
import type { Config } from './config.ts';
import { LiveSocketGuard } from './live-query-guard.ts';
import { ParseServer } from './parse-internals/internals.ts';

/**
 * Sockets one client address (an IPv6 /64) may hold open: a family's or a school's
 * tabs behind one address. Past it, a page just has no live updates.
 */
export const LIVE_SOCKETS_PER_ADDRESS = 64;
/** How often every socket's deadlines are looked at (live-query-guard.ts). */
const SWEEP_MS = 2_000;

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
  private readonly guards = new WeakMap<WebSocket, LiveSocketGuard>();
  /** Open sockets (and upgrades under way), in all and per client address. */
  private open = 0;
  private readonly openPerAddress = new Map<string, number>();
  private sweeper: NodeJS.Timeout | undefined;

  private readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const address = countedAddress(proxyaddr(req, this.trust));
    const refusal = this.closed()
      ? '503 Service Unavailable'
      : path !== LIVE_QUERY_PATH && path !== `${LIVE_QUERY_PATH}/`
        ? '404 Not Found'
        : this.open >= this.maxSockets
          ? '503 Service Unavailable'
          : (this.openPerAddress.get(address) ?? 0) >= this.maxSocketsPerAddress
            ? '429 Too Many Requests'
            : undefined;
    if (refusal) {
      // Closed once the answer is out: an upgrade's socket has no timeouts left, and a
      // client that never closes its end would keep it for good (as ws's abortHandshake does).
      socket.once('finish', () => socket.destroy());
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\n\r\n`);
      return;
    }
    // Counted from now until the connection closes, however the upgrade ends.
    this.open++;
    this.openPerAddress.set(address, (this.openPerAddress.get(address) ?? 0) + 1);
    socket.once('close', () => {
      this.open--;
      const left = (this.openPerAddress.get(address) ?? 1) - 1;
      if (left > 0) this.openPerAddress.set(address, left);
      else this.openPerAddress.delete(address);
    });
    this.wss.handleUpgrade(req, socket, head, (ws) => this.wss.emit('connection', ws, req));
  };

  constructor(
    private readonly server: Server,
    private readonly closed: () => boolean,
    /** Whom to believe about a client's address: the site's own `trust proxy` (server/src/app.ts). */
    private readonly trust: (address: string, hop: number) => boolean,
    /** Sockets open at once on this instance: fewer than its connections, so pages always get one. */
    private readonly maxSockets: number,
  ) {}

  /** LIVE_SOCKETS_PER_ADDRESS, or a quarter of every socket on a small instance: no one address takes them all. */
  private get maxSocketsPerAddress(): number {
    return Math.min(LIVE_SOCKETS_PER_ADDRESS, Math.max(1, Math.floor(this.maxSockets / 4)));
  }

  start(): void {
    this.wss.on('connection', (ws) => {
      this.onConnection(ws);
      this.guards.set(ws, guard(ws));
    });
    this.wss.on('error', (error) => this.onError(error));
    this.server.on('upgrade', this.upgrade);
    // A socket that never says connect, or holds no subscription for long, is closed.
    this.sweeper = setInterval(() => {
      for (const ws of this.wss.clients) {
        const reason = this.guards.get(ws)?.overdue();
        if (reason) ws.close(1008, reason);
      }
    }, SWEEP_MS);
    this.sweeper.unref();
    this.onListen();
  }

  close(): void {
    clearInterval(this.sweeper);
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
function guard(ws: WebSocket): LiveSocketGuard {
  const parseHandler = ws.onmessage;
  const check = new LiveSocketGuard();
  // What Parse answers tells which subscriptions it took (the socket's deadlines).
  // (The guard's own refusals go out unread: Parse never heard what they refuse.)
  const send = ws.send.bind(ws) as (data: unknown, ...rest: unknown[]) => void;
  ws.send = ((data: unknown, ...rest: unknown[]) => {
    if (typeof data === 'string') check.answered(data);
    send(data, ...rest);
  }) as WebSocket['send'];
  ws.onmessage = (event) => {
    const verdict =
      typeof event.data === 'string' ? check.check(event.data) : ({ pass: false, close: 'binary' } as const);
    if (verdict.pass) parseHandler?.call(ws, event);
    else if ('answer' in verdict) send(JSON.stringify(verdict.answer));
    else ws.close(1008, verdict.close);
  };
  ws.removeAllListeners('error');
  ws.on('error', (error) => {
    console.error(`live query socket: ${error.message}`);
    ws.terminate();
  });
  return check;
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
  // Express's own reading of TRUST_PROXY (a hop count, addresses, true), as req.ip uses it.
  const trust = express().set('trust proxy', config.trustProxy).get('trust proxy fn') as (
    address: string,
    hop: number,
  ) => boolean;
  const adapter = new UpgradeAdapter(
    server,
    isStopping,
    trust,
    Math.max(1, Math.floor(config.http.maxConnections / 2)),
  );
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

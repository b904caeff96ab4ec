// Limits on the HTTP server itself (issue 12 item 7): idle and slow sockets from
// one host must not use up every file descriptor, headers and bodies must arrive
// in reasonable time, and the server's own refusals answer JSON like /api does.

import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '@tc/domain/errors';
import { ServerMessage } from '@tc/domain/server-messages';
import { standaloneErrorBody } from './errors.ts';

export interface HttpLimits {
  maxConnections: number;
  /** Open connections per client address; 0 = no cap (behind a proxy every client is the proxy). */
  maxConnectionsPerClient: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /**
   * How long an idle connection is kept for its next request. Behind a proxy or load
   * balancer that keeps idle connections to the site, this must be longer than the
   * proxy's, or a request it sends just as the site closes one fails (a 502).
   */
  keepAliveTimeoutMs: number;
}

export function applyHttpLimits(http: Server, limits: HttpLimits): void {
  http.maxConnections = limits.maxConnections;
  http.keepAliveTimeout = limits.keepAliveTimeoutMs;
  http.headersTimeout = limits.headersTimeoutMs;
  http.requestTimeout = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);

  if (limits.maxConnectionsPerClient > 0) {
    const open = new Map<string, number>();
    http.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const count = (open.get(address) ?? 0) + 1;
      if (count > limits.maxConnectionsPerClient) {
        socket.destroy();
        return;
      }
      open.set(address, count);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  }

  // Node answers these itself in plain text (or not at all): answer JSON, in the
  // shape of every other error, and close.
  http.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', ServerMessage.headersTooLarge]
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', ServerMessage.requestTimeout]
          : [400, 'Bad Request', ServerMessage.badRequest];
    const answer = standaloneErrorBody(message, ErrorCode.BadRequest);
    const body = JSON.stringify(answer);
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `x-request-id: ${answer.requestId}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}

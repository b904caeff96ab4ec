// The client address a call is counted for (rate limits, failed logins).

/**
 * Over HTTP Parse Server gives the address it saw, and a context the client
 * sends cannot stand in for it. In-process calls have none: the /api facade, the
 * only in-process caller, passes its own client's address in the call's context.
 */
export function clientAddress(request: { ip?: string; context?: Record<string, unknown> }): string {
  if (request.ip) return request.ip;
  const fromFacade = request.context?.clientIp;
  return typeof fromFacade === 'string' && fromFacade ? fromFacade : 'unknown';
}

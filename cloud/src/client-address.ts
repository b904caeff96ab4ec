// The client address a call is counted for (rate limits, failed logins).

import ipaddr from 'ipaddr.js';

/** Where every value that is no address is counted: together, as one client. */
export const NOT_AN_ADDRESS = 'not-an-address';

/**
 * An address as the limits count it: an IPv4 address as it is, an IPv6 one by its
 * /64 network. One subscriber is given a whole /64 (2^64 addresses to pick from),
 * so counting each IPv6 address apart would let one client try without limit. A port
 * (a proxy may forward "203.0.113.7:51234") is no part of it, and anything that is no
 * address counts as one: a new port or word per try would be a new client each time.
 */
export function countedAddress(address: string): string {
  const bare = /^\[([^\]]+)\](?::\d+)?$/.exec(address)?.[1] ?? /^([\d.]+):\d+$/.exec(address)?.[1] ?? address;
  if (!ipaddr.isValid(bare)) return NOT_AN_ADDRESS;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/**
 * Over HTTP Parse Server gives the address it saw, and a context the client
 * sends cannot stand in for it. In-process calls have none: the /api facade, the
 * only in-process caller, passes its own client's address in the call's context.
 */
export function clientAddress(request: { ip?: string; context?: Record<string, unknown> }): string {
  if (request.ip) return countedAddress(request.ip);
  const fromFacade = request.context?.clientIp;
  return typeof fromFacade === 'string' && fromFacade ? countedAddress(fromFacade) : 'unknown';
}

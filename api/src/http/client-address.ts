/**
 * The client address that per-address limits count against. One IPv6 subscriber is routinely
 * given a whole /64 (2^64 addresses), so keying a limit on the full IPv6 address lets one client
 * pick a fresh address for every try; every address of a /64 counts as one client. IPv4 (and
 * IPv4-mapped IPv6, `::ffff:203.0.113.9`) counts per address.
 */
import ipaddr from 'ipaddr.js';
import type { Request } from 'express';

/** The key of `address` for per-address limits: the IPv4 address, or the IPv6 /64 as `prefix::/64`. */
export function limitKeyOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`);
  return `${network.toString()}/64`;
}

/**
 * The client's address for limits. Behind a reverse proxy `req.ip` is the client's only when
 * TRUST_PROXY names the proxy (otherwise it is the proxy's, and every client shares one limit).
 */
export const clientAddressForLimits = (req: Pick<Request, 'ip'>): string => limitKeyOf(req.ip ?? 'unknown');

/**
 * Whether a host names this machine, so traffic to it never leaves it: the one answer the mode
 * rules (plain text allowed to a loopback event store, mail server or node), /healthz (a local
 * caller reads the details) and the metrics server (no token needed on loopback) all use.
 */
import { BlockList, isIP } from 'node:net';

const LOOPBACK_ADDRESSES = new BlockList();
LOOPBACK_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
// BlockList also matches IPv4-mapped IPv6 (::ffff:127.0.0.1, as a dual-stack socket reports an IPv4 peer).
LOOPBACK_ADDRESSES.addAddress('::1', 'ipv6');

/** `host`: a name, an IPv4 address, or an IPv6 address with or without its URL brackets. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  const family = isIP(bare);
  if (family === 4) return LOOPBACK_ADDRESSES.check(bare, 'ipv4');
  if (family === 6) return LOOPBACK_ADDRESSES.check(bare, 'ipv6');
  // Names: only localhost and its subdomains are loopback by definition (RFC 6761); others resolve anywhere.
  return bare === 'localhost' || bare.endsWith('.localhost');
}

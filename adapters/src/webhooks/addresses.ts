/**
 * Where a webhook may go (SSRF defence, ADR 035): a URL of http(s) with a host and no userinfo,
 * whose host resolves only to public unicast addresses. Loopback, private, link-local,
 * unique-local, CGNAT, multicast, unspecified, reserved, IPv4-mapped or -embedding IPv6 forms of
 * those: all refused, unless private networks are allowed (WEBHOOK_ALLOW_PRIVATE_NETWORKS, for
 * tests and self-hosted setups). The check runs at creation and again at each delivery, on the
 * addresses the connection then uses, so a DNS answer that changes in between cannot slip by.
 */
import { lookup } from 'node:dns/promises';
import { AppError } from '@quern/core';
import { WEBHOOK_URL_LENGTH_MAX } from '@quern/core/webhooks';
import ipaddr from 'ipaddr.js';

const invalidUrl = () => new AppError('VALIDATION', 'errors:webhookUrlInvalid', { url: 'errors:webhookUrlInvalid' });
export const privateAddressRefused = () => new AppError('VALIDATION', 'errors:webhookUrlPrivate', { url: 'errors:webhookUrlPrivate' });
const unresolvable = () => new AppError('VALIDATION', 'errors:webhookUrlUnresolvable', { url: 'errors:webhookUrlUnresolvable' });

/** The URL as it will be called: http(s) only, a host, no userinfo, no fragment; else a 400. */
export function checkWebhookUrl(raw: string): URL {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > WEBHOOK_URL_LENGTH_MAX) throw invalidUrl();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidUrl();
  if (url.username !== '' || url.password !== '' || url.hostname === '' || url.hash !== '') throw invalidUrl();
  return url;
}

/**
 * True only for a public unicast address. ipaddr.js names every special-purpose range; only
 * 'unicast' is the public Internet. IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as its IPv4.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** A URL's host without the brackets of an IPv6 literal. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type Resolve = (host: string) => Promise<string[]>;

/** Every address the host resolves to (an IP literal resolves to itself). */
export const resolveHost: Resolve = async (host) => {
  if (ipaddr.isValid(host)) return [host];
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

/**
 * Checks that the URL may receive webhooks: syntax, then (unless private networks are allowed)
 * every address its host resolves to. A 400 with the reason otherwise.
 */
export async function checkWebhookTarget(raw: string, options: { allowPrivateNetworks: boolean; resolve?: Resolve }): Promise<URL> {
  const url = checkWebhookUrl(raw);
  if (options.allowPrivateNetworks) return url;
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? resolveHost)(hostOf(url));
  } catch {
    throw unresolvable();
  }
  if (addresses.length === 0) throw unresolvable();
  if (!addresses.every(isPublicAddress)) throw privateAddressRefused();
  return url;
}

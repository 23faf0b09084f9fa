/**
 * Sends one webhook attempt: a JSON POST signed per Standard Webhooks (the `standardwebhooks`
 * library signs `{id}.{timestamp}.{body}` with the decoded secret). The connection's DNS lookup
 * is ours, so the address checked is the address connected to (no DNS rebinding between check
 * and connect). Redirects are never followed (node:http does not), so a 3xx is a failed attempt.
 * The whole exchange is bounded by `timeoutMs`; only a short excerpt of the answer is kept.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { Webhook } from 'standardwebhooks';
import { checkWebhookUrl, isPublicAddress } from './addresses.js';

export interface WebhookAttemptInput {
  url: string;
  /**
   * The endpoint's current secret first, then any replaced by a rotation and still in their
   * overlap (ADR 056): each signs, as a further space-separated `v1,` entry, so a receiver
   * holding either secret verifies.
   */
  secrets: readonly [string, ...string[]];
  /** The `webhook-id`: the delivery id, the same on every attempt. */
  webhookId: string;
  body: string;
  /** The attempt's time: `webhook-timestamp` is its Unix seconds. */
  at: Date;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

export interface WebhookAttemptResult {
  statusCode?: number;
  /** timeout | refused_address | network | http_status; absent when delivered. */
  error?: string;
  responseExcerpt?: string;
  delivered: boolean;
}

const EXCERPT_BYTES_MAX = 256;
const USER_AGENT = 'Quern-Webhooks/1';

/** The three Standard Webhooks headers for one attempt; several secrets give several signatures, the first secret's first. */
export function signWebhook(secrets: string | readonly string[], webhookId: string, at: Date, body: string): Record<string, string> {
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  if (all.length === 0) throw new RangeError('A webhook is signed with at least one secret');
  const signature = all.map((secret) => new Webhook(secret).sign(webhookId, at, body)).join(' ');
  return { 'webhook-id': webhookId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

class RefusedAddressError extends Error {}

/** A lookup that refuses non-public answers (unless allowed): the check sits on the connection itself. */
function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses;
      if (!allowPrivateNetworks && (list.length === 0 || !list.every((a) => isPublicAddress(a.address))))
        return callback(new RefusedAddressError(`${hostname} resolves to a non-public address`), '', 0);
      if (options.all) return callback(null, list, 0);
      const [first] = list;
      if (!first) return callback(new RefusedAddressError(`${hostname} has no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

export function sendWebhookAttempt(input: WebhookAttemptInput): Promise<WebhookAttemptResult> {
  let url: URL;
  try {
    url = checkWebhookUrl(input.url);
  } catch {
    return Promise.resolve({ error: 'refused_address', delivered: false });
  }
  // An IP literal is not looked up by node, so it is checked here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!input.allowPrivateNetworks && /^[0-9.]+$|:/.test(literal) && !isPublicAddress(literal))
    return Promise.resolve({ error: 'refused_address', delivered: false });
  const headers = {
    ...signWebhook(input.secrets, input.webhookId, input.at, input.body),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(input.body)),
    'user-agent': USER_AGENT,
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: WebhookAttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      { method: 'POST', headers, lookup: guardedLookup(input.allowPrivateNetworks), agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < EXCERPT_BYTES_MAX) {
            chunks.push(chunk.subarray(0, EXCERPT_BYTES_MAX - kept));
            kept += Math.min(chunk.length, EXCERPT_BYTES_MAX - kept);
          }
        });
        response.on('end', () => {
          const statusCode = response.statusCode ?? 0;
          const delivered = statusCode >= 200 && statusCode < 300;
          const responseExcerpt = Buffer.concat(chunks)
            .toString('utf8')
            .replace(/\uFFFD+$/, '');
          finish({
            statusCode,
            delivered,
            ...(delivered ? {} : { error: 'http_status' }),
            ...(responseExcerpt ? { responseExcerpt } : {}),
          });
        });
        response.on('error', () => finish({ statusCode: response.statusCode, error: 'network', delivered: false }));
      },
    );
    const timer = setTimeout(() => {
      finish({ error: 'timeout', delivered: false });
      request.destroy();
    }, input.timeoutMs);
    request.on('error', (error) =>
      finish({ error: error instanceof RefusedAddressError ? 'refused_address' : 'network', delivered: false }),
    );
    request.end(input.body);
  });
}

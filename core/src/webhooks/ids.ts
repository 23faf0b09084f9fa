/**
 * Webhook ids. A delivery id is a digest of the endpoint and the source event (its stream and
 * revision), so a fan-out repeated after a crash or a Redis loss names the same delivery stream
 * and its 'no_stream' append is a no-op. The delivery id is also the `webhook-id` header: it
 * never changes across retries and redeliveries, so receivers can deduplicate on it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

const digest32 = (text: string): string => bytesToHex(sha256(utf8ToBytes(text))).slice(0, 32);

export interface SourceEventRef {
  streamId: string;
  revision: bigint;
}

export const webhookFanOutId = (source: SourceEventRef): string => digest32(`webhook-fanout\n${source.streamId}\n${source.revision}`);

export const webhookDeliveryId = (endpointId: string, source: SourceEventRef): string =>
  `msg_${digest32(`webhook-delivery\n${endpointId}\n${source.streamId}\n${source.revision}`)}`;

/** `we_` + the 32 hex digits of a fresh UUID. */
export const webhookEndpointIdOf = (uuid: string): string => `we_${uuid.replaceAll('-', '').toLowerCase()}`;

/** A test event's delivery id (ADR 060): a digest of the endpoint and a fresh nonce, so each test is its own delivery. */
export const webhookTestDeliveryId = (endpointId: string, nonce: string): string =>
  `msg_${digest32(`webhook-test\n${endpointId}\n${nonce}`)}`;

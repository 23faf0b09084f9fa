/**
 * The merchant API's idempotency record (ADR 033): one claim stream per (merchant, Idempotency-Key),
 * `idempotency-<k>` where k is 128 bits of SHA-256 of the merchant's id and the key. The stream is
 * created with expected revision 'no_stream' in the same atomic append as the money movement it
 * names, so a key moves money at most once, whatever races; it holds the operation and a digest of
 * the canonical request, so a retry with the same body answers as the first request did and the
 * same key with another body (or another operation) is refused with 422.
 *
 * The resource's id is made from k (`re_<k>`, `po_<k>`), so `GET /refunds/{id}` finds the claim,
 * and through it the order, from the id alone.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { AppError } from '../shared/errors.js';
import type { EventStore, StreamAppend } from '../shared/ports/event-store.js';

export const IDEMPOTENCY_CLAIM_PREFIX = 'idempotency-';
export const IDEMPOTENCY_CLAIMED_EVENT = 'IdempotencyKeyClaimed';
const DIGEST_PATTERN = /^[0-9a-f]{32}$/;

export const IDEMPOTENT_OPERATIONS = ['refund', 'payout', 'invoice', 'paymentLink', 'invoiceRefund'] as const;
export type IdempotentOperation = (typeof IDEMPOTENT_OPERATIONS)[number];

/** 128 bits of SHA-256 of merchant and key, in lower-case hex: the claim's and the resource's name. */
export const idempotencyDigest = (merchantUserId: string, idempotencyKey: string): string =>
  bytesToHex(sha256(utf8ToBytes(`${merchantUserId}\n${idempotencyKey}`))).slice(0, 32);

export const idempotencyClaimStream = (digest: string): string => `${IDEMPOTENCY_CLAIM_PREFIX}${digest}`;

/**
 * The digest of a request's canonical form: its fields in a fixed order, absent ones left out, so
 * `{"amount":"5","order":"x"}` and `{"order":"x","amount":"5"}` are one request.
 */
export function requestDigest(fields: Record<string, string | undefined>): string {
  const canonical = Object.keys(fields)
    .sort()
    .filter((key) => fields[key] !== undefined)
    .map((key) => [key, fields[key]]);
  return bytesToHex(sha256(utf8ToBytes(JSON.stringify(canonical))));
}

export interface IdempotencyClaim {
  merchantUserId: string;
  operation: IdempotentOperation;
  requestDigest: string;
  /** The refund's, payout's, invoice's or payment link's id. */
  resourceId: string;
  /** A refund's order: where its CheckoutRefunded is. */
  orderId?: string;
  /** An invoice refund's invoice: where its InvoiceRefundCreated is (ADR 087). */
  invoiceId?: string;
  claimedAt: string;
}

const claimData: z.ZodType<IdempotencyClaim> = z.object({
  merchantUserId: z.string().min(1).max(200),
  operation: z.enum(IDEMPOTENT_OPERATIONS),
  requestDigest: z.string().regex(/^[0-9a-f]{64}$/),
  resourceId: z.string().min(1).max(64),
  orderId: z.string().min(1).max(64).optional(),
  invoiceId: z.string().min(1).max(64).optional(),
  claimedAt: z.string().min(1).max(40),
});

/** The claim's append: creates the stream, so a second claim of the key fails the whole append. */
export function claimAppend(digest: string, claim: IdempotencyClaim): StreamAppend {
  return {
    streamId: idempotencyClaimStream(digest),
    events: [{ type: IDEMPOTENCY_CLAIMED_EVENT, data: { ...claim } }],
    expectedRevision: 'no_stream',
  };
}

/** The claim recorded under a digest, or undefined when the key was never used. */
export async function readClaim(deps: { store: Pick<EventStore, 'readStream'> }, digest: string): Promise<IdempotencyClaim | undefined> {
  if (!DIGEST_PATTERN.test(digest)) return undefined;
  const [first] = await deps.store.readStream(idempotencyClaimStream(digest), { maxCount: 1 });
  if (!first) return undefined;
  const parsed = claimData.safeParse(first.data);
  if (!parsed.success) throw new Error(`Unreadable ${first.type} at ${idempotencyClaimStream(digest)}`);
  return parsed.data;
}

/** A repeat of a claimed key must be the same operation with the same request; anything else is 422. */
export function requireSameRequest(claim: IdempotencyClaim, operation: IdempotentOperation, digest: string): void {
  if (claim.operation !== operation || claim.requestDigest !== digest) throw new AppError('UNPROCESSABLE', 'errors:idempotencyKeyReused');
}

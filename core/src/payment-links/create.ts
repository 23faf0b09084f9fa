/**
 * Creating a payment link once per Idempotency-Key (ADR 084), as an invoice is (ADR 033): the
 * link's id is derived from the merchant and the key, and the key's claim is appended atomically
 * with the link ('no_stream' on both), so retries racing make one link and all answer it. A retry
 * must be the same request (its body's digest); another body with the key is refused (422).
 */
import { claimAppend, idempotencyDigest, readClaim, requestDigest, requireSameRequest } from '../idempotency/claim.js';
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError } from '../shared/ports/event-store.js';
import { PAYMENT_LINKS_PER_MERCHANT_MAX, type PaymentLinkCreateInput } from './contracts.js';
import { createPaymentLink, merchantPaymentLinkIds, type PaymentLinkDeps, readPaymentLink } from './handlers.js';
import type { PaymentLinkState } from './state.js';

export interface CreatePaymentLinkRequest {
  merchantUserId: string;
  idempotencyKey: string;
  input: PaymentLinkCreateInput;
}

/** The canonical request: every field as text, so a retry with its keys in another order is the same one. */
function digestOf(input: PaymentLinkCreateInput): string {
  const { amount } = input;
  return requestDigest({
    kind: amount.kind,
    currency: amount.currency,
    value: amount.kind === 'fixed' ? amount.value : undefined,
    minimum: amount.kind === 'open' ? amount.minimum : undefined,
    maximum: amount.kind === 'open' ? amount.maximum : undefined,
    description: input.description,
  });
}

export async function createPaymentLinkOnce(
  deps: PaymentLinkDeps,
  request: CreatePaymentLinkRequest,
): Promise<{ link: PaymentLinkState; position?: bigint }> {
  const digest = idempotencyDigest(request.merchantUserId, request.idempotencyKey);
  const linkId = `pl_${digest}`;
  const bodyDigest = digestOf(request.input);
  const answerFromClaim = async (): Promise<{ link: PaymentLinkState } | undefined> => {
    const claim = await readClaim(deps, digest);
    if (!claim) return undefined;
    requireSameRequest(claim, 'paymentLink', bodyDigest);
    const link = await readPaymentLink(deps, linkId);
    if (!link) throw new Error(`Payment link ${linkId} is claimed but not recorded`);
    return { link };
  };
  const repeated = await answerFromClaim();
  if (repeated) return repeated;
  // The merchant's links are listed from one index read whole: keep it bounded. Two creations
  // racing past this check may go one over; the list still reads only the first MAX.
  if ((await merchantPaymentLinkIds(deps, request.merchantUserId)).length >= PAYMENT_LINKS_PER_MERCHANT_MAX)
    throw new AppError('CONFLICT', 'errors:paymentLinksTooMany', {}, { max: PAYMENT_LINKS_PER_MERCHANT_MAX });
  const now = deps.clock.now();
  try {
    return await createPaymentLink(
      { ...deps, clock: { now: () => now } },
      {
        linkId,
        merchantUserId: request.merchantUserId,
        amount: request.input.amount,
        ...(request.input.description === undefined ? {} : { description: request.input.description }),
        companions: [
          claimAppend(digest, {
            merchantUserId: request.merchantUserId,
            operation: 'paymentLink',
            requestDigest: bodyDigest,
            resourceId: linkId,
            claimedAt: now.toISOString(),
          }),
        ],
      },
    );
  } catch (error) {
    // A concurrent request with this key won (its claim and link came first): its claim answers.
    if (!(error instanceof WrongExpectedRevisionError || (error instanceof AppError && error.code === 'CONFLICT'))) throw error;
    const repeatedNow = await answerFromClaim();
    if (repeatedNow) return repeatedNow;
    throw error;
  }
}

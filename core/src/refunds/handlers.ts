/**
 * Refund handlers over the ports (ADR 033). A refund is one atomic append: the merchant → shopper
 * transfer (executeTransfer), CheckoutRefunded on the order's checkout stream under the revision
 * it was decided on (so two refunds of one order are decided in turn and never pass what was
 * paid), and the Idempotency-Key's claim stream (so a key refunds at most once). A lost race reads
 * again, bounded; a repeat of the key answers from the claim.
 */
import { parseCheckoutOrderId, checkoutStream, toCheckoutEvent } from '../checkout/events.js';
import { claimAppend, idempotencyDigest, readClaim, requestDigest, requireSameRequest } from '../idempotency/claim.js';
import { AppError } from '../shared/errors.js';
import { type ExpectedRevision, WrongExpectedRevisionError } from '../shared/ports/event-store.js';
import { executeTransfer, walletAddressOf, type WalletDeps } from '../wallet/handlers.js';
import { mlxToWire } from '../wallet/money.js';
import { type RefundOutput, toRefundOutput } from './contracts.js';
import { checkoutRefundedEvent, decideRefund, refundOrderNotFound, refundTransfer } from './decider.js';
import { REFUND_ID_PATTERN, toRefundEvent } from './events.js';
import { type OrderStreamState, evolveOrderStream, initialOrderStreamState, toRefundRecord } from './state.js';

export type RefundDeps = Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>;

const ATTEMPTS_MAX = 8;

/** An order's checkout stream with its refunds, and the revision to append the next refund under. */
export async function loadOrderStream(
  deps: Pick<RefundDeps, 'store'>,
  intentId: string,
): Promise<{ state: OrderStreamState; revision: ExpectedRevision }> {
  const records = await deps.store.readStream(checkoutStream(intentId));
  let state = initialOrderStreamState();
  for (const record of records) {
    const event = toCheckoutEvent(record) ?? toRefundEvent(record);
    if (!event) throw new Error(`Unreadable ${record.type} at ${checkoutStream(intentId)}@${record.revision}`);
    state = evolveOrderStream(state, event);
  }
  const last = records[records.length - 1];
  return { state, revision: last ? last.revision : 'no_stream' };
}

export interface RefundRequest {
  merchantUserId: string;
  idempotencyKey: string;
  orderId: string;
  amountMlx?: bigint;
}

export interface RefundResult {
  refund: RefundOutput;
  /** Set when this call appended the refund (not a repeat): the log position, and who it moved MLX for. */
  appended?: { position: bigint; shopperUserId: string };
}

/** A refund of a paid checkout order, once per Idempotency-Key. */
export async function createRefund(deps: RefundDeps, request: RefundRequest): Promise<RefundResult> {
  const digest = idempotencyDigest(request.merchantUserId, request.idempotencyKey);
  const refundId = `re_${digest}`;
  const bodyDigest = requestDigest({
    order: request.orderId,
    amount: request.amountMlx === undefined ? undefined : mlxToWire(request.amountMlx),
  });
  const answerFromClaim = async (): Promise<RefundResult | undefined> => {
    const claim = await readClaim(deps, digest);
    if (!claim) return undefined;
    requireSameRequest(claim, 'refund', bodyDigest);
    const refund = await readRefund(deps, request.merchantUserId, refundId);
    if (!refund) throw new Error(`Refund ${refundId} is claimed but not recorded`);
    return { refund };
  };
  for (let attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
    const repeated = await answerFromClaim();
    if (repeated) return repeated;
    const order = parseCheckoutOrderId(request.orderId);
    if (!order) throw refundOrderNotFound();
    const { state, revision } = await loadOrderStream(deps, order.intentId);
    const outcome = decideRefund(state, {
      refundId,
      orderId: request.orderId,
      merchantUserId: request.merchantUserId,
      amountMlx: request.amountMlx,
    });
    if (outcome.kind === 'alreadyRefunded') return { refund: toRefundOutput(outcome.refund) };
    const { plan } = outcome;
    const shopperAddress = await walletAddressOf(deps, plan.shopperUserId);
    if (!shopperAddress) throw refundOrderNotFound();
    const event = checkoutRefundedEvent(plan, deps.clock.now());
    try {
      const executed = await executeTransfer(deps, request.merchantUserId, refundTransfer(plan, shopperAddress), () => [
        {
          streamId: checkoutStream(order.intentId),
          events: [event as unknown as { type: string; data: Record<string, unknown> }],
          expectedRevision: revision,
        },
        claimAppend(digest, {
          merchantUserId: request.merchantUserId,
          operation: 'refund',
          requestDigest: bodyDigest,
          resourceId: refundId,
          orderId: request.orderId,
          claimedAt: event.data.refundedAt,
        }),
      ]);
      if (executed.position !== undefined)
        return {
          refund: toRefundOutput(toRefundRecord(event)),
          appended: { position: executed.position, shopperUserId: plan.shopperUserId },
        };
      // The merchant's wallet already holds this refund's transfer: appended by a concurrent repeat.
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) continue;
      // A concurrent request with this key may have won; its claim decides the answer.
      const repeatedNow = error instanceof AppError ? await answerFromClaim() : undefined;
      if (repeatedNow) return repeatedNow;
      if (error instanceof AppError && error.messageKey === 'errors:insufficientFunds')
        throw new AppError('CONFLICT', 'errors:refundInsufficientFunds', { amount: 'errors:refundInsufficientFunds' }, error.params);
      throw error;
    }
  }
  throw new AppError('CONCURRENCY', 'errors:busy');
}

/** A merchant's own refund by id; undefined for an unknown id or another merchant's refund. */
export async function readRefund(
  deps: Pick<RefundDeps, 'store'>,
  merchantUserId: string,
  refundId: string,
): Promise<RefundOutput | undefined> {
  if (!REFUND_ID_PATTERN.test(refundId)) return undefined;
  const claim = await readClaim(deps, refundId.slice(3));
  if (claim?.operation !== 'refund' || claim.merchantUserId !== merchantUserId || claim.orderId === undefined) return undefined;
  const order = parseCheckoutOrderId(claim.orderId);
  if (!order) return undefined;
  const { state } = await loadOrderStream(deps, order.intentId);
  const refund = state.refunds.find((r) => r.refundId === refundId);
  return refund ? toRefundOutput(refund) : undefined;
}

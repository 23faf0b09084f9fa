/**
 * Refund handlers over the ports (ADR 033). A refund is one atomic append: the merchant → shopper
 * transfer (executeTransfer), CheckoutRefunded on the order's checkout stream under the revision
 * it was decided on (so two refunds of one order are decided in turn and never pass what was
 * paid), and the Idempotency-Key's claim stream (so a key refunds at most once). A lost race reads
 * again, bounded; a repeat of the key answers from the claim.
 */
import { type CheckoutEvent, parseCheckoutOrderId, checkoutStream, toCheckoutEvent } from '../checkout/events.js';
import { claimAppend, idempotencyDigest, readClaim, requestDigest, requireSameRequest } from '../idempotency/claim.js';
import {
  type Decision,
  type LoadedState,
  type StreamModel,
  type StreamState,
  decideAndAppend,
  readState,
  strictParser,
} from '../shared/command-handler.js';
import { AppError } from '../shared/errors.js';
import { executeTransfer, walletAddressOf, type WalletDeps } from '../wallet/handlers.js';
import { mlxToWire } from '../wallet/money.js';
import { transferRefusalOf } from '../wallet/refusals.js';
import { type RefundOutput, toRefundOutput } from './contracts.js';
import { type RefundPlan, checkoutRefundedEvent, decideRefund, refundOrderNotFound, refundTransfer } from './decider.js';
import { type CheckoutRefunded, REFUND_ID_PATTERN, toRefundEvent } from './events.js';
import { type OrderStreamState, evolveOrderStream, initialOrderStreamState, toRefundRecord } from './state.js';

export type RefundDeps = Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>;

/** An order's checkout stream with its refunds (ADR 033): every event on it is one of the two. */
export const orderStreamModel: StreamModel<OrderStreamState, CheckoutEvent | CheckoutRefunded> = {
  initialState: initialOrderStreamState,
  evolve: evolveOrderStream,
  parse: strictParser((recorded) => toCheckoutEvent(recorded) ?? toRefundEvent(recorded)),
};

/** An order's checkout stream with its refunds, and the revision to append the next refund under. */
export function loadOrderStream(
  deps: Pick<RefundDeps, 'store'>,
  intentId: string,
  options: { upToRevision?: bigint } = {},
): Promise<StreamState<OrderStreamState>> {
  return readState(deps.store, checkoutStream(intentId), orderStreamModel, options);
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
  const order = parseCheckoutOrderId(request.orderId);
  if (!order) {
    const repeated = await answerFromClaim();
    if (repeated) return repeated;
    throw refundOrderNotFound();
  }
  // Every attempt asks the key's claim first: a repeat, or a concurrent request that won, answers from it.
  const load = async (): Promise<LoadedState<RefundLoaded>> => {
    const repeated = await answerFromClaim();
    const stream = await loadOrderStream(deps, order.intentId);
    return { state: { repeated, order: stream.state }, revision: stream.revision };
  };
  try {
    const handled = await decideAndAppend(
      deps,
      checkoutStream(order.intentId),
      load,
      ({ repeated, order: state }, now): Decision<CheckoutRefunded, RefundDecided> => {
        if (repeated) return { events: [], result: { kind: 'answered', answer: repeated } };
        const outcome = decideRefund(state, {
          refundId,
          orderId: request.orderId,
          merchantUserId: request.merchantUserId,
          amountMlx: request.amountMlx,
        });
        if (outcome.kind === 'alreadyRefunded')
          return { events: [], result: { kind: 'answered', answer: { refund: toRefundOutput(outcome.refund) } } };
        const event = checkoutRefundedEvent(outcome.plan, now);
        return { events: [event], result: { kind: 'refund', plan: outcome.plan, event } };
      },
      {
        // The key's claim is this command's own: a concurrent request that claimed it first is answered from it.
        ownAppends: ({ result }) => {
          if (result.kind !== 'refund') return [];
          const claim = {
            merchantUserId: request.merchantUserId,
            operation: 'refund' as const,
            requestDigest: bodyDigest,
            resourceId: refundId,
            orderId: request.orderId,
            claimedAt: result.event.data.refundedAt,
          };
          return [claimAppend(digest, claim)];
        },
        // The refund's transfer carries the order's CheckoutRefunded and the claim in one append.
        appendWith: async (appends, { result }) => {
          if (result.kind !== 'refund') throw new Error('a refund with nothing to refund appended');
          const shopperAddress = await walletAddressOf(deps, result.plan.shopperUserId);
          if (!shopperAddress) throw refundOrderNotFound();
          const executed = await executeTransfer(deps, request.merchantUserId, refundTransfer(result.plan, shopperAddress), () => appends);
          // The merchant's wallet already holds this refund's transfer: appended by a concurrent repeat.
          return executed.position === undefined ? 'alreadyRecorded' : { position: executed.position };
        },
      },
    );
    const decided = handled.result;
    if (decided.kind === 'answered') return decided.answer;
    if (handled.position === undefined) throw new Error(`Refund ${refundId} appended without a position`);
    return {
      refund: toRefundOutput(toRefundRecord(decided.event)),
      appended: { position: handled.position, shopperUserId: decided.plan.shopperUserId },
    };
  } catch (error) {
    // A concurrent request with this key may have won; its claim decides the answer.
    const repeatedNow = error instanceof AppError ? await answerFromClaim() : undefined;
    if (repeatedNow) return repeatedNow;
    const refusal = transferRefusalOf(error);
    if (error instanceof AppError && refusal?.kind === 'insufficientFunds')
      throw new AppError('CONFLICT', 'errors:refundInsufficientFunds', { amount: 'errors:refundInsufficientFunds' }, error.params);
    throw error;
  }
}

/** What the refund's attempt found: a repeat answered from the claim or the order, or a refund to append. */
interface RefundLoaded {
  repeated: RefundResult | undefined;
  order: OrderStreamState;
}

type RefundDecided = { kind: 'answered'; answer: RefundResult } | { kind: 'refund'; plan: RefundPlan; event: CheckoutRefunded };

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

/**
 * Purchase command handlers over the ports: load the purchase stream, decide, append under the
 * expected revision, and decide again on a lost race (bounded, as the wallet handlers). The
 * credit and the refunds append the purchase event in the same atomic call as the transfer
 * (executeTransfer's companion, ADR 025), so a retry after a crash finds everything or nothing.
 */
import type { Clock } from '../shared/clock.js';
import { isRefusal } from '../shared/errors.js';
import {
  type Decision,
  decideAndAppend,
  handleCommand,
  type LoadedState,
  readState,
  type StreamModel,
  strictParser,
} from '../shared/command-handler.js';
import type { AppendResult, EventStore, ExpectedRevision } from '../shared/ports/event-store.js';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { executeTransfer, readWallet, walletAddressOf, type WalletDeps } from '../wallet/handlers.js';
import type { ExchangeRate } from '../wallet/money.js';
import { currentExchangeRate } from '../wallet/rate.js';
import { transferRefusalOf } from '../wallet/refusals.js';
import { availableMlx } from '../wallet/state.js';
import {
  type CaptureResult,
  type CreditPlanOutcome,
  type ReturnPlanOutcome,
  type PurchaseCommand,
  decidePurchase,
  ownOrder,
  providerApprovalFirst,
  planPurchaseCredit,
  planPurchaseReturn,
  PURCHASE_HOLD_HOURS_DEFAULT,
  purchaseCreditTransfer,
  purchaseHoldUntil,
  purchaseCreditedEvent,
  purchaseReserveLossEvent,
  purchaseReturnEvent,
  purchaseReturnTransfer,
} from './decider.js';
import {
  PURCHASE_CAPTURE_CLAIMED_EVENT,
  PURCHASE_ID_PATTERN,
  type PurchaseEvent,
  type PurchaseReturnKind,
  purchaseCaptureStream,
  purchaseStream,
  toPurchaseEvent,
} from './events.js';
import { parseUsdAmount, pricePurchase } from './pricing.js';
import { priceRefused, purchaseRefused } from './refusals.js';
import { type PurchaseState, type PurchaseStatus, evolvePurchase, initialPurchaseState, purchaseStatusOf } from './state.js';

export type PurchaseDeps = Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'> & {
  store: EventStore;
  clock: Clock;
  /**
   * How long bought MLX may not be sent or paid out after its credit (PURCHASE_HOLD_HOURS, ADR
   * 047); PURCHASE_HOLD_HOURS_DEFAULT hours when unset, none when 0.
   */
  purchaseHoldMs?: number;
};

/** A purchase event as appended: an order carries the buyer's language as metadata (for the receipt). */
type PurchaseAppend = PurchaseEvent & { metadata?: Record<string, unknown> };

/** How a purchase stream folds (ADR 063): every event parsed with its schema; one it cannot read is refused. */
export const purchaseModel: StreamModel<PurchaseState, PurchaseAppend> = {
  initialState: initialPurchaseState,
  evolve: evolvePurchase,
  parse: strictParser(toPurchaseEvent),
};

/** A purchase stream folded, with the revision to append under and its last event's log position. Purchase streams are short. */
export async function loadPurchase(
  deps: Pick<PurchaseDeps, 'store'>,
  orderId: string,
): Promise<{ state: PurchaseState; revision: ExpectedRevision; position: bigint | undefined }> {
  const { state, revision, events } = await readState(deps.store, purchaseStream(orderId), purchaseModel);
  return { state, revision, position: events.at(-1)?.position };
}

/** The purchase as a command decides on it, with the order that claimed the capture id it reports, if any. */
interface PurchaseOnLog {
  purchase: PurchaseState;
  captureClaimedBy: string | undefined;
}

/**
 * One purchase command through the pipeline (ADR 063). A capture is appended with its capture
 * id's claim stream ('no_stream'): a capture id belongs to one order only, and is found by id.
 */
async function executePurchaseCommand(
  deps: Pick<PurchaseDeps, 'store' | 'clock'>,
  command: PurchaseCommand,
  metadata?: Record<string, unknown>,
): Promise<{ state: PurchaseState; events: PurchaseEvent[] }> {
  const orderId = command.data.orderId;
  const streamId = purchaseStream(orderId);
  const reported =
    command.type === 'RecordCaptureResult' && command.data.result.status === 'completed' ? command.data.result.captureId : undefined;
  const load = async (): Promise<LoadedState<PurchaseOnLog>> => {
    const { state, revision } = await readState(deps.store, streamId, purchaseModel);
    const claimable = reported !== undefined && PURCHASE_ID_PATTERN.test(reported);
    return { state: { purchase: state, captureClaimedBy: claimable ? await findOrderIdByCaptureId(deps, reported) : undefined }, revision };
  };
  const handled = await decideAndAppend(
    deps,
    streamId,
    load,
    ({ purchase, captureClaimedBy }, now): Decision<PurchaseAppend, undefined> => {
      const decided = command.type === 'RecordCaptureResult' ? { ...command, data: { ...command.data, captureClaimedBy } } : command;
      const { events } = decidePurchase(purchase, decided, now);
      return { events: metadata ? events.map((event) => ({ ...event, metadata })) : events, result: undefined };
    },
    {
      ownAppends: ({ events }) =>
        events.flatMap((event) =>
          event.type === 'PurchaseCaptured'
            ? [
                {
                  streamId: purchaseCaptureStream(event.data.captureId),
                  events: [{ type: PURCHASE_CAPTURE_CLAIMED_EVENT, data: { captureId: event.data.captureId, orderId } }],
                  expectedRevision: 'no_stream' as const,
                },
              ]
            : [],
        ),
    },
  );
  return { state: handled.state.purchase, events: handled.events };
}

/** The order a capture id was recorded for, strongly consistent (its claim stream). */
export async function findOrderIdByCaptureId(deps: Pick<PurchaseDeps, 'store'>, captureId: string): Promise<string | undefined> {
  const [claim] = await deps.store.readStream(purchaseCaptureStream(captureId), { maxCount: 1 });
  return typeof claim?.data.orderId === 'string' ? claim.data.orderId : undefined;
}

export interface PricedOrder {
  orderId: string;
  usdCents: bigint;
  usdPerMlx: string;
  mlx: bigint;
}

/** The reserve's MLX available to sell; a failure to read it is the spec's "Failed to get reserve balance". */
export async function reserveAvailableMlx(deps: PurchaseDeps): Promise<bigint> {
  try {
    return availableMlx((await readWallet(deps, SYSTEM_WALLET_IDS.reserve)).state);
  } catch {
    throw purchaseRefused('reserveBalanceUnavailable');
  }
}

/** The current rate; none (or unreadable) is the Buy screen's "unavailable". */
async function exchangeRate(deps: PurchaseDeps): Promise<ExchangeRate> {
  const rate = await currentExchangeRate(deps.store).catch(() => undefined);
  if (!rate) throw purchaseRefused('exchangeRateUnavailable');
  return rate;
}

/**
 * The price of `usdText` ("10", "10.50") now, before the provider hears of the order: the amount
 * read, then the rate, the limits and the reserve. Refusals name the form field `usd`.
 */
export async function quotePurchase(deps: PurchaseDeps, usdText: string): Promise<{ usdCents: bigint; mlx: bigint }> {
  const parsed = parseUsdAmount(usdText);
  if (!parsed.ok) throw purchaseRefused('invalidUsdAmount', { usd: parsed.messageKey });
  const rate = await exchangeRate(deps);
  const price = pricePurchase({ usdCents: parsed.usdCents, rate, reserveAvailableMlx: await reserveAvailableMlx(deps) });
  if (!price.ok) throw priceRefused(price.messageKey, 'usd');
  return { usdCents: parsed.usdCents, mlx: price.mlx };
}

/** The buyer's own purchase: a made-up order is NOT_FOUND, someone else's FORBIDDEN. */
export async function loadOwnPurchase(deps: Pick<PurchaseDeps, 'store'>, orderId: string, buyerUserId: string) {
  if (!PURCHASE_ID_PATTERN.test(orderId)) throw purchaseRefused('notFound');
  const { state, revision, position } = await loadPurchase(deps, orderId);
  const order = ownOrder(state, buyerUserId);
  // An order was read, so its stream has a last event.
  if (position === undefined) throw purchaseRefused('notFound');
  return { state, revision, position, order };
}

/**
 * Prices and records an order the provider created (`orderId` is the provider's order id): the
 * current rate and the reserve's balance are read here, never taken from the client. A retry of
 * the same order answers with it; the same id for another buyer or amount is a CONFLICT.
 */
export async function orderPurchase(
  deps: PurchaseDeps,
  input: { buyerUserId: string; usdCents: bigint; orderId: string /** The buyer's language, for the receipt. */; language?: string },
): Promise<PricedOrder> {
  const rate = await exchangeRate(deps);
  const reserve = await reserveAvailableMlx(deps);
  const { state, events } = await executePurchaseCommand(
    deps,
    {
      type: 'OrderPurchase',
      data: { orderId: input.orderId, buyerUserId: input.buyerUserId, usdCents: input.usdCents, rate, reserveAvailableMlx: reserve },
    },
    input.language === undefined ? undefined : { language: input.language },
  );
  const ordered = events[0]?.type === 'PurchaseOrdered' ? events[0].data : undefined;
  if (ordered)
    return { orderId: ordered.orderId, usdCents: BigInt(ordered.usdCents), usdPerMlx: ordered.usdPerMlx, mlx: BigInt(ordered.mlx) };
  const order = state.order;
  if (!order) throw new Error('orderPurchase: no order after deciding');
  return { orderId: order.orderId, usdCents: order.usdCents, usdPerMlx: order.usdPerMlx, mlx: order.mlx };
}

/** The buyer approved the payment: recorded once per request id; a worker captures from the log. */
export async function requestCapture(
  deps: PurchaseDeps,
  input: { orderId: string; requestId: string; buyerUserId?: string },
): Promise<{ requested: boolean }> {
  const { events } = await executePurchaseCommand(deps, { type: 'RequestCapture', data: input });
  return { requested: events.length > 0 };
}

/**
 * What the provider answered to a capture: COMPLETED (with its capture id and amount) or a failure
 * such as INSTRUMENT_DECLINED; `requestId` is the approval it answers (the capture job's), else the open one.
 */
export async function recordCaptureResult(
  deps: PurchaseDeps,
  input: { orderId: string; result: CaptureResult; requestId?: string },
): Promise<{ recorded: boolean }> {
  const { events } = await executePurchaseCommand(deps, { type: 'RecordCaptureResult', data: input });
  return { recorded: events.length > 0 };
}

/** What the provider's own report of a capture did: nothing for an order Quern never priced. */
export type ProviderCaptureOutcome = { kind: 'unknownOrder' } | { kind: 'recorded' } | { kind: 'alreadyRecorded' };

/**
 * A COMPLETED capture the provider reports on its own (PayPal's webhook, or the sweep reading
 * PayPal's order): the approval is recorded first when the log has none (the browser went away
 * before asking), then the capture, answering the open approval.
 */
export async function recordProviderCapture(
  deps: PurchaseDeps,
  input: { orderId: string; captureId: string; usdCents: bigint },
): Promise<ProviderCaptureOutcome> {
  const { orderId } = input;
  const { state } = await loadPurchase(deps, orderId);
  if (!state.order) return { kind: 'unknownOrder' };
  const requestFirst = providerApprovalFirst(state);
  if (requestFirst !== undefined) await requestCapture(deps, { orderId, requestId: requestFirst });
  const result: CaptureResult = { status: 'completed', captureId: input.captureId, usdCents: input.usdCents };
  const { recorded } = await recordCaptureResult(deps, { orderId, result });
  return { kind: recorded ? 'recorded' : 'alreadyRecorded' };
}

/** The receipt e-mail of a credited order went out: recorded once (`recorded: false` when it was already). */
export async function recordPurchaseReceipt(
  deps: Pick<PurchaseDeps, 'store' | 'clock'>,
  input: { orderId: string; messageId: string },
): Promise<{ recorded: boolean }> {
  const { events } = await executePurchaseCommand(deps, { type: 'RecordReceiptSent', data: input });
  return { recorded: events.length > 0 };
}

export interface PurchaseCredit {
  orderId: string;
  captureId: string;
  buyerUserId: string;
  transferId: string;
  mlx: bigint;
  /** True when this call moved the MLX; false when the order had been credited before. */
  credited: boolean;
  /** The log position of the credit when this call made it (read-your-writes for the buyer's dashboard). */
  position?: bigint;
}

/**
 * Names an order by its own id or by its capture's; `id` is either (the spec's `POST
 * /api/reserve/transfer`): a capture id recorded for an order names that order, else it is the order id.
 */
export interface CreditInput {
  orderId?: string;
  captureId?: string;
  id?: string;
  buyerUserId?: string;
  mlx?: bigint;
}

async function resolveOrderId(deps: PurchaseDeps, input: CreditInput): Promise<string> {
  if (input.orderId !== undefined) return input.orderId;
  if (input.id !== undefined) return (await findOrderIdByCaptureId(deps, input.id)) ?? input.id;
  const orderId = input.captureId === undefined ? undefined : await findOrderIdByCaptureId(deps, input.captureId);
  if (orderId === undefined) throw purchaseRefused('notFound');
  return orderId;
}

/**
 * Moves the order's MLX from the reserve to its buyer, once per capture, whoever asks and however
 * often: the worker after PurchaseCaptured, and the buyer's client. Answers a credited order with
 * its credit (`credited: false`).
 */
export async function ensurePurchaseCredited(deps: PurchaseDeps, input: CreditInput): Promise<PurchaseCredit> {
  const orderId = await resolveOrderId(deps, input);
  const handled = await handleCommand(
    deps,
    purchaseStream(orderId),
    purchaseModel,
    (state, now): Decision<PurchaseAppend, CreditPlanOutcome> => {
      const outcome = planPurchaseCredit(state, input);
      if (outcome.kind === 'alreadyCredited') return { events: [], result: outcome };
      return { events: [purchaseCreditedEvent(outcome.plan, outcome.plan.transferId, now)], result: outcome };
    },
    {
      // PurchaseCredited goes with the reserve's and the buyer's transfer events in one append (ADR 025).
      appendWith: async (appends, { result }) => {
        if (result.kind !== 'credit') throw new Error('a credited purchase appended');
        const { plan } = result;
        const buyerAddress = await walletAddressOf(deps, plan.buyerUserId);
        if (!buyerAddress) throw purchaseRefused('unknownRecipient');
        const holdMs = deps.purchaseHoldMs ?? PURCHASE_HOLD_HOURS_DEFAULT * 3_600_000;
        const transfer = purchaseCreditTransfer(plan, buyerAddress, purchaseHoldUntil(deps.clock.now(), holdMs));
        const executed = await executeTransfer(deps, SYSTEM_WALLET_IDS.reserve, transfer, () => appends);
        // The reserve already holds this transfer: it was appended with PurchaseCredited after our read.
        return executed.position === undefined ? 'alreadyRecorded' : { position: executed.position };
      },
    },
  );
  const outcome = handled.result;
  if (outcome.kind === 'alreadyCredited') {
    const { captureId, transferId, mlx } = outcome.credit;
    return { orderId, captureId, buyerUserId: outcome.buyerUserId, transferId, mlx, credited: false };
  }
  const { orderId: id, captureId, buyerUserId, transferId, mlx } = outcome.plan;
  return {
    orderId: id,
    captureId,
    buyerUserId,
    transferId,
    mlx,
    credited: true,
    ...(handled.position === undefined ? {} : { position: handled.position }),
  };
}

/**
 * The credit endpoint's rule: moves the MLX once; any later call for the same order, including
 * a concurrent one that lost, is refused (CONFLICT `errors:purchaseAlreadyCredited`) and moves nothing.
 */
export async function creditPurchase(deps: PurchaseDeps, input: CreditInput): Promise<PurchaseCredit> {
  const credit = await ensurePurchaseCredited(deps, input);
  if (!credit.credited) throw purchaseRefused('alreadyCredited');
  return credit;
}

/** What crediting an order from the log did (the credit job and the sweep branch on it). */
export type LogCreditOutcome =
  | { kind: 'credited'; credit: PurchaseCredit }
  /** The log already holds the credit: the browser, the sweep, or an earlier run. */
  | { kind: 'alreadyCredited'; credit: PurchaseCredit }
  /** Money was given back before the credit; the credit is refused from then on (ADR 025). */
  | { kind: 'refunded' }
  /** Captured for another amount than ordered: never credited; an operator settles it with the buyer. */
  | { kind: 'capturedAmountMismatch' };

/** Credits a captured order as the log says (no client figures to check): the worker's and the sweep's credit. */
export async function creditFromLog(deps: PurchaseDeps, orderId: string): Promise<LogCreditOutcome> {
  try {
    const credit = await ensurePurchaseCredited(deps, { orderId });
    return { kind: credit.credited ? 'credited' : 'alreadyCredited', credit };
  } catch (error) {
    if (isRefusal(error, 'refunded')) return { kind: 'refunded' };
    if (isRefusal(error, 'capturedAmountMismatch')) return { kind: 'capturedAmountMismatch' };
    throw error;
  }
}

export interface PurchaseReturnRecorded {
  orderId: string;
  kind: PurchaseReturnKind;
  id: string;
  usdCents: bigint;
  mlxReturned: bigint;
  transferId?: string;
  /** False when this refund or reversal had been recorded before. */
  recorded: boolean;
}

/** A purchase with its buyer's available MLX, which bounds what a return takes back. */
interface ReturnOnLog {
  purchase: PurchaseState;
  buyerAvailableMlx: bigint;
}

async function recordReturn(
  deps: PurchaseDeps,
  input: { orderId: string; captureId: string; kind: PurchaseReturnKind; id: string; usdCents: bigint },
): Promise<PurchaseReturnRecorded> {
  const { orderId } = input;
  const streamId = purchaseStream(orderId);
  const load = async (): Promise<LoadedState<ReturnOnLog>> => {
    const { state, revision } = await readState(deps.store, streamId, purchaseModel);
    const buyerUserId = state.order?.buyerUserId;
    const buyerAvailableMlx = buyerUserId === undefined ? 0n : availableMlx((await readWallet(deps, buyerUserId)).state);
    return { state: { purchase: state, buyerAvailableMlx }, revision };
  };
  const handled = await decideAndAppend(
    deps,
    streamId,
    load,
    ({ purchase, buyerAvailableMlx }, now): Decision<PurchaseAppend, ReturnPlanOutcome> => {
      const outcome = planPurchaseReturn(purchase, input, buyerAvailableMlx);
      if (outcome.kind === 'alreadyRecorded') return { events: [], result: outcome };
      const loss = purchaseReserveLossEvent(outcome.plan, now);
      const returned = purchaseReturnEvent(outcome.plan, now);
      return { events: loss ? [returned, loss] : [returned], result: outcome };
    },
    {
      // The purchase events go with the buyer's transfer back to the reserve in one append (ADR 025).
      appendWith: async (appends, { result }) => {
        if (result.kind !== 'return') throw new Error('a recorded return appended');
        const { plan } = result;
        if (plan.mlxReturned === 0n) return deps.store.appendToStreams(appends).then((results) => ({ position: lastPosition(results) }));
        const reserveAddress = await walletAddressOf(deps, SYSTEM_WALLET_IDS.reserve);
        if (!reserveAddress) throw new Error('recordReturn: the reserve wallet is not open');
        try {
          const executed = await executeTransfer(deps, plan.buyerUserId, purchaseReturnTransfer(plan, reserveAddress), () => appends);
          // The transfer is already recorded (with its purchase event, after our read).
          return executed.position === undefined ? 'alreadyRecorded' : { position: executed.position };
        } catch (error) {
          // The buyer spent after the balance was read: the stream this return was decided on moved; decide again.
          if (transferRefusalOf(error)?.kind === 'insufficientFunds') return 'alreadyRecorded';
          throw error;
        }
      },
    },
  );
  const outcome = handled.result;
  if (outcome.kind === 'alreadyRecorded') {
    const r = outcome.recorded;
    return { orderId, kind: r.kind, id: r.id, usdCents: r.usdCents, mlxReturned: r.mlxReturned, transferId: r.transferId, recorded: false };
  }
  const { plan } = outcome;
  return {
    orderId,
    kind: plan.kind,
    id: plan.id,
    usdCents: plan.usdCents,
    mlxReturned: plan.mlxReturned,
    ...(plan.mlxReturned > 0n ? { transferId: plan.transferId } : {}),
    recorded: true,
  };
}

/** The log position of a multi-stream append's last event. */
function lastPosition(results: AppendResult[]): bigint {
  const last = results.at(-1);
  if (!last) throw new Error('an append answered no result');
  return last.position;
}

/** PAYMENT.CAPTURE.REFUNDED: takes back the refunded share of the MLX, as far as the buyer's balance allows. */
export function recordRefund(
  deps: PurchaseDeps,
  input: { orderId: string; captureId: string; refundId: string; usdCents: bigint },
): Promise<PurchaseReturnRecorded> {
  return recordReturn(deps, {
    orderId: input.orderId,
    captureId: input.captureId,
    kind: 'refund',
    id: input.refundId,
    usdCents: input.usdCents,
  });
}

/** PAYMENT.CAPTURE.REVERSED: as a refund, for a reversal (chargeback). */
export function recordReversal(
  deps: PurchaseDeps,
  input: { orderId: string; captureId: string; reversalId: string; usdCents: bigint },
): Promise<PurchaseReturnRecorded> {
  return recordReturn(deps, {
    orderId: input.orderId,
    captureId: input.captureId,
    kind: 'reversal',
    id: input.reversalId,
    usdCents: input.usdCents,
  });
}

export interface PurchaseView {
  orderId: string;
  buyerUserId: string;
  status: PurchaseStatus;
  usdCents: bigint;
  usdPerMlx: string;
  mlx: bigint;
  captureId?: string;
  creditTransferId?: string;
  lastFailure?: { issue: string; description: string };
  returnedUsdCents: bigint;
  returnedMlx: bigint;
}

/** A purchase as its buyer sees it; undefined when there is none, or (with `buyerUserId`) when it is someone else's. */
export async function readPurchase(
  deps: Pick<PurchaseDeps, 'store'>,
  orderId: string,
  buyerUserId?: string,
): Promise<PurchaseView | undefined> {
  const { state } = await loadPurchase(deps, orderId);
  const order = state.order;
  if (!order || (buyerUserId !== undefined && order.buyerUserId !== buyerUserId)) return undefined;
  const view: PurchaseView = {
    orderId: order.orderId,
    buyerUserId: order.buyerUserId,
    status: purchaseStatusOf(state),
    usdCents: order.usdCents,
    usdPerMlx: order.usdPerMlx,
    mlx: order.mlx,
    returnedUsdCents: state.returnedUsdCents,
    returnedMlx: state.returnedMlx,
  };
  if (state.capture) view.captureId = state.capture.captureId;
  if (state.credit) view.creditTransferId = state.credit.transferId;
  if (state.lastFailure) view.lastFailure = state.lastFailure;
  return view;
}

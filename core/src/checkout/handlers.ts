/**
 * Checkout handlers over the ports (ADR 029): resolve the merchant, decide on the intent's
 * stream, and pay with one atomic append of the shopper's and merchant's transfer events and
 * CheckoutPaid (executeTransfer's companion, as purchases do). A lost race reads the stream
 * again and finds the payment; so ten identical requests at once pay once.
 */
import { normalizeEmail, normalizeUsername } from '../identity/contracts.js';
import { findPayeeByEmail } from '../identity/email-verification.js';
import { findUserIdByKey, loadUser } from '../identity/handlers.js';
import { AppError } from '../shared/errors.js';
import { type ExpectedRevision, WrongExpectedRevisionError } from '../shared/ports/event-store.js';
import { executeTransfer, walletAddressOf, type WalletDeps } from '../wallet/handlers.js';
import { mlxFromWire } from '../wallet/money.js';
import { currentExchangeRate } from '../wallet/rate.js';
import { type CartLine, cartDigest, cartTotalMlx, checkoutIntentId } from './cart.js';
import { checkoutPaidEvent, checkoutTransfer, decideCheckout } from './decider.js';
import { checkoutStream, isOrderStreamRefundType, toCheckoutEvent } from './events.js';
import { type CheckoutPayment, type CheckoutState, evolveCheckout, initialCheckoutState } from './state.js';

export type CheckoutDeps = Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents'>;

const ATTEMPTS_MAX = 8;

export async function loadCheckout(
  deps: Pick<CheckoutDeps, 'store'>,
  intentId: string,
): Promise<{ state: CheckoutState; revision: ExpectedRevision }> {
  const records = await deps.store.readStream(checkoutStream(intentId));
  let state = initialCheckoutState();
  for (const record of records) {
    // An order's refunds share its stream (ADR 033); they are folded by the refunds capability.
    if (isOrderStreamRefundType(record.type)) continue;
    const event = toCheckoutEvent(record);
    if (!event) throw new Error(`Unreadable ${record.type} at ${checkoutStream(intentId)}@${record.revision}`);
    state = evolveCheckout(state, event);
  }
  const last = records[records.length - 1];
  return { state, revision: last ? last.revision : 'no_stream' };
}

export interface CheckoutMerchantFound {
  userId: string;
  /** The wallet the payment goes to. */
  address: string;
  username: string;
  displayName: string;
}

/** The merchant `to` names (a username, or an e-mail when it has an @), with a wallet to be paid into. */
export async function findCheckoutMerchant(deps: Pick<CheckoutDeps, 'store'>, to: string): Promise<CheckoutMerchantFound | undefined> {
  const text = to.trim();
  const userId = text.includes('@')
    ? await findPayeeByEmail(deps, normalizeEmail(text))
    : await findUserIdByKey(deps, 'username', normalizeUsername(text));
  const address = userId ? await walletAddressOf(deps, userId) : undefined;
  if (!userId || !address) return undefined;
  const user = (await loadUser(deps, userId)).state;
  if (!user) return undefined;
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  return { userId, address, username: user.username, displayName: fullName || user.username };
}

export interface CheckoutPayInput {
  shopperUserId: string;
  /** The merchant's username or e-mail. */
  to: string;
  priceMlx: bigint;
  cart: CartLine[];
  /** The shop's own order reference (ADR 043), bound to the order. */
  reference?: string;
}

export type CheckoutPayResult =
  | {
      kind: 'paid';
      payment: CheckoutPayment /** False when an identical checkout had paid already. */;
      paidNow: boolean;
      position?: bigint;
    }
  | { kind: 'insufficientFunds'; debitMlx: bigint; usdPerMlx?: string };

/**
 * Pays a checkout once: the same shopper, merchant, cart and price within the repeat window answer
 * with the first payment. Not enough MLX is an answer, not an error (the popup offers top-ups).
 */
export async function payCheckout(deps: CheckoutDeps, input: CheckoutPayInput): Promise<CheckoutPayResult> {
  if (cartTotalMlx(input.cart) !== input.priceMlx)
    throw new AppError('VALIDATION', 'errors:checkoutTotalMismatch', { price: 'errors:checkoutTotalMismatch' });
  const merchant = await findCheckoutMerchant(deps, input.to);
  if (!merchant) throw new AppError('NOT_FOUND', 'errors:checkoutMerchantNotFound', { to: 'errors:checkoutMerchantNotFound' });
  const rate = await currentExchangeRate(deps.store).catch(() => undefined);
  const facts = {
    intentId: checkoutIntentId({
      shopperUserId: input.shopperUserId,
      merchantUserId: merchant.userId,
      priceMlx: input.priceMlx,
      cart: input.cart,
      ...(input.reference === undefined ? {} : { reference: input.reference }),
    }),
    shopperUserId: input.shopperUserId,
    merchantUserId: merchant.userId,
    mlx: input.priceMlx,
    cartDigest: cartDigest(input.cart),
    ...(rate ? { usdPerMlx: rate.usdPerMlx } : {}),
    ...(input.reference === undefined ? {} : { reference: input.reference }),
    ...(input.cart[0] === undefined ? {} : { firstItem: input.cart[0].name }),
  };
  for (let attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
    const { state, revision } = await loadCheckout(deps, facts.intentId);
    const outcome = decideCheckout(state, facts, deps.clock.now());
    if (outcome.kind === 'alreadyPaid') return { kind: 'paid', payment: outcome.payment, paidNow: false };
    const { plan } = outcome;
    const now = deps.clock.now();
    const event = checkoutPaidEvent(plan, plan.transferId, now);
    try {
      const executed = await executeTransfer(deps, input.shopperUserId, checkoutTransfer(plan, merchant.address), () => ({
        streamId: checkoutStream(facts.intentId),
        events: [event as unknown as { type: string; data: Record<string, unknown> }],
        expectedRevision: revision,
      }));
      if (executed.position !== undefined) {
        const payment = evolveCheckout(initialCheckoutState(), event).payments[0] as CheckoutPayment;
        return { kind: 'paid', payment, paidNow: true, position: executed.position };
      }
      // The shopper's wallet already holds this transfer: it was appended with CheckoutPaid after our read.
    } catch (error) {
      if (error instanceof AppError && error.messageKey === 'errors:insufficientFunds') {
        const required = mlxFromWire(String(error.params.requiredMlx ?? '0'));
        const available = mlxFromWire(String(error.params.availableMlx ?? '0'));
        return { kind: 'insufficientFunds', debitMlx: required - available, ...(facts.usdPerMlx ? { usdPerMlx: facts.usdPerMlx } : {}) };
      }
      if (!(error instanceof WrongExpectedRevisionError) || error.streamId !== checkoutStream(facts.intentId)) throw error;
    }
  }
  throw new AppError('CONCURRENCY', 'errors:busy');
}

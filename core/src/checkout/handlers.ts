/**
 * Checkout handlers over the ports (ADR 029): resolve the merchant, decide on the intent's
 * stream, and pay with one atomic append of the shopper's and merchant's transfer events and
 * CheckoutPaid (executeTransfer's companion, as purchases do). A lost race reads the stream
 * again and finds the payment; so ten identical requests at once pay once.
 */
import { normalizeEmail, normalizeUsername } from '../identity/contracts.js';
import { findPayeeByEmail } from '../identity/email-verification.js';
import { findUserIdByKey, loadUser } from '../identity/handlers.js';
import { type Decision, type StreamModel, type StreamState, handleCommand, readState, strictParser } from '../shared/command-handler.js';
import { AppError } from '../shared/errors.js';
import { executeTransfer, walletAddressOf, type WalletDeps } from '../wallet/handlers.js';
import { currentExchangeRate } from '../wallet/rate.js';
import { transferRefusalOf } from '../wallet/refusals.js';
import { type CartLine, cartDigest, cartTotalMlx, checkoutIntentId } from './cart.js';
import { type CheckoutPlan, checkoutPaidEvent, checkoutTransfer, decideCheckout } from './decider.js';
import { type CheckoutEvent, type CheckoutPaid, checkoutStream, isOrderStreamRefundType, toCheckoutEvent } from './events.js';
import { type CheckoutPayment, type CheckoutState, evolveCheckout, initialCheckoutState } from './state.js';

export type CheckoutDeps = Pick<WalletDeps, 'store' | 'clock' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>;

/** An order's checkout stream as checkout reads it: its refunds are the refunds capability's (ADR 033). */
export const checkoutModel: StreamModel<CheckoutState, CheckoutEvent> = {
  initialState: initialCheckoutState,
  evolve: evolveCheckout,
  parse: strictParser(toCheckoutEvent, isOrderStreamRefundType),
};

export function loadCheckout(deps: Pick<CheckoutDeps, 'store'>, intentId: string): Promise<StreamState<CheckoutState>> {
  return readState(deps.store, checkoutStream(intentId), checkoutModel);
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
  try {
    const handled = await handleCommand(
      deps,
      checkoutStream(facts.intentId),
      checkoutModel,
      (state, now): Decision<CheckoutEvent, CheckoutDecided> => {
        const outcome = decideCheckout(state, facts, now);
        if (outcome.kind === 'alreadyPaid') return { events: [], result: outcome };
        const event = checkoutPaidEvent(outcome.plan, outcome.plan.transferId, now);
        return { events: [event], result: { kind: 'pay', plan: outcome.plan, event } };
      },
      {
        // CheckoutPaid goes with the shopper's and merchant's transfer events in one append.
        appendWith: async (appends, { result }) => {
          if (result.kind !== 'pay') throw new Error('a checkout with nothing to pay appended');
          const executed = await executeTransfer(deps, input.shopperUserId, checkoutTransfer(result.plan, merchant.address), () => appends);
          // The shopper's wallet already holds this transfer: it was appended with CheckoutPaid after our read.
          return executed.position === undefined ? 'alreadyRecorded' : { position: executed.position };
        },
      },
    );
    const decided = handled.result;
    if (decided.kind === 'alreadyPaid') return { kind: 'paid', payment: decided.payment, paidNow: false };
    const payment = evolveCheckout(initialCheckoutState(), decided.event).payments[0] as CheckoutPayment;
    return { kind: 'paid', payment, paidNow: true, position: handled.position };
  } catch (error) {
    const refusal = transferRefusalOf(error);
    if (refusal?.kind !== 'insufficientFunds') throw error;
    return { kind: 'insufficientFunds', debitMlx: refusal.shortMlx, ...(facts.usdPerMlx ? { usdPerMlx: facts.usdPerMlx } : {}) };
  }
}

/** What a checkout decided on its stream: answer the payment found, or pay with this CheckoutPaid. */
type CheckoutDecided = { kind: 'alreadyPaid'; payment: CheckoutPayment } | { kind: 'pay'; plan: CheckoutPlan; event: CheckoutPaid };

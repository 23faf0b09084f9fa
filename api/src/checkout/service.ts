/**
 * The checkout use cases as the api offers them (spec section 7: `POST /api/quern/checkout`;
 * ADR 029). Core pays once per checkout intent; this service turns the outcome into the spec's
 * answer: `{ success: true, message, token, order }`, or, when the shopper lacks MLX, `{ success:
 * false, code: 4001, message, data: { debit, rate } }` (an answer, not an error: the popup reads
 * it and offers top-ups). The token is an HMAC with the app secret (core/src/checkout/token.ts).
 */
import { type Language, errorText } from '@quern/core/i18n';
import {
  CHECKOUT_INSUFFICIENT_FUNDS_CODE,
  type CheckoutDeps,
  type CheckoutOrderView,
  type CheckoutMerchant,
  type CheckoutPayOutput,
  type CheckoutRequest,
  cartLinesOf,
  createCheckoutToken,
  checkoutTokenOrderId,
  findCheckoutMerchant,
  type MerchantOrder,
  merchantOrderOf,
  payCheckout,
  verifyCheckoutToken,
} from '@quern/core/checkout';
import { readCheckoutOrder } from '@quern/core/refunds';
import { AppError } from '@quern/core';
import type { Session } from '../identity/sessions.js';
import type { CheckoutLookupLimits } from './lookup-limits.js';

export interface CheckoutServiceDeps {
  core: CheckoutDeps;
  /** The key behind checkout tokens (APP_SECRET, or the one kept in DATA_DIR). */
  appSecret: string;
  /** Bounds on checkout.merchant per account and per client address (ADR 043). */
  lookupLimits: CheckoutLookupLimits;
  /** Tells the wallet service a user's balance changed at this log position (read-your-writes). */
  noteWrite?: (userId: string, position: bigint) => void;
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

// Another merchant's order answers exactly as a missing one does, so a key cannot probe for orders (ADR 031).
const orderNotFound = () => new AppError('NOT_FOUND', 'errors:checkoutOrderNotFound');
const tokenInvalid = () => new AppError('NOT_FOUND', 'errors:checkoutTokenInvalid');
// The merchant's own order under another reference: told apart, so the shop knows not to fulfil.
const referenceMismatch = () =>
  new AppError('NOT_FOUND', 'errors:checkoutReferenceMismatch', { reference: 'errors:checkoutReferenceMismatch' });

/** The token's claim: the order's facts as recorded, its reference included. */
const claimOf = (view: CheckoutOrderView) => ({
  orderId: view.orderId,
  merchantUserId: view.merchantUserId,
  mlx: view.mlx,
  ...(view.reference === undefined ? {} : { reference: view.reference }),
});

/** With an expected reference, the order must carry exactly it (an order without one never matches). */
function assertReference(view: CheckoutOrderView, expected: string | undefined): void {
  if (expected !== undefined && view.reference !== expected) throw referenceMismatch();
}

export function createCheckoutService(deps: CheckoutServiceDeps) {
  return {
    async pay(session: Session, request: CheckoutRequest, language: Language): Promise<CheckoutPayOutput> {
      const result = await payCheckout(deps.core, {
        shopperUserId: session.userId,
        to: request.to,
        priceMlx: request.price,
        cart: cartLinesOf(request),
        ...(request.reference === undefined ? {} : { reference: request.reference }),
      });
      if (result.kind === 'insufficientFunds') {
        const debit = result.debitMlx.toString();
        return {
          success: false,
          code: CHECKOUT_INSUFFICIENT_FUNDS_CODE,
          message: errorText('errors:checkoutInsufficientFunds', language, { debit }),
          data: { debit, rate: result.usdPerMlx ?? null },
        };
      }
      const { payment } = result;
      if (result.position !== undefined) {
        deps.noteWrite?.(payment.shopperUserId, result.position);
        deps.noteWrite?.(payment.merchantUserId, result.position);
      }
      const token = createCheckoutToken(deps.appSecret, {
        orderId: payment.orderId,
        merchantUserId: payment.merchantUserId,
        mlx: payment.mlx,
        ...(payment.reference === undefined ? {} : { reference: payment.reference }),
      });
      return { success: true, message: errorText('errors:checkoutPaid', language), token, order: payment.orderId };
    },

    /**
     * Who `to` names, for the popup to show before paying: the name and username it shows and
     * nothing else; a stranger (or a user without a wallet) is not found. Counted per account and
     * per client address, so it cannot map e-mails to people in bulk (ADR 043).
     */
    async merchant(session: Session, clientIp: string, to: string): Promise<CheckoutMerchant> {
      await deps.lookupLimits.count(session.userId, clientIp);
      const merchant = await findCheckoutMerchant(deps.core, to);
      return merchant ? { found: true, displayName: merchant.displayName, username: merchant.username } : { found: false };
    },

    /**
     * GET /api/v1/orders/{order}: the merchant's paid order; with a token, only when the token was
     * made for this very order, merchant, amount and reference (a token of another order is
     * refused); with a reference, only when the order carries it.
     */
    async merchantOrder(merchantUserId: string, orderId: string, token?: string, reference?: string): Promise<MerchantOrder> {
      const view = await readCheckoutOrder(deps.core, orderId);
      if (!view || view.merchantUserId !== merchantUserId) throw orderNotFound();
      if (token !== undefined && !verifyCheckoutToken(deps.appSecret, token, claimOf(view))) throw tokenInvalid();
      assertReference(view, reference);
      return merchantOrderOf(view);
    },

    /**
     * POST /api/v1/orders/verify: the order a genuine token of this merchant names; anything else is
     * refused alike. With a reference, the order must carry it.
     */
    async verifyToken(merchantUserId: string, token: string, reference?: string): Promise<MerchantOrder> {
      const orderId = checkoutTokenOrderId(token);
      const view = orderId ? await readCheckoutOrder(deps.core, orderId) : undefined;
      if (!orderId || !view || view.merchantUserId !== merchantUserId) throw tokenInvalid();
      if (!verifyCheckoutToken(deps.appSecret, token, claimOf(view))) throw tokenInvalid();
      assertReference(view, reference);
      return merchantOrderOf(view);
    },
  };
}

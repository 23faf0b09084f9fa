/**
 * The checkout token (ADR 029): proof, for the merchant, that an order was paid. It is
 * `<orderId>.<base64url HMAC-SHA256(app secret, order id, merchant, amount[, reference])>`: nothing
 * is stored, it cannot be made without the secret, and it verifies only for the order, merchant,
 * amount and shop's order reference it was made for (ADR 043), so a token of one order is no proof
 * for another (or for another amount or reference).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64url, constantTimeEqual } from '../identity/reset-token.js';
import { CHECKOUT_ORDER_ID_PATTERN } from './events.js';

export interface CheckoutTokenClaim {
  orderId: string;
  merchantUserId: string;
  mlx: bigint;
  /** The shop's own order reference; a token made with one verifies only with the same. */
  reference?: string;
}

/** The api's APP_SECRET is at least 32 characters; a short one would make the MAC guessable. */
const MIN_SECRET_LENGTH = 16;
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const MAX_TOKEN_LENGTH = 64 + 1 + 43;

function sign(secret: string, claim: CheckoutTokenClaim): string {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`The app secret must be at least ${MIN_SECRET_LENGTH} characters`);
  // A purpose prefix keeps these MACs apart from the reset links' made with the same secret.
  // A token without a reference signs what tokens signed before references existed, so those stay valid.
  const facts = [claim.orderId, claim.merchantUserId, claim.mlx.toString()];
  const message =
    claim.reference === undefined
      ? JSON.stringify(['checkout-token-v1', ...facts])
      : JSON.stringify(['checkout-token-v2', ...facts, claim.reference]);
  return base64url(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(message)));
}

export function createCheckoutToken(secret: string, claim: CheckoutTokenClaim): string {
  if (!CHECKOUT_ORDER_ID_PATTERN.test(claim.orderId)) throw new Error('createCheckoutToken: not a checkout order id');
  return `${claim.orderId}.${sign(secret, claim)}`;
}

/** The order id a token names, when it is well-formed (not yet verified: the order's facts are needed for that). */
export function checkoutTokenOrderId(token: unknown): string | undefined {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return undefined;
  const [orderId, signature, extra] = token.split('.');
  if (extra !== undefined || orderId === undefined || signature === undefined) return undefined;
  return CHECKOUT_ORDER_ID_PATTERN.test(orderId) && SIGNATURE_PATTERN.test(signature) ? orderId : undefined;
}

/** True when the token was made with this secret for exactly this order, merchant and amount. */
export function verifyCheckoutToken(secret: string, token: unknown, claim: CheckoutTokenClaim): boolean {
  if (checkoutTokenOrderId(token) !== claim.orderId) return false;
  const signature = (token as string).slice(claim.orderId.length + 1);
  return constantTimeEqual(sign(secret, claim), signature);
}

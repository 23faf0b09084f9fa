/**
 * A checkout's cart as Quern prices it: whole MLX, exact (bigint), and the digests that name it.
 * The intent id (ADR 029) is the same for the same shopper, merchant, cart and price, so a double
 * click, a retried request or the same checkout opened in a second tab all land on one stream.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export interface CartLine {
  name: string;
  priceMlx: bigint;
  quantity: bigint;
}

/** Σ price × quantity, exactly. */
export function cartTotalMlx(cart: readonly CartLine[]): bigint {
  let total = 0n;
  for (const line of cart) total += line.priceMlx * line.quantity;
  return total;
}

/** The cart in one canonical text (JSON of [name, price, quantity] in the shop's order). */
function canonicalCart(cart: readonly CartLine[]): string {
  return JSON.stringify(cart.map((line) => [line.name, line.priceMlx.toString(), line.quantity.toString()]));
}

const hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/** SHA-256 of the canonical cart (recorded in CheckoutPaid). */
export function cartDigest(cart: readonly CartLine[]): string {
  return hex(canonicalCart(cart));
}

/**
 * The checkout intent: shopper, merchant, price, cart and the shop's reference, hashed. Versioned, so a later change of
 * what makes two checkouts "the same" starts new streams instead of mixing meanings.
 */
export function checkoutIntentId(input: {
  shopperUserId: string;
  merchantUserId: string;
  priceMlx: bigint;
  cart: readonly CartLine[];
  /** The shop's order reference: two shop orders of the same cart are two intents. */
  reference?: string;
}): string {
  const facts = [input.shopperUserId, input.merchantUserId, input.priceMlx.toString(), canonicalCart(input.cart)];
  // Without a reference the intent is named as before references existed, so its stream stays the same.
  const text =
    input.reference === undefined
      ? JSON.stringify(['checkout-intent-v1', ...facts])
      : JSON.stringify(['checkout-intent-v2', ...facts, input.reference]);
  return hex(text).slice(0, 32);
}

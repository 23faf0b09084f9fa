// Proves the checkout input: whole-MLX prices as digits or safe integers, MLX in any case, 1 to 100 lines, and a total that must be the price; and that the cart's digests are stable and tell carts apart.
import { describe, expect, it } from 'vitest';
import { cartDigest, cartTotalMlx, checkoutIntentId } from './cart.js';
import { cartLinesOf, checkoutInput } from './contracts.js';

const valid = {
  cart: [
    { name: 'Tea', price: '50000', quantity: 2 },
    { name: 'Cup', price: 125000, quantity: '3' },
  ],
  price: '475000',
  currency: 'MLX',
  to: 'shop_owner',
};

const fieldsOf = (input: unknown) => {
  const parsed = checkoutInput.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`);
};

describe('checkout input', () => {
  it('given a valid checkout, when parsed, then prices and quantities are exact bigints and the currency is mlx', () => {
    const request = checkoutInput.parse(valid);
    expect(request.price).toBe(475_000n);
    expect(request.currency).toBe('mlx');
    expect(cartTotalMlx(cartLinesOf(request))).toBe(475_000n);
    for (const currency of ['mlx', 'Mlx', ' MLX ']) expect(checkoutInput.safeParse({ ...valid, currency }).success).toBe(true);
  });

  it('given a total that is not the price, then `price` says so', () => {
    expect(fieldsOf({ ...valid, price: '475001' })).toEqual(['price:errors:checkoutTotalMismatch']);
  });

  it('given another currency, then `currency` says only MLX is accepted', () => {
    for (const currency of ['USD', 'mlxx', '', 1, null])
      expect(fieldsOf({ ...valid, currency }), String(currency)).toEqual(['currency:errors:checkoutCurrencyNotSupported']);
  });

  it('given bad prices, quantities or carts, then each is refused with its reason', () => {
    for (const price of ['0', '-1', '1.5', '1e3', 1.5, 0, '', 'x'.repeat(30), Number.MAX_SAFE_INTEGER + 1, '90000000000000001'])
      expect(fieldsOf({ ...valid, price }), String(price)).toContain('price:errors:checkoutInvalidPrice');
    for (const quantity of [0, '0', 1.5, '1000001', -2])
      expect(fieldsOf({ ...valid, cart: [{ name: 'x', price: '1', quantity }], price: '1' }), String(quantity)).toContain(
        'cart.0.quantity:errors:checkoutInvalidQuantity',
      );
    const line = { name: 'x', price: '1', quantity: 1 };
    expect(fieldsOf({ ...valid, cart: [], price: '1' })).toEqual(['cart:errors:checkoutInvalidCart']);
    expect(fieldsOf({ ...valid, cart: Array(101).fill(line), price: '101' })).toEqual(['cart:errors:checkoutInvalidCart']);
    expect(checkoutInput.safeParse({ ...valid, cart: Array(100).fill(line), price: '100' }).success).toBe(true);
    expect(fieldsOf({ ...valid, cart: [{ ...line, name: '  ' }], price: '1' })).toEqual([
      'cart.0.name:errors:checkoutInvalidCart',
      'cart:errors:checkoutInvalidCart',
    ]);
    expect(fieldsOf({ ...valid, cart: ['x'], price: '1' })).toEqual([
      'cart.0:errors:checkoutInvalidCart',
      'cart:errors:checkoutInvalidCart',
    ]);
    expect(fieldsOf({ ...valid, to: '' })).toEqual(['to:errors:checkoutMerchantNotFound']);
    expect(checkoutInput.safeParse({ ...valid, redirect: 'https://shop' }).success).toBe(false);
  });

  it('given carts, then the digest and the intent id are stable and differ for any other shopper, merchant, price or line', () => {
    const cart = cartLinesOf(checkoutInput.parse(valid));
    const base = { shopperUserId: 's', merchantUserId: 'm', priceMlx: 475_000n, cart };
    const id = checkoutIntentId(base);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(checkoutIntentId({ ...base, cart: cart.map((line) => ({ ...line })) })).toBe(id);
    expect(cartDigest(cart)).toMatch(/^[0-9a-f]{64}$/);
    const others = [
      { ...base, shopperUserId: 't' },
      { ...base, merchantUserId: 'n' },
      { ...base, priceMlx: 475_001n },
      { ...base, cart: [...cart].reverse() },
      { ...base, cart: cart.map((line, i) => (i === 0 ? { ...line, name: 'Tea ' } : line)) },
      { ...base, reference: 'order-1' },
    ];
    for (const other of others) expect(checkoutIntentId(other)).not.toBe(id);
    expect(checkoutIntentId({ ...base, reference: 'order-1' })).not.toBe(checkoutIntentId({ ...base, reference: 'order-2' }));
  });

  it('given a shop order reference, then safe ones up to 64 characters are read and anything else names its message', () => {
    for (const reference of ['1', 'order-1001', 'INV/2026#7', 'a.b_c:d', 'x'.repeat(64)])
      expect(checkoutInput.parse({ ...valid, reference }).reference, reference).toBe(reference);
    expect(checkoutInput.parse(valid).reference).toBeUndefined();
    for (const reference of ['', ' a', 'a b', 'x'.repeat(65), '<b>', 'a"b', 'caf\u00e9', 'a\nb', 7, null])
      expect(fieldsOf({ ...valid, reference }), String(reference)).toEqual(['reference:errors:checkoutInvalidReference']);
  });
});

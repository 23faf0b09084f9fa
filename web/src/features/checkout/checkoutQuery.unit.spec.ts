// Proves the popup's reading of its query: price, currency or to missing goes home; a well-formed
// order is read exactly (digits, trimmed names, MLX in any case) with the redirect as an URL; a
// redirect that is not an absolute http(s) address (javascript:, data:, relative, //host) is an
// error, never a destination, and so is one on Quern's own origin; a cart that is not JSON, empty, or not adding up to the price, and
// another currency each name their message; and the message sent to the opener goes to one origin.
import { describe, expect, it } from 'vitest';
import { readCheckoutQuery } from './checkoutQuery.js';
import { checkoutMessage, postToShop, shopOrigin } from './openerMessage.js';

const CART = JSON.stringify([
  { name: ' Tea ', price: '100000', quantity: 3 },
  { name: 'Cup', price: 50000, quantity: '1' },
]);

function query(overrides: Record<string, string | null> = {}) {
  const values: Record<string, string | null> = { cart: CART, price: '350000', currency: 'MLX', to: 'shop_one', ...overrides };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== null) params.set(key, value);
  return readCheckoutQuery(params, QUERN_ORIGINS);
}

/** The popup's own origin and the configured public one. */
const QUERN_ORIGINS = ['http://127.0.0.1:3000', 'https://quern.example'];

describe('readCheckoutQuery', () => {
  it('given price, currency or to missing or blank, then the query is incomplete (the popup goes home)', () => {
    for (const missing of ['price', 'currency', 'to']) {
      expect(query({ [missing]: null }), missing).toEqual({ kind: 'incomplete' });
      expect(query({ [missing]: '  ' }), missing).toEqual({ kind: 'incomplete' });
    }
  });

  it('given a well-formed order, then its lines, total and the input for checkout.pay are read exactly', () => {
    const read = query({ redirect: 'https://shop.example/thanks?x=1', variant: 'dark', version: '2' });
    expect(read).toEqual({
      kind: 'valid',
      input: {
        cart: [
          { name: 'Tea', price: '100000', quantity: '3' },
          { name: 'Cup', price: '50000', quantity: '1' },
        ],
        price: '350000',
        currency: 'mlx',
        to: 'shop_one',
      },
      lines: [
        { name: 'Tea', price: '100000', quantity: '3' },
        { name: 'Cup', price: '50000', quantity: '1' },
      ],
      price: '350000',
      to: 'shop_one',
      redirect: new URL('https://shop.example/thanks?x=1'),
      variant: 'dark',
      version: '2',
    });
  });

  it('given the same query twice, then the same input (the server keys a checkout by it)', () => {
    const first = query();
    const second = query();
    expect(first.kind === 'valid' && second.kind === 'valid' && first.input).toEqual(second.kind === 'valid' && second.input);
  });

  it('given a redirect that is not an absolute http(s) address, then an error, whatever else is right', () => {
    for (const redirect of [
      'javascript:alert(1)',
      'data:text/html,hi',
      '/relative',
      '//evil.example/x',
      'ftp://shop.example',
      'not a url',
    ]) {
      expect(query({ redirect }), redirect).toEqual({ kind: 'invalid', messageKey: 'checkout:invalidRedirect' });
    }
    expect(query({ redirect: 'http://localhost:8080/back' }).kind).toBe('valid');
    expect(query({ redirect: '' }).kind).toBe('valid');
  });

  it('given a redirect on Quern’s own origin (the send call, any page), then the invalid-redirect error', () => {
    for (const redirect of [
      'http://127.0.0.1:3000/api/millix/send?to=mallory&amount=1000000&fee=1000',
      'HTTP://127.0.0.1:3000/',
      'https://quern.example/api/millix/send?to=mallory&amount=1&fee=1000',
      'https://QUERN.example:443/profile',
      'https://user:pass@quern.example/x',
    ]) {
      expect(query({ redirect }), redirect).toEqual({ kind: 'invalid', messageKey: 'checkout:invalidRedirect' });
    }
    // Another port, scheme or host is another origin: a shop may live there.
    for (const redirect of ['http://127.0.0.1:8080/thanks', 'http://quern.example/thanks', 'https://shop.quern.example/thanks']) {
      expect(query({ redirect }).kind, redirect).toBe('valid');
    }
  });

  it('given the shop’s order reference, then it goes to checkout.pay as it is; a malformed one is an error', () => {
    const read = query({ reference: 'order-1001' });
    expect(read.kind === 'valid' && read.input.reference).toBe('order-1001');
    const none = query({ reference: '' });
    expect(none.kind === 'valid' && 'reference' in none.input).toBe(false);
    for (const reference of ['order 1', '<b>', 'x'.repeat(65)])
      expect(query({ reference }), reference).toEqual({ kind: 'invalid', messageKey: 'errors:checkoutInvalidReference' });
  });

  it('given a faulty cart, total or currency, then the message of that fault', () => {
    expect(query({ cart: '{not json' })).toEqual({ kind: 'invalid', messageKey: 'errors:checkoutInvalidCart' });
    expect(query({ cart: null })).toEqual({ kind: 'invalid', messageKey: 'errors:checkoutInvalidCart' });
    expect(query({ cart: '[]' })).toEqual({ kind: 'invalid', messageKey: 'errors:checkoutInvalidCart' });
    expect(query({ price: '350001' })).toEqual({ kind: 'invalid', messageKey: 'errors:checkoutTotalMismatch' });
    expect(query({ price: '3.5' })).toEqual({ kind: 'invalid', messageKey: 'errors:checkoutInvalidPrice' });
    expect(query({ currency: 'USD' })).toEqual({ kind: 'invalid', messageKey: 'errors:checkoutCurrencyNotSupported' });
    // Two faults: the currency is told first.
    expect(query({ currency: 'USD', price: '1' })).toEqual({ kind: 'invalid', messageKey: 'errors:checkoutCurrencyNotSupported' });
  });
});

describe('the message to the shop', () => {
  it('given a redirect, then its origin; else the referrer’s when http(s); else none', () => {
    expect(shopOrigin(new URL('https://shop.example:8443/thanks'), 'https://other.example/')).toBe('https://shop.example:8443');
    expect(shopOrigin(null, 'http://localhost:4000/cart?id=1')).toBe('http://localhost:4000');
    expect(shopOrigin(null, '')).toBeNull();
    expect(shopOrigin(null, 'about:blank')).toBeNull();
  });

  it('given a paid order, then the spec’s fields go to the opener at that origin only, never to *', () => {
    const message = checkoutMessage(
      { origin: 'https://quern.example', href: 'https://quern.example/checkout?x' },
      { token: 'tok', order: 'ord' },
      42,
    );
    expect(message).toEqual({
      origin: 'https://quern.example',
      url: 'https://quern.example/checkout?x',
      target: 'checkout_window',
      event: 'checkout',
      success: true,
      token: 'tok',
      order: 'ord',
      timestamp: 42,
    });
    const posted: unknown[][] = [];
    const opener = { postMessage: (...args: unknown[]) => posted.push(args) };
    expect(postToShop({ opener } as unknown as Window, 'https://shop.example', message)).toBe(true);
    expect(posted).toEqual([[message, 'https://shop.example']]);
    expect(postToShop({ opener } as unknown as Window, null, message)).toBe(false);
    expect(postToShop({ opener: null } as unknown as Window, 'https://shop.example', message)).toBe(false);
    expect(posted).toHaveLength(1);
  });
});

// Proves the checkout token: it verifies for its own order, merchant, amount and shop reference with the secret it was made with, and for nothing else (another order, merchant, amount, reference or secret, a tampered or malformed token).
import { describe, expect, it } from 'vitest';
import { checkoutTokenOrderId, createCheckoutToken, verifyCheckoutToken } from './token.js';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const claim = { orderId: `${'0'.repeat(32)}-1`, merchantUserId: 'merchant-1', mlx: 250_000n };

describe('checkout token', () => {
  it('given a token, when verified with its own order, merchant and amount, then it holds, and it names its order', () => {
    const token = createCheckoutToken(SECRET, claim);
    expect(token.startsWith(`${claim.orderId}.`)).toBe(true);
    expect(checkoutTokenOrderId(token)).toBe(claim.orderId);
    expect(verifyCheckoutToken(SECRET, token, claim)).toBe(true);
    expect(createCheckoutToken(SECRET, claim)).toBe(token);
  });

  it('given a token, when verified for another order, merchant, amount or with another secret, then it fails', () => {
    const token = createCheckoutToken(SECRET, claim);
    expect(verifyCheckoutToken(SECRET, token, { ...claim, orderId: `${'0'.repeat(32)}-2` })).toBe(false);
    expect(verifyCheckoutToken(SECRET, token, { ...claim, merchantUserId: 'merchant-2' })).toBe(false);
    expect(verifyCheckoutToken(SECRET, token, { ...claim, mlx: 250_001n })).toBe(false);
    expect(verifyCheckoutToken(`${SECRET}x`, token, claim)).toBe(false);
  });

  it('given the signature of another order under this order id, or a tampered or malformed token, then it fails', () => {
    const other = { ...claim, orderId: `${'1'.repeat(32)}-1` };
    const replayed = `${claim.orderId}.${createCheckoutToken(SECRET, other).split('.')[1]}`;
    expect(verifyCheckoutToken(SECRET, replayed, claim)).toBe(false);
    const token = createCheckoutToken(SECRET, claim);
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [flipped, `${token}.x`, token.split('.')[1], '', 42, null, `${token}=`, 'x'.repeat(200)])
      expect(verifyCheckoutToken(SECRET, bad, claim), String(bad)).toBe(false);
  });

  it('given a token made with the shop’s order reference, then it verifies with that reference only, and a token without one never with one', () => {
    const withReference = { ...claim, reference: 'order-A' };
    const token = createCheckoutToken(SECRET, withReference);
    expect(verifyCheckoutToken(SECRET, token, withReference)).toBe(true);
    expect(verifyCheckoutToken(SECRET, token, { ...claim, reference: 'order-B' })).toBe(false);
    expect(verifyCheckoutToken(SECRET, token, claim)).toBe(false);
    expect(verifyCheckoutToken(SECRET, createCheckoutToken(SECRET, claim), withReference)).toBe(false);
  });

  it('given a short secret, when a token is made, then it throws instead of making a guessable MAC', () => {
    expect(() => createCheckoutToken('short', claim)).toThrow();
  });
});

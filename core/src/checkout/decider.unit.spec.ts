// Proves the checkout decisions (ADR 029): a new intent pays order 1, a repeat within the window answers with the first payment, after the window the same cart is payment 2, paying oneself and a corrupt stream are refused; and the wallet decider takes a checkout transfer only fee-free, user to user, settled at once.
import { describe, expect, it } from 'vitest';
import { SYSTEM_WALLET_IDS } from '../wallet/events.js';
import { NOW, alice, bob, credited, opened, testAddress } from '../../test/wallet-fixtures.js';
import { CHECKOUT_REPEAT_WINDOW_MS, type CheckoutRequestFacts, checkoutPaidEvent, checkoutTransfer, decideCheckout } from './decider.js';
import { evolveCheckout, initialCheckoutState } from './state.js';
import { refusal } from '../../test/refusal.js';
import { decide, decideTransfer, foldWallet } from '../../test/wallet-rules.js';

const INTENT = '0123456789abcdef0123456789abcdef';
const facts: CheckoutRequestFacts = {
  intentId: INTENT,
  shopperUserId: alice.walletId,
  merchantUserId: bob.walletId,
  mlx: 5000n,
  cartDigest: 'a'.repeat(64),
  usdPerMlx: '0.0001',
};

function paidState(at: Date) {
  const outcome = decideCheckout(initialCheckoutState(), facts, at);
  if (outcome.kind !== 'pay') throw new Error('expected a payment');
  return {
    plan: outcome.plan,
    state: evolveCheckout(initialCheckoutState(), checkoutPaidEvent(outcome.plan, outcome.plan.transferId, at)),
  };
}

describe('decideCheckout', () => {
  it('given a new intent, when decided, then it pays order <intent>-1 with a transfer id and key derived from the order', () => {
    const outcome = decideCheckout(initialCheckoutState(), facts, NOW);
    expect(outcome).toEqual({
      kind: 'pay',
      plan: { ...facts, orderId: `${INTENT}-1`, transferId: `checkout-${INTENT}-1`, idempotencyKey: `checkout:${INTENT}-1` },
    });
  });

  it('given a payment, when the same checkout comes within the window, then the first payment is the answer', () => {
    const { state } = paidState(NOW);
    const later = new Date(NOW.getTime() + CHECKOUT_REPEAT_WINDOW_MS - 1);
    const outcome = decideCheckout(state, facts, later);
    expect(outcome.kind).toBe('alreadyPaid');
    if (outcome.kind === 'alreadyPaid') expect(outcome.payment).toMatchObject({ orderId: `${INTENT}-1`, mlx: 5000n, usdPerMlx: '0.0001' });
  });

  it('given a payment, when the same checkout comes a whole window later, then it is a new order, number 2', () => {
    const { state } = paidState(NOW);
    const outcome = decideCheckout(state, facts, new Date(NOW.getTime() + CHECKOUT_REPEAT_WINDOW_MS));
    expect(outcome.kind === 'pay' && outcome.plan.orderId).toBe(`${INTENT}-2`);
  });

  it('given the shopper is the merchant, when decided, then it is refused on `to`', () => {
    const error = refusal(() => decideCheckout(initialCheckoutState(), { ...facts, merchantUserId: facts.shopperUserId }, NOW));
    expect([error.code, error.messageKey, error.fields]).toEqual(['VALIDATION', 'errors:checkoutToSelf', { to: 'errors:checkoutToSelf' }]);
  });

  it('given a stream whose payment is of another cart or amount, when decided, then it is a conflict, not a payment', () => {
    const { state } = paidState(NOW);
    for (const other of [{ mlx: 5001n }, { cartDigest: 'b'.repeat(64) }, { merchantUserId: 'someone' }])
      expect(refusal(() => decideCheckout(state, { ...facts, ...other }, NOW)).code).toBe('CONFLICT');
  });
});

describe('the wallet decider and checkout transfers', () => {
  const shopper = () => foldWallet([opened(alice), credited(10_000n, 'fund')]);
  const merchant = () => foldWallet([opened(bob)]);
  const plan = () => paidState(NOW).plan;

  it('given a checkout transfer, when decided, then it moves the price with fee 0 and every event names the order', () => {
    const decision = decideTransfer(checkoutTransfer(plan(), bob.address), shopper(), merchant(), NOW);
    const reference = { kind: 'checkout', orderId: `${INTENT}-1` };
    expect(decision.payerEvents.map((e) => [e.type, e.data])).toEqual([
      ['TransferReserved', expect.objectContaining({ amountMlx: '5000', feeMlx: '0', reference })],
      ['TransferPosted', expect.objectContaining({ amountMlx: '5000', feeMlx: '0', reference })],
    ]);
    expect(decision.payeeEvents[0]?.data).toMatchObject({ amountMlx: '5000', reference });
  });

  it('given a checkout transfer with a fee, or a plain send without one, then the fee is refused', () => {
    const command = checkoutTransfer(plan(), bob.address);
    const withFee = { ...command, data: { ...command.data, feeMlx: 1000n } };
    expect(refusal(() => decideTransfer(withFee, shopper(), merchant(), NOW)).messageKey).toBe('errors:invalidFee');
    const { reference: _r, ...plain } = command.data;
    expect(refusal(() => decideTransfer({ ...command, data: plain }, shopper(), merchant(), NOW)).messageKey).toBe('errors:invalidFee');
  });

  it('given a checkout transfer from or to a system account, or as a two-phase reservation, then it is refused', () => {
    const reserve = { walletId: SYSTEM_WALLET_IDS.reserve, address: testAddress(7) };
    const reserveState = foldWallet([opened(reserve, 'reserve'), credited(10_000n, 'fund', reserve)]);
    const fromReserve = checkoutTransfer(plan(), bob.address);
    expect(refusal(() => decideTransfer(fromReserve, reserveState, merchant(), NOW)).code).toBe('FORBIDDEN');
    const toReserve = checkoutTransfer({ ...plan(), merchantUserId: reserve.walletId }, reserve.address);
    expect(refusal(() => decideTransfer(toReserve, shopper(), foldWallet([opened(reserve, 'reserve')]), NOW)).code).toBe('FORBIDDEN');
    expect(refusal(() => decide(checkoutTransfer(plan(), bob.address), shopper(), NOW)).messageKey).toBe('errors:invalidRequest');
  });

  it('given a shopper short of MLX, when decided, then it is insufficient funds with what is required and available', () => {
    const poor = foldWallet([opened(alice), credited(3000n, 'fund')]);
    const error = refusal(() => decideTransfer(checkoutTransfer(plan(), bob.address), poor, merchant(), NOW));
    expect([error.messageKey, error.params]).toEqual(['errors:insufficientFunds', { requiredMlx: '5000', availableMlx: '3000' }]);
  });
});

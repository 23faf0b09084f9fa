// Proves the refund decider: the amount defaults to what is left, is between 1 and what is left, a fully refunded order is refused with its own message, only the order's merchant may refund (others get "not found", like an unknown order), a refund id already recorded answers with it, and the transfer goes merchant → shopper with fee 0 and its reference.
import { describe, expect, it } from 'vitest';
import { checkoutRefundedEvent, decideRefund, refundTransfer } from './decider.js';
import { evolveOrderStream, initialOrderStreamState, type OrderStreamState } from './state.js';
import { refusal } from '../../test/refusal.js';

const ORDER = `${'a'.repeat(32)}-1`;
const paid = (mlx = 1000n): OrderStreamState =>
  evolveOrderStream(initialOrderStreamState(), {
    type: 'CheckoutPaid',
    data: {
      orderId: ORDER,
      shopperUserId: 'shopper',
      merchantUserId: 'merchant',
      mlx: mlx.toString(),
      cartDigest: 'c'.repeat(64),
      transferId: 'checkout-t',
      paidAt: '2026-01-01T00:00:00.000Z',
    },
  });
const refundId = (n: number) => `re_${n.toString(16).padStart(32, '0')}`;
const request = (n: number, amountMlx?: bigint, merchantUserId = 'merchant') => ({
  refundId: refundId(n),
  orderId: ORDER,
  merchantUserId,
  amountMlx,
});

function refunded(state: OrderStreamState, n: number, amountMlx?: bigint): OrderStreamState {
  const outcome = decideRefund(state, request(n, amountMlx));
  if (outcome.kind !== 'refund') throw new Error('expected a refund');
  return evolveOrderStream(state, checkoutRefundedEvent(outcome.plan, new Date('2026-01-02T00:00:00.000Z')));
}

describe('decideRefund', () => {
  it('given no amount, then it refunds everything left; given one, exactly that', () => {
    expect(decideRefund(paid(), request(1))).toMatchObject({ kind: 'refund', plan: { mlx: 1000n, shopperUserId: 'shopper' } });
    const after = refunded(paid(), 1, 300n);
    expect(decideRefund(after, request(2))).toMatchObject({ kind: 'refund', plan: { mlx: 700n } });
    expect(decideRefund(after, request(2, 700n))).toMatchObject({ kind: 'refund', plan: { mlx: 700n } });
  });

  it('given more than is left, then it is refused with what is left; given 0, invalid', () => {
    const after = refunded(paid(), 1, 300n);
    const above = refusal(() => decideRefund(after, request(2, 701n)));
    expect([above.code, above.messageKey, above.params]).toEqual(['VALIDATION', 'errors:refundAboveRemaining', { leftMlx: '700' }]);
    expect(refusal(() => decideRefund(after, request(2, 0n))).messageKey).toBe('errors:invalidAmount');
  });

  it('given a fully refunded order, then any further refund is a conflict with its own message', () => {
    const full = refunded(refunded(paid(), 1, 400n), 2);
    const error = refusal(() => decideRefund(full, request(3, 1n)));
    expect([error.code, error.messageKey]).toEqual(['CONFLICT', 'errors:orderFullyRefunded']);
  });

  it('given another merchant, or an order not on the stream, then it is not found like an unknown order', () => {
    const other = refusal(() => decideRefund(paid(), request(1, undefined, 'someone')));
    const unknown = refusal(() => decideRefund(initialOrderStreamState(), request(1)));
    for (const error of [other, unknown]) expect([error.code, error.messageKey]).toEqual(['NOT_FOUND', 'errors:checkoutOrderNotFound']);
  });

  it('given a refund id already recorded, then it answers with that refund', () => {
    const after = refunded(paid(), 1, 300n);
    expect(decideRefund(after, request(1, 999n))).toMatchObject({ kind: 'alreadyRefunded', refund: { refundId: refundId(1), mlx: 300n } });
  });

  it('given a plan, then the transfer goes merchant → shopper with fee 0 and names the order and the refund', () => {
    const outcome = decideRefund(paid(), request(1, 10n));
    if (outcome.kind !== 'refund') throw new Error('expected a refund');
    expect(refundTransfer(outcome.plan, 'ADDR').data).toEqual({
      transferId: `refund-${refundId(1)}`,
      toAddress: 'ADDR',
      toWalletId: 'shopper',
      amountMlx: 10n,
      feeMlx: 0n,
      reference: { kind: 'checkoutRefund', orderId: ORDER, refundId: refundId(1) },
    });
  });
});

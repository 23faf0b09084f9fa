// Proves the pure folds of answers as of a moment: a wallet balance follows each event's stamped
// `balanceAfter` and, on an event without one, the one reducer, and is given as stable = posted −
// held and unstable = pending credits; a payment is built from its order's folded stream with only
// the refunds folded so far, and is undefined for another merchant or before it was paid.
import { describe, expect, it } from 'vitest';
import { evolveOrderStream, initialOrderStreamState } from '../refunds/state.js';
import type { WalletEvent } from '../wallet/events.js';
import { balanceAfterEvent, balanceOutputOf, ZERO_BALANCE } from './balance.js';
import { merchantPaymentOf } from './payment.js';

describe('balanceAfterEvent', () => {
  const credited: WalletEvent = {
    type: 'TransferCredited',
    data: {
      walletId: 'w',
      transferId: 't1',
      fromWalletId: 'x',
      fromAddress: 'a',
      toAddress: 'b',
      amountMlx: '5000',
      creditedAt: '2026-03-01T00:00:00.000Z',
    },
  };
  const reserved: WalletEvent = {
    type: 'TransferReserved',
    data: {
      walletId: 'w',
      transferId: 't2',
      fromAddress: 'b',
      toAddress: 'c',
      amountMlx: '2000',
      feeMlx: '1000',
      reservedAt: '2026-03-01T00:00:01.000Z',
    },
  };

  it('given events without stamps, then the reducer moves the balance; the output holds back what is reserved', () => {
    const balance = balanceAfterEvent(balanceAfterEvent(ZERO_BALANCE, credited), reserved);
    expect(balance).toEqual({ postedMlx: 5000n, heldMlx: 3000n, pendingCreditMlx: 0n });
    expect(balanceOutputOf(balance)).toEqual({ stable: '2000', unstable: '0' });
  });

  it('given a stamped event, then its stamp is the balance, whatever came before', () => {
    const stamped = {
      ...credited,
      data: { ...credited.data, balanceAfter: { postedMlx: '9', heldMlx: '4', pendingCreditMlx: '7' } },
    } as WalletEvent;
    expect(balanceOutputOf(balanceAfterEvent(ZERO_BALANCE, stamped))).toEqual({ stable: '5', unstable: '7' });
  });
});

describe('merchantPaymentOf', () => {
  const orderId = `${'a'.repeat(32)}-1`;
  const paid = evolveOrderStream(initialOrderStreamState(), {
    type: 'CheckoutPaid',
    data: {
      orderId,
      shopperUserId: 'shopper',
      merchantUserId: 'shop',
      mlx: '300000',
      cartDigest: 'c'.repeat(64),
      usdPerMlx: '0.0000125',
      transferId: `checkout-${orderId}`,
      paidAt: '2026-03-01T10:00:00Z',
    },
  });
  const refunded = evolveOrderStream(paid, {
    type: 'CheckoutRefunded',
    data: {
      refundId: `re_${'1'.repeat(32)}`,
      orderId,
      merchantUserId: 'shop',
      shopperUserId: 'shopper',
      mlx: '100000',
      transferId: 'refund-1',
      refundedAt: '2026-03-02T10:00:00Z',
    },
  });

  it('given the stream up to the payment, then it is paid with no refunds, its times as the list writes them', () => {
    expect(merchantPaymentOf(paid, orderId, 'shop', 'ada')).toEqual({
      id: orderId,
      object: 'payment',
      status: 'paid',
      amount: '300000',
      amount_refunded: '0',
      currency: 'MLX',
      usd_rate: '0.0000125',
      usd_value: '3.75',
      shopper_username: 'ada',
      created_at: '2026-03-01T10:00:00.000Z',
      refunds: [],
    });
  });

  it('given the stream up to its refund, then it is partially refunded with that refund', () => {
    expect(merchantPaymentOf(refunded, orderId, 'shop', null)).toMatchObject({
      status: 'partially_refunded',
      amount_refunded: '100000',
      shopper_username: null,
      refunds: [{ id: `re_${'1'.repeat(32)}`, amount: '100000', created_at: '2026-03-02T10:00:00.000Z' }],
    });
  });

  it('given another merchant, or a stream before the payment, then there is no payment', () => {
    expect(merchantPaymentOf(refunded, orderId, 'another shop', null)).toBeUndefined();
    expect(merchantPaymentOf(initialOrderStreamState(), orderId, 'shop', null)).toBeUndefined();
  });
});

// Proves that every history row gets the kind its words and its filter use: plain transfers by direction, a checkout by side, other purposes as themselves, and unknown purposes by direction.
import { describe, expect, it } from 'vitest';
import { historyKindOf, isHistoryKind } from './kind.js';

describe('historyKindOf', () => {
  it('given a plain transfer, then it is sent or received by its direction', () => {
    expect(historyKindOf({ transaction_type: 'debit' })).toBe('sent');
    expect(historyKindOf({ transaction_type: 'credit' })).toBe('received');
  });

  it('given a checkout payment, then the shopper paid and the shop received', () => {
    expect(historyKindOf({ transaction_type: 'debit', purpose: { kind: 'checkout' } })).toBe('checkout_payment');
    expect(historyKindOf({ transaction_type: 'credit', purpose: { kind: 'checkout' } })).toBe('checkout_received');
  });

  it('given another purpose, then it is that purpose on both sides', () => {
    for (const type of ['credit', 'debit'])
      for (const kind of ['checkout_refund', 'purchase', 'purchase_refund', 'purchase_reversal', 'payout', 'subscription_charge'])
        expect(historyKindOf({ transaction_type: type, purpose: { kind } })).toBe(kind);
  });

  it('given a purpose this code does not know, then the direction decides', () => {
    expect(historyKindOf({ transaction_type: 'credit', purpose: { kind: 'gift_card' } })).toBe('received');
    expect(isHistoryKind('gift_card')).toBe(false);
    expect(isHistoryKind('checkout')).toBe(false);
    expect(isHistoryKind('sent')).toBe(true);
  });
});

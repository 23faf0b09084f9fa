// Proves the words of history rows: plain sends and receipts name the other person, a checkout names the shop or the shopper with the shop's reference, a refund names the same reference and not the internal order id, and PayPal rows keep their wording.
import { describe, expect, it } from 'vitest';
import { describeTransaction } from './historyWords.js';
import type { PurposeLabel, WalletTransaction } from './walletFormat.js';

const t = (key: string, params?: Record<string, string>) => `${key}${params ? JSON.stringify(params) : ''}`;
const purposeLabel: PurposeLabel = (kind, params) => `purpose:${kind}${params ? JSON.stringify(params) : ''}`;
const ORDER = `${'a'.repeat(32)}-1`;
const row = (fields: Partial<WalletTransaction>): WalletTransaction =>
  ({
    transaction_hash: 'h1',
    transaction_type: 'debit',
    from_address: 'from-address',
    to_address: 'to-address',
    amount: '5000',
    create_date: '2026-11-27T10:00:00.000Z',
    ...fields,
  }) as WalletTransaction;

describe('describeTransaction', () => {
  it('given a plain send or receipt, then it says Sent to / Received from the username', () => {
    expect(describeTransaction(row({ to_user: { username: 'alice' } }), t, purposeLabel)).toBe('history.rows.sent{"party":"alice"}');
    expect(describeTransaction(row({ transaction_type: 'credit', from_user: { username: 'bob' } }), t, purposeLabel)).toBe(
      'history.rows.received{"party":"bob"}',
    );
  });

  it('given a checkout with a shop reference, then the shopper reads Payment to the shop and the shop Payment from the shopper, each with the reference', () => {
    const purpose = { kind: 'checkout', order_id: ORDER, merchant_reference: 'ORD-1042' } as WalletTransaction['purpose'];
    const shopper = describeTransaction(row({ purpose, to_user: { username: 'bob_shop' } }), t, purposeLabel);
    expect(shopper).toBe(
      'history.rows.withReference{"text":"history.rows.checkout_payment{\\"party\\":\\"bob_shop\\"}","reference":"ORD-1042"}',
    );
    const shop = describeTransaction(row({ purpose, transaction_type: 'credit', from_user: { username: 'ann' } }), t, purposeLabel);
    expect(shop).toContain('history.rows.checkout_received{\\"party\\":\\"ann\\"}');
    expect(shop).toContain('"reference":"ORD-1042"');
  });

  it('given a refund with a shop reference, then it names the reference, never the internal order id', () => {
    const purpose = {
      kind: 'checkout_refund',
      order_id: ORDER,
      refund_id: 're_1',
      merchant_reference: 'ORD-1042',
    } as WalletTransaction['purpose'];
    const text = describeTransaction(row({ purpose, transaction_type: 'credit', from_user: { username: 'bob_shop' } }), t, purposeLabel);
    expect(text).toContain('history.rows.checkout_refund_credit{\\"party\\":\\"bob_shop\\"}');
    expect(text).toContain('ORD-1042');
    expect(text).not.toContain(ORDER.slice(0, 10));
  });

  it("given a checkout without a shop reference, then the cart's first item names it; a reference wins over it", () => {
    const itemOnly = { kind: 'checkout', order_id: ORDER, first_item: 'Green tea 250 g' } as WalletTransaction['purpose'];
    const text = describeTransaction(row({ purpose: itemOnly, to_user: { username: 'bob_shop' } }), t, purposeLabel);
    expect(text).toContain('"reference":"Green tea 250 g"');
    const both = {
      kind: 'checkout',
      order_id: ORDER,
      merchant_reference: 'ORD-7',
      first_item: 'Green tea 250 g',
    } as WalletTransaction['purpose'];
    expect(describeTransaction(row({ purpose: both, to_user: { username: 'bob_shop' } }), t, purposeLabel)).toContain(
      '"reference":"ORD-7"',
    );
  });

  it('given a PayPal purchase, then its wording is kept', () => {
    const purpose = { kind: 'purchase', order_id: 'O1', capture_id: 'C1' } as WalletTransaction['purpose'];
    expect(describeTransaction(row({ purpose, transaction_type: 'credit' }), t, purposeLabel)).toBe('purpose:purchase');
  });
});

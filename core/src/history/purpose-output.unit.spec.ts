// Proves the transaction outputs take a transfer's purpose whole, keep rows without it valid, and refuse a purpose of an unknown kind or with a malformed id.
import { describe, expect, it } from 'vitest';
import { completedTransactionOutput, pendingTransactionOutput } from './contracts.js';

describe('purpose in the transaction outputs', () => {
  const row = {
    transaction_hash: 'purchase-C1',
    transaction_type: 'credit',
    from_address: 'addr-reserve',
    to_address: 'addr-buyer',
    amount: '833333',
    balance: '833333',
    transaction_date: '2026-01-02T03:04:05.000Z',
  };
  const purpose = { kind: 'purchase_refund', order_id: 'O1', capture_id: 'C1', refund_id: 'R1' };

  it('given a row with a purpose, when validated, then the purpose is kept whole (tRPC would strip an unknown field)', () => {
    expect(completedTransactionOutput.parse({ ...row, purpose })).toEqual({ ...row, purpose });
    const { balance: _b, transaction_date: _d, ...pendingRow } = row;
    expect(pendingTransactionOutput.parse({ ...pendingRow, create_date: row.transaction_date, purpose })).toMatchObject({ purpose });
  });

  it('given a checkout row, when validated, then its purpose is the order alone', () => {
    const checkout = { kind: 'checkout', order_id: 'O1' };
    expect(completedTransactionOutput.parse({ ...row, purpose: checkout })).toEqual({ ...row, purpose: checkout });
  });

  it('given a row without a purpose (a send, a deposit, a row projected before purposes), when validated, then it is valid as before', () => {
    expect(completedTransactionOutput.parse(row)).toEqual(row);
  });

  it('given a purpose of an unknown kind, with a missing or malformed id, when validated, then it is refused', () => {
    for (const bad of [
      { ...purpose, kind: 'gift' },
      { ...purpose, kind: 'purchaseRefund' },
      { kind: 'purchase', order_id: 'O1' },
      { ...purpose, capture_id: '' },
      { ...purpose, order_id: 'O 1' },
      { ...purpose, refund_id: 'x'.repeat(65) },
      { kind: 'checkout' },
    ])
      expect(completedTransactionOutput.safeParse({ ...row, purpose: bad }).success, JSON.stringify(bad)).toBe(false);
  });
});

// Proves a transfer's reference becomes the history's purpose under the API's snake_case names, for each kind, with the refund id only where there is one, and that the output schemas take it while rows without it stay valid.
import { describe, expect, it } from 'vitest';
import { completedTransactionOutput, pendingTransactionOutput } from './contracts.js';
import { type TransferReference, type TransferReferenceKind, transferReferenceKinds } from './events.js';
import { isTransactionPurposeKind, toTransactionPurpose, transactionPurposeKinds } from './purpose.js';

describe('toTransactionPurpose', () => {
  it('given a purchase reference, then its purpose names the order and the capture, and nothing else', () => {
    expect(toTransactionPurpose({ kind: 'purchase', orderId: 'O-1', captureId: 'C_1' })).toEqual({
      kind: 'purchase',
      order_id: 'O-1',
      capture_id: 'C_1',
    });
    expect(Object.keys(toTransactionPurpose({ kind: 'purchase', orderId: 'O', captureId: 'C' }))).not.toContain('refund_id');
  });

  it('given a refund and a reversal, then each keeps its kind and its refund or reversal id', () => {
    expect(toTransactionPurpose({ kind: 'purchaseRefund', orderId: 'O', captureId: 'C', refundId: 'R' })).toEqual({
      kind: 'purchase_refund',
      order_id: 'O',
      capture_id: 'C',
      refund_id: 'R',
    });
    expect(toTransactionPurpose({ kind: 'purchaseReversal', orderId: 'O', captureId: 'C', refundId: 'V' })).toEqual({
      kind: 'purchase_reversal',
      order_id: 'O',
      capture_id: 'C',
      refund_id: 'V',
    });
  });

  it('given every reference kind, then each has its own purpose kind, and the JSON is written in one fixed key order', () => {
    const referenceOf = (kind: TransferReferenceKind): TransferReference => {
      if (kind === 'checkout') return { kind, orderId: 'O' };
      if (kind === 'checkoutRefund') return { kind, orderId: 'O', refundId: 'R' };
      if (kind === 'payout') return { kind, payoutId: 'P' };
      if (kind === 'subscriptionCharge') return { kind, subscriptionId: 'sub_0123456789abcdef01234567', period: 2 };
      return { kind, orderId: 'O', captureId: 'C', refundId: 'R' };
    };
    const kinds = transferReferenceKinds.map((kind) => toTransactionPurpose(referenceOf(kind)).kind);
    expect(new Set(kinds)).toEqual(new Set(transactionPurposeKinds));
    expect(JSON.stringify(toTransactionPurpose({ refundId: 'R', captureId: 'C', orderId: 'O', kind: 'purchaseRefund' }))).toBe(
      '{"kind":"purchase_refund","order_id":"O","capture_id":"C","refund_id":"R"}',
    );
  });

  it('given a checkout reference, then the purpose names only its order', () => {
    expect(JSON.stringify(toTransactionPurpose({ kind: 'checkout', orderId: 'O' }))).toBe('{"kind":"checkout","order_id":"O"}');
  });

  it('given text, then only the four purpose kinds are recognised', () => {
    expect(transactionPurposeKinds.every(isTransactionPurposeKind)).toBe(true);
    for (const kind of ['purchaseRefund', 'gift', '', 'PURCHASE']) expect(isTransactionPurposeKind(kind)).toBe(false);
  });
});

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

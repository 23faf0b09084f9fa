// Proves a transfer's reference becomes the history's purpose under the API's snake_case names, for each kind, with the refund id only where there is one.
import { describe, expect, it } from 'vitest';
import { type KnownTransferReference, type TransferReferenceKind, transferReferenceKinds } from '../transfer-references/known.js';
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
    const referenceOf = (kind: TransferReferenceKind): KnownTransferReference => {
      if (kind === 'checkout') return { kind, orderId: 'O' };
      if (kind === 'checkoutRefund') return { kind, orderId: 'O', refundId: 'R' };
      if (kind === 'payout') return { kind, payoutId: 'P' };
      if (kind === 'invoicePayment') return { kind, invoiceId: `in_${'0'.repeat(32)}` };
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

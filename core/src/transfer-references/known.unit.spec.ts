// Proves the wallet's shape reader and the strict reader of the known kinds accept every kind's recorded JSON unchanged and refuse malformed ids, that only the strict reader refuses an unknown kind or a missing field, and that the one list of money capabilities gives every kind its terms once.
import { describe, expect, it } from 'vitest';
import { transferReferenceSchema } from '../wallet/transfer-reference.js';
import {
  type KnownTransferReference,
  MONEY_CAPABILITIES,
  moneyCapabilityNames,
  toKnownTransferReference,
  transferReferenceKinds,
  transferTermsBook,
} from './known.js';

const examples: KnownTransferReference[] = [
  { kind: 'purchase', orderId: 'ORDER1', captureId: 'CAPTURE1' },
  { kind: 'purchaseRefund', orderId: 'ORDER1', captureId: 'CAPTURE1', refundId: 'R1' },
  { kind: 'purchaseReversal', orderId: 'ORDER1', captureId: 'CAPTURE1', refundId: 'V1' },
  { kind: 'checkout', orderId: `${'a'.repeat(32)}-1` },
  { kind: 'checkoutRefund', orderId: `${'a'.repeat(32)}-1`, refundId: `re_${'2'.repeat(32)}` },
  { kind: 'payout', payoutId: `po_${'1'.repeat(32)}` },
  { kind: 'subscriptionCharge', subscriptionId: `sub_${'a'.repeat(24)}`, period: 3 },
  { kind: 'invoicePayment', invoiceId: `in_${'b'.repeat(32)}` },
];

describe('transfer references', () => {
  it('given one reference of every kind, when read by the wallet and strictly, then each comes back as recorded', () => {
    expect(new Set(examples.map((reference) => reference.kind))).toEqual(new Set(transferReferenceKinds));
    for (const reference of examples) {
      const recorded = JSON.parse(JSON.stringify(reference));
      expect(transferReferenceSchema.parse(recorded)).toEqual(reference);
      expect(toKnownTransferReference(recorded)).toEqual(reference);
    }
  });

  it('given a malformed id or count, when read by the wallet or strictly, then it is refused', () => {
    const malformed = [
      { kind: 'checkout', orderId: 'O 1' },
      { kind: 'checkout', orderId: '' },
      { kind: 'payout', payoutId: 'x'.repeat(65) },
      { kind: 'checkoutRefund', orderId: 'O1', refundId: 42 },
      { kind: 'subscriptionCharge', subscriptionId: 's1', period: '2' },
      { kind: 'subscriptionCharge', subscriptionId: 's1', period: 0 },
      { kind: 'subscriptionCharge', subscriptionId: 's1', period: 1.5 },
      { kind: 'subscriptionCharge', subscriptionId: 's1', period: 100_001 },
      { kind: 'Checkout', orderId: 'O1' },
      { orderId: 'O1' },
    ];
    for (const bad of malformed) {
      expect(transferReferenceSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      expect(toKnownTransferReference(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('given an unknown kind or a missing field, when read strictly, then it is refused though its shape is sound', () => {
    for (const unknown of [
      { kind: 'gift', orderId: 'O1' },
      { kind: 'payout' },
      { kind: 'purchase', orderId: 'O1' },
      { kind: 'subscriptionCharge', subscriptionId: 's1' },
    ]) {
      expect(transferReferenceSchema.safeParse(unknown).success).toBe(true);
      expect(toKnownTransferReference(unknown)).toBeUndefined();
    }
  });

  it("given the one list, then every capability's kinds have the wallet's terms, each kind belongs to one capability, and the names are the list's", () => {
    expect(moneyCapabilityNames).toEqual(Object.keys(MONEY_CAPABILITIES));
    for (const capability of Object.values(MONEY_CAPABILITIES)) expect(Object.keys(capability.terms)).toEqual([...capability.kinds]);
    expect(new Set(transferReferenceKinds).size).toBe(transferReferenceKinds.length);
    expect([...transferTermsBook.keys()]).toEqual([...transferReferenceKinds]);
  });
});

/**
 * Every kind of transfer reference, listed above the wallet (ADR 074): each capability owns its
 * kind (its type, schema and guard sit in its folder), the wallet knows only the shape, and this
 * list is where the readers above them (the history's purposes, tests) learn which kinds exist and
 * which fields each has. Adding a kind is its capability's file plus one line in each list here.
 */
import { z } from 'zod';
import { type CheckoutTransferReference, checkoutTransferReference, checkoutTransferTerms } from '../checkout/transfer-reference.js';
import { type PayoutTransferReference, payoutTransferReference, payoutTransferTerms } from '../payouts/transfer-reference.js';
import {
  type PurchaseTransferReference,
  purchaseReferenceKinds,
  purchaseTransferReference,
  purchaseTransferTerms,
} from '../purchases/transfer-reference.js';
import {
  type CheckoutRefundTransferReference,
  checkoutRefundTransferReference,
  checkoutRefundTransferTerms,
} from '../refunds/transfer-reference.js';
import {
  type SubscriptionChargeTransferReference,
  subscriptionChargeTransferReference,
  subscriptionChargeTransferTerms,
} from '../subscriptions/transfer-reference.js';
import type { TransferReference } from '../wallet/transfer-reference.js';
import type { TransferTerms, TransferTermsBook } from '../wallet/transfer-terms.js';

export type KnownTransferReference =
  | PurchaseTransferReference
  | CheckoutTransferReference
  | CheckoutRefundTransferReference
  | PayoutTransferReference
  | SubscriptionChargeTransferReference;
export type TransferReferenceKind = KnownTransferReference['kind'];

export const transferReferenceKinds: readonly TransferReferenceKind[] = [
  ...purchaseReferenceKinds,
  'checkout',
  'checkoutRefund',
  'payout',
  'subscriptionCharge',
];

/** A recorded reference read strictly: one of the kinds, with exactly the fields its capability gives it. */
export const knownTransferReferenceSchema: z.ZodType<KnownTransferReference> = z.union([
  purchaseTransferReference,
  checkoutTransferReference,
  checkoutRefundTransferReference,
  payoutTransferReference,
  subscriptionChargeTransferReference,
]);

/** The reference as one of the known kinds, or undefined when no capability has its kind and fields. */
export function toKnownTransferReference(reference: TransferReference): KnownTransferReference | undefined {
  const parsed = knownTransferReferenceSchema.safeParse(reference);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The wallet's terms of every kind (ADR 077), handed to the wallet by the composition root: the
 * wallet refuses a kind that is not here and folds each kind's effect on bought MLX's hold.
 */
export const transferTermsBook: TransferTermsBook = new Map<string, TransferTerms>(
  Object.entries({
    ...purchaseTransferTerms,
    ...checkoutTransferTerms,
    ...checkoutRefundTransferTerms,
    ...payoutTransferTerms,
    ...subscriptionChargeTransferTerms,
  } satisfies Record<TransferReferenceKind, TransferTerms>),
);

/**
 * Every way the purchase flow refuses, by name. The decider and the handlers throw a
 * RefusalError carrying the reason; the jobs, the api and the web app branch on the reason, and
 * the code and message key (what people read) come from this one table.
 */
import { type AppErrorCode, RefusalError } from '../shared/errors.js';
import type { PurchaseRefusalKey } from './pricing.js';

const REFUSALS = {
  invalidRequest: ['VALIDATION', 'errors:invalidRequest'],
  notFound: ['NOT_FOUND', 'errors:purchaseNotFound'],
  forbidden: ['FORBIDDEN', 'errors:purchaseForbidden'],
  idempotencyConflict: ['CONFLICT', 'errors:idempotencyConflict'],
  invalidUsdAmount: ['VALIDATION', 'errors:invalidUsdAmount'],
  amountOutOfRange: ['VALIDATION', 'errors:purchaseAmountOutOfRange'],
  unavailable: ['UNAVAILABLE', 'errors:purchaseUnavailable'],
  exchangeRateUnavailable: ['UNAVAILABLE', 'errors:exchangeRateUnavailable'],
  reserveBalanceUnavailable: ['UNAVAILABLE', 'errors:reserveBalanceUnavailable'],
  notApproved: ['CONFLICT', 'errors:purchaseNotApproved'],
  alreadyCaptured: ['CONFLICT', 'errors:purchaseAlreadyCaptured'],
  captureMismatch: ['CONFLICT', 'errors:purchaseCaptureMismatch'],
  notCaptured: ['CONFLICT', 'errors:purchaseNotCaptured'],
  notCredited: ['CONFLICT', 'errors:purchaseNotCredited'],
  /** The client asked to be credited another amount than the order's. */
  requestedAmountMismatch: ['VALIDATION', 'errors:purchaseAmountMismatch'],
  /** The provider captured another amount than ordered: never credited (ADR 025). */
  capturedAmountMismatch: ['CONFLICT', 'errors:purchaseAmountMismatch'],
  refunded: ['CONFLICT', 'errors:purchaseRefunded'],
  alreadyCredited: ['CONFLICT', 'errors:purchaseAlreadyCredited'],
  refundExceedsCapture: ['CONFLICT', 'errors:refundExceedsCapture'],
  unknownRecipient: ['NOT_FOUND', 'errors:unknownRecipient'],
} as const satisfies Record<string, readonly [AppErrorCode, string]>;

export type PurchaseRefusal = keyof typeof REFUSALS;

/** The refusal `reason`; `fields` names the form field it concerns, when one does. */
export function purchaseRefused(reason: PurchaseRefusal, fields: Record<string, string> = {}): RefusalError<PurchaseRefusal> {
  const [code, messageKey] = REFUSALS[reason];
  return new RefusalError(reason, code, messageKey, fields);
}

/** Pricing's refusals (a result, not an error: the web's Buy form prices too) as purchase refusals. */
const PRICE_REFUSALS: Record<PurchaseRefusalKey, PurchaseRefusal> = {
  'errors:purchaseAmountOutOfRange': 'amountOutOfRange',
  'errors:purchaseUnavailable': 'unavailable',
};

/** A price refusal as people get it: an amount out of range names the amount field `field`. */
export function priceRefused(messageKey: PurchaseRefusalKey, field: string): RefusalError<PurchaseRefusal> {
  const reason = PRICE_REFUSALS[messageKey];
  return purchaseRefused(reason, reason === 'amountOutOfRange' ? { [field]: messageKey } : {});
}

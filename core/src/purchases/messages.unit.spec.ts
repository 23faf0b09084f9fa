// Proves every message key the purchase capability can emit has English and Spanish text, and that the spec's texts are word for word.
import { describe, expect, it } from 'vitest';
import enErrors from '../i18n/locales/en/errors.json' with { type: 'json' };
import esErrors from '../i18n/locales/es/errors.json' with { type: 'json' };

/** Every "errors:" key in core/src/purchases (grep -ohE "errors:[a-zA-Z]+" core/src/purchases/*.ts); keep in step with the code. */
const purchaseErrorKeys = [
  'busy',
  'exchangeRateUnavailable',
  'idempotencyConflict',
  'insufficientFunds',
  'invalidRequest',
  'invalidUsdAmount',
  'purchaseAlreadyCaptured',
  'purchaseAlreadyCredited',
  'purchaseAmountMismatch',
  'purchaseAmountOutOfRange',
  'purchaseCaptureMismatch',
  'purchaseForbidden',
  'purchaseNotApproved',
  'purchaseNotCaptured',
  'purchaseNotCredited',
  'purchaseNotFound',
  'purchaseRefunded',
  'purchaseUnavailable',
  'refundExceedsCapture',
  'reserveBalanceUnavailable',
  'unknownRecipient',
];

describe('purchase messages', () => {
  it('given the error keys purchases use, when looked up, then English and Spanish both have text', () => {
    const en: Record<string, string> = enErrors;
    const es: Record<string, string> = esErrors;
    for (const key of purchaseErrorKeys) {
      expect(en[key], `en ${key}`).toMatch(/\S/);
      expect(es[key], `es ${key}`).toMatch(/\S/);
    }
  });

  it('given the spec, when its purchase texts are shown in English, then they are word for word', () => {
    expect([
      enErrors.purchaseAmountOutOfRange,
      enErrors.purchaseUnavailable,
      enErrors.exchangeRateUnavailable,
      enErrors.reserveBalanceUnavailable,
    ]).toEqual([
      'Purchase amount must be between 5 USD - 500 USD',
      'Currently unavailable. Please try later.',
      'Unable to get current exchange rate. Please try later.',
      'Failed to get reserve balance. Please try later.',
    ]);
  });
});

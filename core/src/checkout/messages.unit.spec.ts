// Proves every message key the checkout capability can emit has English and Spanish text, and that the 4001 message carries the MLX missing, grouped in the reader's language (ADR 058).
import { describe, expect, it } from 'vitest';
import { errorText } from '../i18n/index.js';
import enErrors from '../i18n/locales/en/errors.json' with { type: 'json' };
import esErrors from '../i18n/locales/es/errors.json' with { type: 'json' };

/** Every "errors:" key in core/src/checkout and api/src/checkout (grep -ohE "errors:[a-zA-Z]+"); keep in step with the code. */
const checkoutErrorKeys = [
  'busy',
  'checkoutCurrencyNotSupported',
  'checkoutInsufficientFunds',
  'checkoutInvalidCart',
  'checkoutInvalidPrice',
  'checkoutInvalidQuantity',
  'checkoutMerchantNotFound',
  'checkoutPaid',
  'checkoutToSelf',
  'checkoutTotalMismatch',
  'idempotencyConflict',
  'insufficientFunds',
  'invalidFee',
  'invalidRequest',
  'notAuthenticated',
];

describe('checkout messages', () => {
  it('given the error keys checkouts use, when looked up, then English and Spanish both have text', () => {
    const en: Record<string, string> = enErrors;
    const es: Record<string, string> = esErrors;
    for (const key of checkoutErrorKeys) {
      expect(en[key], `en ${key}`).toMatch(/\S/);
      expect(es[key], `es ${key}`).toMatch(/\S/);
    }
  });

  it('given the 4001 message, when shown, then it names the MLX missing in both languages', () => {
    expect(errorText('errors:checkoutInsufficientFunds', 'en', { debit: '250000' })).toContain('250,000 MLX');
    expect(errorText('errors:checkoutInsufficientFunds', 'es', { debit: '250000' })).toContain('250.000 MLX');
  });
});

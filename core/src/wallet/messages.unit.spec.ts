// Proves every message key the wallet capability can emit exists in English and Spanish, that every transaction purpose has a label in both, and that the wallet namespace has the same keys in both.
import { describe, expect, it } from 'vitest';
import enErrors from '../i18n/locales/en/errors.json' with { type: 'json' };
import esErrors from '../i18n/locales/es/errors.json' with { type: 'json' };
import enWallet from '../i18n/locales/en/wallet.json' with { type: 'json' };
import esWallet from '../i18n/locales/es/wallet.json' with { type: 'json' };
import { transferVoidReasons } from './events.js';
import { transactionPurposeKinds } from '../history/purpose.js';

/** Every "errors:" key in core/src/wallet (grep -ohE "errors:[a-zA-Z]+" core/src/wallet/*.ts); keep in step with the code. */
const walletErrorKeys = [
  'allFieldsRequired',
  'alreadySettled',
  'amountTooLarge',
  'cannotSendToSelf',
  'forbidden',
  'idempotencyConflict',
  'insufficientFunds',
  'invalidAddress',
  'invalidAmount',
  'invalidEmail',
  'invalidFee',
  'invalidRate',
  'invalidRecipient',
  'invalidRequest',
  'notFound',
  'tooManyPendingTransfers',
  'unknownRecipient',
];

function leafKeys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) => leafKeys(value, prefix ? `${prefix}.${key}` : key));
}

describe('wallet messages', () => {
  it('given the error keys the wallet uses, when looked up, then English and Spanish both have text', () => {
    const en: Record<string, string> = enErrors;
    const es: Record<string, string> = esErrors;
    for (const key of walletErrorKeys) {
      expect(en[key], `en ${key}`).toMatch(/\S/);
      expect(es[key], `es ${key}`).toMatch(/\S/);
    }
  });

  it('given the wallet namespace, when compared, then both languages have the same keys and no empty text', () => {
    expect(leafKeys(esWallet).sort()).toEqual(leafKeys(enWallet).sort());
    for (const key of leafKeys(enWallet))
      expect(key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], enWallet)).toMatch(/\S/);
  });

  it('given every void reason, when shown, then it has a message', () => {
    for (const reason of transferVoidReasons) expect(enWallet.voidReasons[reason]).toMatch(/\S/);
  });

  it('given every transaction purpose, when a row names it, then English and Spanish both have its label', () => {
    for (const kind of transactionPurposeKinds) {
      expect(enWallet.purposes[kind], `en ${kind}`).toMatch(/\S/);
      expect(esWallet.purposes[kind], `es ${kind}`).toMatch(/\S/);
    }
  });
});

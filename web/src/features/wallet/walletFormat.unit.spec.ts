// Proves the dashboard's transaction formatting: the spec's credit/debit rule and its signs, the
// date a transaction shows, and the other party shown by what a purchase was, else by username or
// shortened address.
import { describe, expect, it } from 'vitest';
import { ADDRESS_A, ADDRESS_B, completed, pending } from '../../../test/walletTestKit.js';
import { directionOf, otherPartyOf, purposeKindOf, signedAmount, transactionDateOf, type WalletTransaction } from './walletFormat.js';

describe('signed amounts', () => {
  it("given the spec's rule, then only 'credit' is incoming and signs follow it", () => {
    expect(directionOf({ transaction_type: 'credit' })).toBe('credit');
    expect(directionOf({ transaction_type: 'debit' })).toBe('debit');
    expect(signedAmount({ transaction_type: 'credit', amount: '1000' }, 'en')).toBe('+1,000');
    expect(signedAmount({ transaction_type: 'debit', amount: '1000' }, 'en')).toBe('\u22121,000');
  });
});

describe('transaction dates', () => {
  it('given completed and pending transactions, then the date is transaction_date, else create_date', () => {
    expect(transactionDateOf(completed())).toBe('2026-11-22T15:04:00.000Z');
    expect(transactionDateOf(pending())).toBe('2026-11-23T09:30:00.000Z');
  });
});

describe('otherPartyOf', () => {
  /** Stands in for the translation: the label says which purpose it was asked for. */
  const purposeLabel = (kind: string) => `label:${kind}`;

  it('given a purchase credit from the reserve, then the purpose names it instead of the reserve’s address, which stays the title', () => {
    const bought = completed({ purpose: { kind: 'purchase', order_id: 'O1', capture_id: 'C1' } });
    expect(otherPartyOf(bought, purposeLabel)).toEqual({ label: 'label:purchase', address: ADDRESS_B });
    expect(purposeKindOf(bought)).toBe('purchase');
  });

  it('given a refund or a chargeback debit to the reserve, then the purpose names the recipient side, even over a username', () => {
    const purpose = { order_id: 'O1', capture_id: 'C1', refund_id: 'R1' };
    expect(otherPartyOf(pending({ purpose: { ...purpose, kind: 'purchase_refund' } }), purposeLabel)).toEqual({
      label: 'label:purchase_refund',
      address: ADDRESS_B,
    });
    expect(
      otherPartyOf(completed({ transaction_type: 'debit', purpose: { ...purpose, kind: 'purchase_reversal' } }), purposeLabel),
    ).toEqual({
      label: 'label:purchase_reversal',
      address: ADDRESS_A,
    });
  });

  it('given a checkout payment, then the shop or shopper is named like any send; the purpose only when no username is known', () => {
    const purpose = { kind: 'checkout' as const, order_id: 'ORDER-9' };
    expect(otherPartyOf(completed({ from_user: { username: 'shopper' }, purpose }), purposeLabel)).toEqual({
      label: 'shopper',
      address: ADDRESS_B,
    });
    expect(otherPartyOf(completed({ purpose }), purposeLabel)).toEqual({ label: 'label:checkout', address: ADDRESS_B });
  });

  it('given a purpose of a kind a newer server added, then the row falls back to the address as for any transfer', () => {
    const odd = completed({ purpose: { kind: 'gift', order_id: 'O1', capture_id: 'C1' } as unknown as WalletTransaction['purpose'] });
    expect(purposeKindOf(odd)).toBeUndefined();
    expect(otherPartyOf(odd, purposeLabel)).toEqual({ label: '1BoatSLRHt…b53LETtpyT', address: ADDRESS_B });
    expect(purposeKindOf(completed())).toBeUndefined();
  });

  it('given a credit from a known user, then the sender’s username shows, with the full address kept', () => {
    expect(otherPartyOf(completed({ from_user: { username: 'bob' } }), purposeLabel)).toEqual({ label: 'bob', address: ADDRESS_B });
  });

  it('given a credit from outside Quern, then the shortened sender address shows', () => {
    expect(otherPartyOf(completed(), purposeLabel)).toEqual({ label: '1BoatSLRHt…b53LETtpyT', address: ADDRESS_B });
  });

  it('given a debit, then the recipient is the other party', () => {
    expect(otherPartyOf(pending(), purposeLabel)).toEqual({ label: 'bob', address: ADDRESS_B });
    expect(otherPartyOf(pending({ to_user: undefined, to_address: ADDRESS_A }), purposeLabel)).toEqual({
      label: '16UwLL9Ris…BQ7wMtjvM',
      address: ADDRESS_A,
    });
  });
});

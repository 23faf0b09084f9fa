// Proves the dashboard's formatting: MLX with thousands separators per language, USD equivalents
// with two decimals only when a valid rate exists, British 12-hour dates (short on phones), the
// spec's credit/debit rule and the other party shown by what a purchase was, else by username or
// shortened address.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADDRESS_A, ADDRESS_B, completed, pending } from '../../../test/walletTestKit.js';
import {
  directionOf,
  displayParams,
  formatMlxWire,
  formatTransactionDate,
  formatUsdEquivalent,
  otherPartyOf,
  purposeKindOf,
  signedAmount,
  transactionDateOf,
  type WalletTransaction,
} from './walletFormat.js';

afterEach(() => vi.restoreAllMocks());

describe('amounts', () => {
  it('given wire amounts, then they are grouped for the language, beyond what a float holds exactly', () => {
    expect(formatMlxWire('9000000000000000', 'en')).toBe('9,000,000,000,000,000');
    expect(formatMlxWire('9007199254740993', 'es')).toBe('9.007.199.254.740.993');
    expect(formatMlxWire('0', 'en')).toBe('0');
  });

  it.each(['-5', '1.5', '1e9', '', '01'])('given the malformed wire amount %j, then nothing is shown and it is logged', (wire) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(formatMlxWire(wire, 'en')).toBeNull();
    expect(consoleError).toHaveBeenCalled();
  });

  it('given a rate, then the USD equivalent has two decimals, rounded half up', () => {
    expect(formatUsdEquivalent('1234567', '0.000012', 'en')).toBe('14.81');
    expect(formatUsdEquivalent('1234567', '0.000012', 'es')).toBe('14,81');
    expect(formatUsdEquivalent('125000000', '0.01', 'en')).toBe('1,250,000.00');
    expect(formatUsdEquivalent('0', '0.01', 'en')).toBe('0.00');
  });

  it.each([[null], [undefined], [''], ['0'], ['abc'], ['-1']])('given the rate %j, then there is no USD equivalent', (rate) => {
    expect(formatUsdEquivalent('1000', rate, 'en')).toBeNull();
  });

  it("given the spec's rule, then only 'credit' is incoming and signs follow it", () => {
    expect(directionOf({ transaction_type: 'credit' })).toBe('credit');
    expect(directionOf({ transaction_type: 'debit' })).toBe('debit');
    expect(signedAmount({ transaction_type: 'credit', amount: '1000' }, 'en')).toBe('+1,000');
    expect(signedAmount({ transaction_type: 'debit', amount: '1000' }, 'en')).toBe('\u22121,000');
  });
});

describe('displayParams', () => {
  it('given MLX amounts in wire digits, then they are grouped; other values are left alone', () => {
    expect(displayParams({ requiredMlx: '3001000', availableMlx: '0', minutes: 5, name: '1000' }, 'es')).toEqual({
      requiredMlx: '3.001.000',
      availableMlx: '0',
      minutes: 5,
      name: '1000',
    });
  });

  it('given an MLX parameter that is not wire digits, then it is shown as sent', () => {
    expect(displayParams({ requiredMlx: 'lots' }, 'en')).toEqual({ requiredMlx: 'lots' });
  });
});

describe('dates', () => {
  it('given an instant, then desktop reads "22/11/2026, 3:04 pm" and phones "22/11/2026"', () => {
    expect(formatTransactionDate('2026-11-22T15:04:00Z', 'long', 'UTC')).toBe('22/11/2026, 3:04 pm');
    expect(formatTransactionDate('2026-11-22T00:04:00Z', 'long', 'UTC')).toBe('22/11/2026, 12:04 am');
    expect(formatTransactionDate('2026-11-22T15:04:00Z', 'short', 'UTC')).toBe('22/11/2026');
  });

  it('given text that is no date, then it is shown as it came rather than as "Invalid Date"', () => {
    expect(formatTransactionDate('yesterday', 'long', 'UTC')).toBe('yesterday');
  });

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

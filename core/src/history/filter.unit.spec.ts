// Proves the dashboard history filter: each field matches only its rows (kind, counterparty by username or address on the other side, inclusive UTC days), fields combine, and bad input is refused per field with its own message.
import { describe, expect, it } from 'vitest';
import { historyFilterInput, matchesHistoryFilter, parseHistoryCounterparty } from './filter.js';
import { transactionsPageQuery, transactionsRestQuery } from './contracts.js';
import { testAddress } from '../../test/wallet-fixtures.js';

const me = testAddress(1);
const alice = testAddress(2);
const shop = testAddress(3);

const sentToAlice = {
  transaction_type: 'debit',
  from_address: me,
  to_address: alice,
  to_username: 'Alice',
  transaction_date: '2026-03-01T23:59:59.000Z',
};
const fromAlice = {
  transaction_type: 'credit',
  from_address: alice,
  to_address: me,
  from_username: 'alice',
  transaction_date: '2026-03-02T00:00:00.000Z',
};
const paidShop = {
  transaction_type: 'debit',
  from_address: me,
  to_address: shop,
  to_username: 'bob_shop',
  transaction_date: '2026-04-10T12:00:00.000Z',
  purpose: { kind: 'checkout' },
};
const rows = [sentToAlice, fromAlice, paidShop];
const matching = (filter: unknown) => rows.filter((row) => matchesHistoryFilter(row, historyFilterInput.parse(filter)));

const messagesOf = (input: unknown) => {
  const result = historyFilterInput.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('matchesHistoryFilter', () => {
  it('given no field, then every row matches', () => {
    expect(rows.filter((row) => matchesHistoryFilter(row, {}))).toEqual(rows);
  });

  it('given a kind, then only rows of that kind match', () => {
    expect(matching({ kind: 'sent' })).toEqual([sentToAlice]);
    expect(matching({ kind: 'received' })).toEqual([fromAlice]);
    expect(matching({ kind: 'checkout_payment' })).toEqual([paidShop]);
    expect(matching({ kind: 'payout' })).toEqual([]);
  });

  it('given a username in any case, then rows whose other party is that user match', () => {
    expect(matching({ counterparty: 'ALICE' })).toEqual([sentToAlice, fromAlice]);
    expect(matching({ counterparty: ' bob_shop ' })).toEqual([paidShop]);
    expect(matching({ counterparty: 'alic' })).toEqual([]);
  });

  it('given a millix address, then rows whose other party has it match, never the own side', () => {
    expect(matching({ counterparty: alice })).toEqual([sentToAlice, fromAlice]);
    expect(matching({ counterparty: me })).toEqual([]);
  });

  it('given from and to days, then both ends are inclusive UTC days', () => {
    expect(matching({ from: '2026-03-02' })).toEqual([fromAlice, paidShop]);
    expect(matching({ to: '2026-03-01' })).toEqual([sentToAlice]);
    expect(matching({ from: '2026-03-01', to: '2026-03-02' })).toEqual([sentToAlice, fromAlice]);
    expect(matching({ from: '2026-04-10', to: '2026-04-10' })).toEqual([paidShop]);
  });

  it('given several fields, then a row must match all of them', () => {
    expect(matching({ counterparty: 'alice', kind: 'received' })).toEqual([fromAlice]);
    expect(matching({ counterparty: 'alice', from: '2026-03-02', kind: 'sent' })).toEqual([]);
  });
});

describe('historyFilterInput', () => {
  it('given bad fields, then each is refused with its own message', () => {
    expect(messagesOf({ kind: 'DEBIT' })).toEqual({ kind: 'errors:historyFilterKind' });
    expect(messagesOf({ counterparty: 'a b' })).toEqual({ counterparty: 'errors:historyFilterCounterparty' });
    expect(messagesOf({ counterparty: 'x'.repeat(500) })).toEqual({ counterparty: 'errors:historyFilterCounterparty' });
    expect(messagesOf({ from: '2026-02-30' })).toEqual({ from: 'errors:historyFilterFrom' });
    expect(messagesOf({ to: '01/02/2026' })).toEqual({ to: 'errors:historyFilterTo' });
    expect(messagesOf({ from: 5 })).toEqual({ from: 'errors:historyFilterFrom' });
  });

  it('given to before from, or more than 10 years apart, then the range is refused', () => {
    expect(messagesOf({ from: '2026-03-02', to: '2026-03-01' })).toEqual({ to: 'errors:historyFilterRange' });
    expect(messagesOf({ from: '2000-01-01', to: '2026-01-01' })).toEqual({ to: 'errors:historyFilterRangeTooWide' });
    expect(messagesOf({ from: '2016-01-01', to: '2026-01-01' })).toEqual({});
  });

  it('given an unknown field or no field at all, then the filter is refused', () => {
    expect(historyFilterInput.safeParse({ amount: '5' }).success).toBe(false);
    expect(historyFilterInput.safeParse({}).success).toBe(false);
  });

  it('reads usernames and addresses as counterparties, and nothing else', () => {
    expect(parseHistoryCounterparty('Bob_Shop')).toEqual({ kind: 'username', username: 'bob_shop' });
    expect(parseHistoryCounterparty(alice)).toEqual({ kind: 'address', address: alice });
    expect(parseHistoryCounterparty('ab')).toBeNull();
    expect(parseHistoryCounterparty('bob@example.com')).toBeNull();
  });
});

describe('transactions queries', () => {
  it('given no filter parameters, then the REST query is the page alone', () => {
    expect(transactionsRestQuery.parse({ page: '2' })).toEqual({ page: 2, filter: undefined });
    expect(transactionsRestQuery.parse({})).toEqual({ page: 0, filter: undefined });
  });

  it('given filter parameters, then the REST query carries them, checked like the tRPC filter', () => {
    expect(transactionsRestQuery.parse({ kind: 'sent', from: '2026-01-01' })).toEqual({
      page: 0,
      filter: { kind: 'sent', counterparty: undefined, from: '2026-01-01', to: undefined },
    });
    expect(transactionsRestQuery.safeParse({ from: '2026-02-01', to: '2026-01-01' }).success).toBe(false);
    expect(transactionsRestQuery.safeParse({ kind: ['sent', 'received'] }).success).toBe(false);
  });

  it('given the tRPC input, then filter is optional and strict', () => {
    expect(transactionsPageQuery.parse({ page: 0 })).toEqual({ page: 0 });
    expect(transactionsPageQuery.parse({ page: 1, filter: { kind: 'sent' } })).toEqual({ page: 1, filter: { kind: 'sent' } });
    expect(transactionsPageQuery.safeParse({ page: 1, filter: { sort: 'asc' } }).success).toBe(false);
  });
});

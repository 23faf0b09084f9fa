// Proves the arrival rule: the first look announces nothing, a new credit is announced once (also when a pending deposit later completes with the same hash), and debits never are.
import { describe, expect, it } from 'vitest';
import { scanArrivals } from './arrivals.js';
import type { WalletTransaction } from './walletFormat.js';

const tx = (hash: string, type: 'credit' | 'debit' = 'credit') =>
  ({
    transaction_hash: hash,
    transaction_type: type,
    from_address: 'a',
    to_address: 'b',
    amount: '5000',
    create_date: '2026-11-27T10:00:00.000Z',
  }) as WalletTransaction;

describe('scanArrivals', () => {
  it('given the first look, then what is there is learnt, not announced', () => {
    const first = scanArrivals(null, [[tx('old')]]);
    expect(first.arrived).toEqual([]);
    expect([...first.seen]).toEqual(['old']);
  });

  it('given a new credit, then it is announced once, also when it moves from pending to completed', () => {
    const first = scanArrivals(null, [[], [tx('old')]]);
    const pending = scanArrivals(first.seen, [[tx('dep')], [tx('old')]]);
    expect(pending.arrived.map((item) => item.transaction_hash)).toEqual(['dep']);
    const completed = scanArrivals(pending.seen, [[], [tx('dep'), tx('old')]]);
    expect(completed.arrived).toEqual([]);
  });

  it('given a new debit, then nothing is announced', () => {
    const first = scanArrivals(null, [[]]);
    expect(scanArrivals(first.seen, [[tx('out', 'debit')]]).arrived).toEqual([]);
  });
});

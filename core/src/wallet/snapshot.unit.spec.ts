// Proves wallet snapshots are a faithful, versioned cache of the decision state: a round trip through JSON gives the same state, and a snapshot of another version or a malformed one is ignored (undefined), never half-read.
import { describe, expect, it } from 'vitest';
import type { WalletEvent } from './events.js';
import { WALLET_SNAPSHOT_VERSION, fromWalletSnapshot, toWalletSnapshot } from './snapshot.js';
import { initialWalletState } from './state.js';
import { NOW, testAddress } from '../../test/wallet-fixtures.js';
import { foldWallet } from '../../test/wallet-rules.js';

const at = NOW.toISOString();
const events: WalletEvent[] = [
  { type: 'WalletOpened', data: { walletId: 'w', kind: 'user', address: testAddress(1), ownerUserId: 'u', openedAt: at } },
  {
    type: 'TransferCredited',
    data: {
      walletId: 'w',
      transferId: 'in',
      fromWalletId: 'x',
      fromAddress: testAddress(2),
      toAddress: testAddress(1),
      amountMlx: '100000',
      creditedAt: at,
    },
  },
  {
    type: 'TransferReserved',
    data: {
      walletId: 'w',
      transferId: 'out',
      fromAddress: testAddress(1),
      toAddress: testAddress(3),
      amountMlx: '500',
      feeMlx: '1000',
      idempotencyKey: 'k',
      // A payout waiting for the network keeps its reference for the post (ADR 033).
      reference: { kind: 'payout', payoutId: `po_${'1'.repeat(32)}` },
      reservedAt: at,
    },
  },
  {
    type: 'DepositReceived',
    data: {
      walletId: 'w',
      depositId: `${'a'.repeat(64)}:0`,
      networkTransactionHash: 'a'.repeat(64),
      fromAddress: testAddress(4),
      toAddress: testAddress(1),
      amountMlx: '7',
      receivedAt: at,
    },
  },
];
const json = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('wallet snapshots', () => {
  it('given a folded wallet, when snapshotted through JSON and read back, then the state and revision are the same', () => {
    const state = foldWallet(events);
    const read = fromWalletSnapshot(json(toWalletSnapshot(state)));
    expect(read?.revision).toBe(3n);
    expect(read?.state).toEqual(state);
  });

  it('given a wallet never opened, when snapshotted, then there is nothing to save', () => {
    expect(toWalletSnapshot(initialWalletState())).toBeUndefined();
  });

  it.each([
    ['another version', (d: Record<string, unknown>) => ({ ...d, version: WALLET_SNAPSHOT_VERSION + 1 })],
    ['no version (an older shape)', (d: Record<string, unknown>) => ({ ...d, version: undefined })],
    ['a revision that disagrees with the event count', (d: Record<string, unknown>) => ({ ...d, revision: '99' })],
    ['an amount that is not an integer', (d: Record<string, unknown>) => ({ ...d, postedBalanceMlx: '1.5' })],
    ['a missing map', (d: Record<string, unknown>) => ({ ...d, transfers: undefined })],
  ])('given a snapshot with %s, when read, then it is ignored', (_label, change) => {
    const data = json(toWalletSnapshot(foldWallet(events)));
    expect(fromWalletSnapshot(change(data))).toBeUndefined();
  });

  it.each([null, 'text', 42, {}, []])('given %j as snapshot data, when read, then it is ignored', (data) => {
    expect(fromWalletSnapshot(data)).toBeUndefined();
  });
});

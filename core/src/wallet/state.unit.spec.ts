// Proves the wallet fold: balances per event, the bounded idempotency-key and settled-transfer memory, and literal application of facts a decider would refuse.
import { describe, expect, it } from 'vitest';
import type { WalletEvent } from './events.js';
import { IDEMPOTENCY_KEYS_MAX, SETTLED_TRANSFERS_MAX, availableMlx } from './state.js';
import { NOW, testAddress } from '../../test/wallet-fixtures.js';
import { foldWallet } from '../../test/wallet-rules.js';

const at = NOW.toISOString();
const opened: WalletEvent = {
  type: 'WalletOpened',
  data: { walletId: 'w', kind: 'user', address: testAddress(1), ownerUserId: 'u', openedAt: at },
};
const funded: WalletEvent = {
  type: 'TransferCredited',
  data: {
    walletId: 'w',
    transferId: 'in',
    fromWalletId: 'x',
    fromAddress: testAddress(2),
    toAddress: testAddress(1),
    amountMlx: '100000000',
    creditedAt: at,
  },
};
const reserved = (i: number): WalletEvent => ({
  type: 'TransferReserved',
  data: {
    walletId: 'w',
    transferId: `t${i}`,
    fromAddress: testAddress(1),
    toAddress: testAddress(3),
    amountMlx: '1',
    feeMlx: '1000',
    idempotencyKey: `k${i}`,
    reservedAt: at,
  },
});
const posted = (i: number): WalletEvent => ({
  type: 'TransferPosted',
  data: {
    walletId: 'w',
    transferId: `t${i}`,
    toAddress: testAddress(3),
    amountMlx: '1',
    feeMlx: '1000',
    networkTransactionHash: `h${i}`,
    postedAt: at,
  },
});

describe('foldWallet', () => {
  it('given an opened wallet, when folded, then identity, network and event count are known', () => {
    const state = foldWallet([opened, funded]);
    expect(state.wallet).toEqual({ walletId: 'w', kind: 'user', address: testAddress(1), network: 'mainnet', ownerUserId: 'u' });
    expect([state.eventCount, state.postedBalanceMlx, availableMlx(state)]).toEqual([2, 100_000_000n, 100_000_000n]);
  });

  it(`given more than ${IDEMPOTENCY_KEYS_MAX} keyed sends, when folded, then only the newest ${IDEMPOTENCY_KEYS_MAX} keys are remembered`, () => {
    const events: WalletEvent[] = [opened, funded];
    for (let i = 0; i <= IDEMPOTENCY_KEYS_MAX; i += 1) events.push(reserved(i), posted(i));
    const state = foldWallet(events);
    expect(state.idempotencyKeys.size).toBe(IDEMPOTENCY_KEYS_MAX);
    expect(state.idempotencyKeys.has('k0')).toBe(false);
    expect(state.idempotencyKeys.get(`k${IDEMPOTENCY_KEYS_MAX}`)).toBe(`t${IDEMPOTENCY_KEYS_MAX}`);
    // Settled transfers are bounded too (ADR 020); every transfer a remembered key names is kept.
    expect(state.transfers.has('t0')).toBe(false);
    expect(state.transfers.get('t1')?.status).toBe('posted');
    expect(state.transfers.size).toBeLessThanOrEqual(SETTLED_TRANSFERS_MAX + IDEMPOTENCY_KEYS_MAX);
    expect(state.postedBalanceMlx).toBe(100_000_000n - 1001n * BigInt(IDEMPOTENCY_KEYS_MAX + 1));
  });

  it('given a transfer posted twice (a corrupted log), when folded, then both debits apply and the hold is released once', () => {
    const state = foldWallet([opened, funded, reserved(1), posted(1), posted(1)]);
    expect([state.postedBalanceMlx, state.pendingDebitsMlx, state.openReservationCount]).toEqual([100_000_000n - 2002n, 0n, 0]);
  });

  it('given a reservation and its void, when folded, then the hold comes and goes and the transfer records why', () => {
    const voided: WalletEvent = {
      type: 'TransferVoided',
      data: { walletId: 'w', transferId: 't1', amountMlx: '1', feeMlx: '1000', reason: 'networkRejected', voidedAt: at },
    };
    const held = foldWallet([opened, funded, reserved(1)]);
    expect(held.pendingDebitsMlx).toBe(1001n);
    const released = foldWallet([opened, funded, reserved(1), voided]);
    expect([released.pendingDebitsMlx, released.transfers.get('t1')]).toEqual([
      0n,
      expect.objectContaining({ status: 'voided', voidReason: 'networkRejected' }),
    ]);
  });

  it(`given more than ${SETTLED_TRANSFERS_MAX} credits, when folded, then atomic credits are forgotten oldest first and two-phase credits are all kept`, () => {
    const credit = (i: number, atOnce: boolean): WalletEvent => ({
      type: 'TransferCredited',
      data: {
        walletId: 'w',
        transferId: `c${i}`,
        fromWalletId: 'x',
        fromAddress: testAddress(2),
        toAddress: testAddress(1),
        amountMlx: '1',
        creditedAt: at,
        ...(atOnce ? { settledAtOnce: true as const } : {}),
      },
    });
    const events: WalletEvent[] = [opened];
    for (let i = 0; i < SETTLED_TRANSFERS_MAX + 10; i += 1) events.push(credit(i, true), credit(100_000 + i, false));
    const state = foldWallet(events);
    expect([state.transfers.has('c0'), state.transfers.has('c10'), state.transfers.has('c100000')]).toEqual([false, true, true]);
    expect(state.settledTransferIds.size).toBe(SETTLED_TRANSFERS_MAX);
    expect(state.postedBalanceMlx).toBe(BigInt(2 * (SETTLED_TRANSFERS_MAX + 10)));
  });

  it(`given more than ${SETTLED_TRANSFERS_MAX} settled deposits, when folded, then claimed ones are forgotten oldest first, unclaimed and open ones kept`, () => {
    const hash = (i: number) => i.toString(16).padStart(64, '0');
    const received = (i: number, claimed: boolean): WalletEvent => ({
      type: 'DepositReceived',
      data: {
        walletId: 'w',
        depositId: `${hash(i)}:0`,
        networkTransactionHash: hash(i),
        fromAddress: testAddress(2),
        toAddress: testAddress(1),
        amountMlx: '1',
        receivedAt: at,
        ...(claimed ? { claimed: true as const } : {}),
      },
    });
    const confirmed = (i: number): WalletEvent => ({
      type: 'DepositConfirmed',
      data: { walletId: 'w', depositId: `${hash(i)}:0`, amountMlx: '1', confirmedAt: at },
    });
    const events: WalletEvent[] = [opened];
    for (let i = 0; i < SETTLED_TRANSFERS_MAX + 5; i += 1) events.push(received(i, true), confirmed(i));
    events.push(received(100_000, false), confirmed(100_000), received(100_001, true));
    const state = foldWallet(events);
    expect([state.deposits.has(`${hash(0)}:0`), state.deposits.has(`${hash(5)}:0`), state.deposits.has(`${hash(100_000)}:0`)]).toEqual([
      false,
      true,
      true,
    ]);
    expect(state.deposits.get(`${hash(100_001)}:0`)?.status).toBe('received');
    expect([state.postedBalanceMlx, state.pendingCreditsMlx]).toEqual([BigInt(SETTLED_TRANSFERS_MAX + 6), 1n]);
  });
});

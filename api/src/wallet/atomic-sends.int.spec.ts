// Proves that sends between Quern wallets settled in one atomic append (ADR 019) hold up under concurrency on a real SQLite log: 200 sends between 20 wallets in both directions, from two "processes" (each with its own per-wallet queues and state cache, racing on the same file), all end posted with the right balances, no deadlock, and a clean audit; a send that the log cannot take moves nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyedSerializer, type EventStore } from '@quern/core';
import {
  ensureSystemWallets,
  openUserWallet,
  readWallet,
  SEND_FEE_MLX,
  SYSTEM_WALLET_IDS,
  sendMlx,
  settleInternalTransfer,
  WalletStateCache,
  walletStream,
} from '@quern/core/wallet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { auditLog, walletDepsFor } from '../../test/ledger.js';

const WALLETS = 20;
const SENDS = 200;
const FUNDS_MLX = 10_000_000n;

let dir: string;
let stores: EventStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quern-atomic-'));
  stores = [];
});
afterEach(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = (file: string) => {
  const store = openSqliteEventStore({ file });
  stores.push(store);
  return store;
};

describe('atomic internal sends', () => {
  it(`given ${WALLETS} funded wallets, when ${SENDS} sends go both ways at once from two processes, then all are posted with the right balances`, async () => {
    const file = join(dir, 'events.sqlite');
    const queued = { ...walletDepsFor(open(file)), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
    // Each process queues commands per wallet (as the api does); between processes only the
    // expected revisions of the atomic append guard, so lost races are decided again.
    const otherProcess = { ...walletDepsFor(open(file)), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
    await ensureSystemWallets(otherProcess, { supplyMlx: 1_000_000_000_000n, reserveFundingMlx: 500_000_000n });
    const ids = Array.from({ length: WALLETS }, (_, i) => `user-${i}`);
    const addresses = new Map<string, string>();
    for (const id of ids) {
      addresses.set(id, await openUserWallet(otherProcess, id));
      await sendMlx(otherProcess, SYSTEM_WALLET_IDS.reserve, {
        to: { kind: 'address', address: addresses.get(id) as string },
        amount: FUNDS_MLX,
        fee: SEND_FEE_MLX,
      });
    }

    // Send i goes from wallet a to wallet b, and send i+1 from b back to a: every pair races both ways.
    const plan = Array.from({ length: SENDS }, (_, i) => {
      const a = i % WALLETS;
      const b = (a + 1 + (Math.floor(i / WALLETS) % (WALLETS - 1))) % WALLETS;
      const [from, to] = i % 2 === 0 ? [ids[a], ids[b]] : [ids[b], ids[a]];
      return { from: from as string, to: to as string, amountMlx: BigInt(1_000 + i) };
    });
    const results = await Promise.all(
      plan.map((send, i) =>
        sendMlx(i % 3 === 0 ? otherProcess : queued, send.from, {
          to: { kind: 'address', address: addresses.get(send.to) as string },
          amount: send.amountMlx,
          fee: SEND_FEE_MLX,
        }),
      ),
    );

    expect(results.map((r) => r.status)).toEqual(plan.map(() => 'posted'));
    const expected = new Map(ids.map((id) => [id, FUNDS_MLX]));
    for (const send of plan) {
      expected.set(send.from, (expected.get(send.from) ?? 0n) - send.amountMlx - SEND_FEE_MLX);
      expected.set(send.to, (expected.get(send.to) ?? 0n) + send.amountMlx);
    }
    for (const id of ids) {
      const viaCache = (await readWallet(queued, id)).state;
      const folded = (await readWallet(otherProcess, id)).state;
      expect([viaCache.postedBalanceMlx, viaCache.pendingDebitsMlx, viaCache.openReservationCount], id).toEqual([expected.get(id), 0n, 0]);
      expect(folded.postedBalanceMlx, id).toBe(expected.get(id));
    }
    const audit = await auditLog(queued.store);
    expect(audit.violations).toEqual([]);
    expect([audit.transfers.open, audit.inTransitMlx, audit.ledgerTotalMlx]).toEqual([0, 0n, audit.mintedMlx]);
    expect([...audit.reservedTransferIds.values()].every((count) => count === 1)).toBe(true);
  });

  it('given a send refused by the decider (unaffordable, to oneself, to the fee account), when sent, then neither stream changes', async () => {
    const deps = {
      ...walletDepsFor(open(join(dir, 'events.sqlite'))),
      serialize: createKeyedSerializer(),
      stateCache: new WalletStateCache(),
    };
    await ensureSystemWallets(deps, { supplyMlx: 1_000_000_000n, reserveFundingMlx: 500_000n });
    const alice = await openUserWallet(deps, 'alice');
    const bob = await openUserWallet(deps, 'bob');
    await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address: alice }, amount: 5_000n, fee: SEND_FEE_MLX });
    const fee = (await readWallet(deps, SYSTEM_WALLET_IDS.fee)).state.wallet?.address as string;
    const lengths = async () =>
      Promise.all(['alice', 'bob', SYSTEM_WALLET_IDS.fee].map(async (id) => (await deps.store.readStream(walletStream(id))).length));
    const before = await lengths();
    for (const [to, key] of [
      [bob, 'errors:insufficientFunds'],
      [alice, 'errors:cannotSendToSelf'],
      [fee, 'errors:recipientCannotReceive'],
    ] as const) {
      const amount = to === bob ? 4_001n : 1n;
      await expect(sendMlx(deps, 'alice', { to: { kind: 'address', address: to }, amount, fee: SEND_FEE_MLX })).rejects.toMatchObject({
        messageKey: key,
      });
    }
    expect(await lengths()).toEqual(before);
  });

  it('given a retried Idempotency-Key, when sent again, then the first transfer is answered and nothing moves', async () => {
    const deps = {
      ...walletDepsFor(open(join(dir, 'events.sqlite'))),
      serialize: createKeyedSerializer(),
      stateCache: new WalletStateCache(),
    };
    await ensureSystemWallets(deps, { supplyMlx: 1_000_000_000n, reserveFundingMlx: 500_000n });
    const alice = await openUserWallet(deps, 'alice');
    const bob = await openUserWallet(deps, 'bob');
    await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address: alice }, amount: 50_000n, fee: SEND_FEE_MLX });
    const input = { to: { kind: 'address' as const, address: bob }, amount: 10_000n, fee: SEND_FEE_MLX };
    const [first, second] = await Promise.all([sendMlx(deps, 'alice', input, 'key-1'), sendMlx(deps, 'alice', input, 'key-1')]);
    expect(second?.transferId).toBe(first?.transferId);
    expect((await readWallet(deps, 'bob')).state.postedBalanceMlx).toBe(10_000n);
    expect((await readWallet(deps, 'alice')).state.postedBalanceMlx).toBe(39_000n);
  });

  it('given a deployment that asks for two-phase internal sends (a settlement delay), when sent, then only the reservation is recorded, for the settlement job', async () => {
    const deps = { ...walletDepsFor(open(join(dir, 'events.sqlite'))), twoPhaseInternalSends: true };
    await ensureSystemWallets(deps, { supplyMlx: 1_000_000_000n, reserveFundingMlx: 500_000n });
    const alice = await openUserWallet(deps, 'alice');
    const bob = await openUserWallet(deps, 'bob');
    const funding = await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, {
      to: { kind: 'address', address: alice },
      amount: 50_000n,
      fee: SEND_FEE_MLX,
    });
    expect(funding.status).toBe('reserved');
    await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.reserve, funding.transferId);
    const sent = await sendMlx(deps, 'alice', { to: { kind: 'address', address: bob }, amount: 10_000n, fee: SEND_FEE_MLX });
    expect(sent.status).toBe('reserved');
    const reserved = (await deps.store.readStream(walletStream('alice'))).filter((e) => e.type === 'TransferReserved');
    expect(reserved.at(-1)?.data.settledAtOnce).toBeUndefined();
    expect((await readWallet(deps, 'bob')).state.postedBalanceMlx).toBe(0n);
    expect(await settleInternalTransfer(deps, 'alice', sent.transferId)).toBe('posted');
    expect((await readWallet(deps, 'bob')).state.postedBalanceMlx).toBe(10_000n);
  });
});

// Proves wallet snapshots (ADR 020) on a real SQLite log: commands write them every N events, a cold load from the newest snapshot plus the events after it equals a fold of the whole stream, and a missing, broken or old-shaped snapshot only costs time (the stream is folded instead).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyedSerializer, type EventStore } from '@quern/core';
import {
  ensureSystemWallets,
  loadWallet,
  openUserWallet,
  readWallet,
  SEND_FEE_MLX,
  SYSTEM_WALLET_IDS,
  sendMlx,
  WALLET_SNAPSHOT_EVENT,
  WalletStateCache,
  walletSnapshotStream,
} from '@quern/core/wallet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { walletDepsFor } from '../../test/ledger.js';
import { transferTermsBook } from '@quern/core/transfer-references';

const EVERY = 10;
let dir: string;
let store: EventStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quern-snapshots-'));
  store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Alice and Bob trade `sends` times through a process with queues, caches and snapshots every EVERY events. */
async function tradedWallets(sends: number) {
  const deps = {
    ...walletDepsFor(store),
    serialize: createKeyedSerializer(),
    stateCache: new WalletStateCache(),
    snapshotEveryEvents: EVERY,
  };
  await ensureSystemWallets(deps, { supplyMlx: 1_000_000_000n, reserveFundingMlx: 100_000_000n });
  const alice = await openUserWallet(deps, 'alice');
  const bob = await openUserWallet(deps, 'bob');
  for (const address of [alice, bob])
    await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address }, amount: 1_000_000n, fee: SEND_FEE_MLX });
  for (let i = 0; i < sends; i++) {
    const [from, to] = i % 2 === 0 ? ['alice', bob] : ['bob', alice];
    await sendMlx(
      deps,
      from as string,
      { to: { kind: 'address', address: to as string }, amount: BigInt(100 + i), fee: SEND_FEE_MLX },
      `key-${i}`,
    );
  }
  // Snapshot appends are not awaited by commands; a read of the log after them sees them.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return deps;
}

const folded = (walletId: string) => loadWallet({ store, transferTerms: transferTermsBook, snapshotEveryEvents: 0 }, walletId);

describe('wallet snapshots', () => {
  it('given wallets with long histories, when loaded cold, then the newest snapshot plus the later events equal the whole fold', async () => {
    await tradedWallets(45);
    for (const walletId of ['alice', 'bob']) {
      const snapshots = await store.readStream(walletSnapshotStream(walletId));
      expect(snapshots.length, walletId).toBeGreaterThanOrEqual(2);
      const cold = await loadWallet({ store, transferTerms: transferTermsBook }, walletId);
      expect(cold.snapshotAt).toBeGreaterThan(0);
      const whole = await folded(walletId);
      expect(cold.state).toEqual(whole.state);
      expect(cold.revision).toBe(whole.revision);
    }
  });

  it('given a broken newest snapshot, when loaded, then the wallet is folded from its events and is the same', async () => {
    await tradedWallets(25);
    await store.append(walletSnapshotStream('alice'), [{ type: WALLET_SNAPSHOT_EVENT, data: { version: 1, revision: 'garbage' } }], 'any');
    const cold = await loadWallet({ store, transferTerms: transferTermsBook, snapshotEveryEvents: 0 }, 'alice');
    const withBroken = await loadWallet({ store, transferTerms: transferTermsBook }, 'alice');
    expect(withBroken.snapshotAt).toBe(0);
    expect(withBroken.state).toEqual(cold.state);
  });

  it('given an old-shaped snapshot, when loaded, then it is ignored and a send still sees the right balance', async () => {
    const deps = await tradedWallets(4);
    await store.append(
      walletSnapshotStream('bob'),
      [{ type: WALLET_SNAPSHOT_EVENT, data: { revision: '3', balance: '999999999' } }],
      'any',
    );
    const fresh = { ...deps, stateCache: new WalletStateCache() };
    const bob = (await readWallet(fresh, 'bob')).state;
    expect(bob.postedBalanceMlx).toBe((await folded('bob')).state.postedBalanceMlx);
    const alice = (await readWallet(fresh, 'alice')).state.wallet?.address as string;
    await expect(
      sendMlx(fresh, 'bob', { to: { kind: 'address', address: alice }, amount: 999_999_999n, fee: SEND_FEE_MLX }),
    ).rejects.toThrow('errors:insufficientFunds');
  });

  it('given no snapshot at all, when loaded, then the fold of the whole stream is used', async () => {
    await tradedWallets(3);
    expect(await store.readStream(walletSnapshotStream('alice'))).toEqual([]);
    const cold = await loadWallet({ store, transferTerms: transferTermsBook }, 'alice');
    expect([cold.snapshotAt, cold.state.eventCount]).toEqual([0, (await folded('alice')).state.eventCount]);
  });

  it('given a stream longer than a fold page, when loaded cold, then it is folded page by page, snapshotted on the way, and equals a single fold', async () => {
    const deps = { ...walletDepsFor(store), snapshotEveryEvents: 5_000 };
    await ensureSystemWallets(deps, { supplyMlx: 1_000_000_000n, reserveFundingMlx: 100_000_000n });
    const address = await openUserWallet(deps, 'carol');
    let revision = 0n;
    for (let i = 0; i < 12_000; i += 1000) {
      const events = Array.from({ length: 1000 }, (_, j) => ({
        type: 'TransferCredited',
        data: {
          walletId: 'carol',
          transferId: `seed-${i + j}`,
          fromWalletId: 'x',
          fromAddress: address,
          toAddress: address,
          amountMlx: '1',
          settledAtOnce: true,
          creditedAt: new Date().toISOString(),
        },
      }));
      revision = (await store.append('wallet-carol', events, revision)).nextExpectedRevision;
    }
    const cold = await loadWallet(deps, 'carol');
    expect(cold.revision).toBe(12_000n);
    expect(cold.state.postedBalanceMlx).toBe(12_000n);
    // Snapshots are saved without being awaited (core/src/wallet/handlers.ts): wait for both,
    // however busy the machine, rather than a fixed 50 ms.
    await expect.poll(async () => (await store.readStream(walletSnapshotStream('carol'))).length, { timeout: 10_000 }).toBe(2);
    expect((await loadWallet(deps, 'carol')).state).toEqual((await folded('carol')).state);
  });
});

// Proves the wallet state cache never decides on a stale wallet: events appended behind its
// back (by another process) are caught up before the next command, and a bound evicts wallets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyedSerializer } from '@quern/core';
import type { WalletDeps } from '@quern/core/wallet';
import {
  ensureSystemWallets,
  executeWalletCommand,
  loadWallet,
  openUserWallet,
  readWallet,
  SYSTEM_WALLET_IDS,
  sendMlx,
  settleInternalTransfer,
  WalletStateCache,
} from '@quern/core/wallet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { walletDepsFor } from '../../test/ledger.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quern-cache-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Two stores on one file, as two processes would have: `cached` decides through a state cache,
 * `uncached` writes behind its back. A funded ledger with alice and bob opened by the other one.
 */
async function twoProcesses(run: (ctx: { cached: WalletDeps; uncached: WalletDeps; alice: string; bob: string }) => Promise<void>) {
  const file = join(dir, 'events.sqlite');
  const store = openSqliteEventStore({ file });
  const otherProcess = openSqliteEventStore({ file });
  try {
    const cached = { ...walletDepsFor(store), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
    const uncached = walletDepsFor(otherProcess);
    await ensureSystemWallets(uncached, { supplyMlx: 1_000_000n, reserveFundingMlx: 500_000n });
    const alice = await openUserWallet(uncached, 'alice');
    const bob = await openUserWallet(uncached, 'bob');
    await run({ cached, uncached, alice, bob });
  } finally {
    await store.close();
    await otherProcess.close();
  }
}

describe('WalletStateCache', () => {
  it('given a cached wallet, when another writer funds it, then the next send sees the new balance', async () => {
    await twoProcesses(async ({ cached, uncached, alice: address, bob: bobAddress }) => {
      // Prime the cache with an empty wallet: a send is refused.
      await expect(sendMlx(cached, 'alice', { to: { kind: 'username', username: 'nobody' }, amount: 1n, fee: 1000n })).rejects.toThrow();
      expect((await readWallet(cached, 'alice')).state.postedBalanceMlx).toBe(0n);

      // Another process funds alice behind the cache's back.
      const funding = await sendMlx(uncached, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address }, amount: 10_000n, fee: 1000n });
      await settleInternalTransfer(uncached, SYSTEM_WALLET_IDS.reserve, funding.transferId);

      const sent = await sendMlx(cached, 'alice', { to: { kind: 'address', address: bobAddress }, amount: 9_000n, fee: 1000n });
      // Settled at once (ADR 019); settling it again is a no-op that reports the outcome.
      expect(sent.status).toBe('posted');
      await expect(sendMlx(cached, 'alice', { to: { kind: 'address', address: bobAddress }, amount: 1n, fee: 1000n })).rejects.toThrow(
        'errors:insufficientFunds',
      );
      const settled = await settleInternalTransfer(cached, 'alice', sent.transferId);
      expect(settled).toBe('posted');
      expect((await readWallet(uncached, 'bob')).state.postedBalanceMlx).toBe(9_000n);
      expect((await readWallet(cached, 'alice')).state.postedBalanceMlx).toBe(0n);
    });
  });

  it('given a cached wallet, when another writer spends from it, then the next send is decided again on the log and refused', async () => {
    await twoProcesses(async ({ cached, uncached, alice: address, bob: bobAddress }) => {
      await sendMlx(uncached, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address }, amount: 20_000n, fee: 1000n });
      const bob = { kind: 'address' as const, address: bobAddress };
      // The cache now holds alice with 10,000 left.
      await sendMlx(cached, 'alice', { to: bob, amount: 9_000n, fee: 1000n });
      // Another process spends the rest behind the cache's back.
      await sendMlx(uncached, 'alice', { to: bob, amount: 9_000n, fee: 1000n });
      // Decided on the cache this send would pass; the append's revision check catches it.
      await expect(sendMlx(cached, 'alice', { to: bob, amount: 9_000n, fee: 1000n })).rejects.toThrow('errors:insufficientFunds');
      expect((await readWallet(uncached, 'alice')).state.postedBalanceMlx).toBe(0n);
      expect((await readWallet(uncached, 'bob')).state.postedBalanceMlx).toBe(18_000n);
    });
  });

  it('given both wallets cached, when a send is repeated, then it reads no wallet stream (the append checks the revisions)', async () => {
    const store = openSqliteEventStore({ file: join(dir, 'e.sqlite') });
    try {
      const deps = { ...walletDepsFor(store), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
      await ensureSystemWallets(deps, { supplyMlx: 1_000_000n, reserveFundingMlx: 500_000n });
      const address = await openUserWallet(deps, 'alice');
      const bob = { kind: 'address' as const, address: await openUserWallet(deps, 'bob') };
      await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address }, amount: 100_000n, fee: 1000n });
      await sendMlx(deps, 'alice', { to: bob, amount: 1_000n, fee: 1000n });
      const walletReads: string[] = [];
      const readStream = store.readStream.bind(store);
      const counting = {
        ...deps,
        store: {
          ...store,
          readStream: (streamId: string, options?: Parameters<typeof store.readStream>[1]) => {
            if (streamId.startsWith('wallet-')) walletReads.push(streamId);
            return readStream(streamId, options);
          },
        },
      };
      for (let i = 0; i < 5; i++) await sendMlx(counting, 'alice', { to: bob, amount: 1_000n, fee: 1000n });
      expect(walletReads).toEqual([]);
      expect((await readWallet(deps, 'alice')).state.postedBalanceMlx).toBe(100_000n - 6n * 2_000n);
      expect((await loadWallet(deps, 'alice')).state.postedBalanceMlx).toBe(100_000n - 6n * 2_000n);
    } finally {
      await store.close();
    }
  });

  it('keeps at most maxWallets entries, dropping the least recently used', () => {
    const cache = new WalletStateCache(2);
    const entry = () => ({ state: {} as never, revision: 0n });
    cache.put('a', entry());
    cache.put('b', entry());
    cache.take('a');
    cache.put('c', entry());
    expect(cache.take('b')).toBeUndefined();
    expect(cache.take('a')).toBeDefined();
    expect(cache.take('c')).toBeDefined();
  });

  it('without a serializer, commands never use the cache', async () => {
    const store = openSqliteEventStore({ file: join(dir, 'e.sqlite') });
    try {
      const stateCache = new WalletStateCache();
      const deps = { ...walletDepsFor(store), stateCache };
      await ensureSystemWallets(deps, { supplyMlx: 1_000n, reserveFundingMlx: 0n });
      await executeWalletCommand(deps, SYSTEM_WALLET_IDS.genesis, { type: 'MintSupply', data: { amountMlx: 1_000n } });
      expect(stateCache.take(SYSTEM_WALLET_IDS.genesis)).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

// Proves the wallet state cache answers a cached wallet's address without a read, without
// changing which wallet it drops first, and answers nothing for a wallet it does not hold.
import { describe, expect, it } from 'vitest';
import { WalletStateCache } from './handlers.js';
import { initialWalletState } from './state.js';

const opened = (walletId: string, address: string) => ({
  state: { ...initialWalletState(), wallet: { walletId, kind: 'user' as const, address, network: 'mainnet' as const } },
  revision: 0n,
});

describe('WalletStateCache.addressOf', () => {
  it('gives the address of a cached open wallet and leaves the eviction order alone', () => {
    // Given a cache of two wallets, a the least recently used
    const cache = new WalletStateCache(2);
    cache.put('a', opened('a', 'addr-a'));
    cache.put('b', opened('b', 'addr-b'));
    // When a's address is asked for, then a third wallet is cached
    expect(cache.addressOf('a')).toBe('addr-a');
    cache.put('c', opened('c', 'addr-c'));
    // Then a was still the first dropped (asking for an address is not a use)
    expect(cache.addressOf('a')).toBeUndefined();
    expect(cache.addressOf('b')).toBe('addr-b');
  });

  it('answers nothing for an unknown wallet or one not opened yet', () => {
    const cache = new WalletStateCache();
    cache.put('empty', { state: initialWalletState(), revision: 0n });
    expect(cache.addressOf('missing')).toBeUndefined();
    expect(cache.addressOf('empty')).toBeUndefined();
  });
});

// Proves deposit ids stay idempotent after a wallet's state forgets a settled deposit (ADR 020): the deposit is appended with its claim stream atomically, a claim that already exists with the same details appends nothing, and one with other details is a CONFLICT.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyedSerializer, type EventStore } from '@quern/core';
import {
  DEPOSIT_CLAIMED_EVENT,
  depositClaimStream,
  ensureSystemWallets,
  executeDepositReceipt,
  openUserWallet,
  readWallet,
  WalletStateCache,
  walletStream,
} from '@quern/core/wallet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { walletDepsFor } from '../../test/ledger.js';

const HASH = 'b'.repeat(64);
const DEPOSIT_ID = `${HASH}:0`;
let dir: string;
let store: EventStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quern-claims-'));
  store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function world() {
  const deps = { ...walletDepsFor(store), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
  await ensureSystemWallets(deps, { supplyMlx: 1_000_000n, reserveFundingMlx: 0n });
  await openUserWallet(deps, 'alice');
  const payer = (await readWallet(deps, 'system-network')).state.wallet?.address as string;
  const receive = (amountMlx: bigint) =>
    executeDepositReceipt(deps, 'alice', {
      type: 'ReceiveDeposit',
      data: { depositId: DEPOSIT_ID, networkTransactionHash: HASH, fromAddress: payer, amountMlx },
    });
  return { deps, receive };
}

describe('deposit claims', () => {
  it('given a new deposit, when recorded, then the wallet event and the claim are appended together; a second sighting appends nothing', async () => {
    const { deps, receive } = await world();
    const first = await receive(500n);
    expect(first.decision.events.map((e) => e.type)).toEqual(['DepositReceived']);
    expect((await store.readStream(depositClaimStream(DEPOSIT_ID))).map((e) => [e.type, e.data.walletId, e.data.amountMlx])).toEqual([
      [DEPOSIT_CLAIMED_EVENT, 'alice', '500'],
    ]);
    expect((await receive(500n)).decision.events).toEqual([]);
    expect((await readWallet(deps, 'alice')).state.pendingCreditsMlx).toBe(500n);
  });

  it('given a claim the wallet state does not know (a settled deposit it forgot), when the same deposit is seen again, then nothing is appended', async () => {
    const { deps, receive } = await world();
    const claim = { walletId: 'alice', depositId: DEPOSIT_ID, networkTransactionHash: HASH, amountMlx: '500' };
    await store.append(depositClaimStream(DEPOSIT_ID), [{ type: DEPOSIT_CLAIMED_EVENT, data: claim }], 'no_stream');
    const before = (await store.readStream(walletStream('alice'))).length;
    expect((await receive(500n)).decision.events).toEqual([]);
    expect(await store.readStream(walletStream('alice'))).toHaveLength(before);
    expect((await readWallet(deps, 'alice')).state.pendingCreditsMlx).toBe(0n);
  });

  it('given a claim with other details, when the deposit id is seen again, then CONFLICT and nothing is appended', async () => {
    const { receive } = await world();
    const claim = { walletId: 'alice', depositId: DEPOSIT_ID, networkTransactionHash: HASH, amountMlx: '999' };
    await store.append(depositClaimStream(DEPOSIT_ID), [{ type: DEPOSIT_CLAIMED_EVENT, data: claim }], 'no_stream');
    const before = (await store.readStream(walletStream('alice'))).length;
    await expect(receive(500n)).rejects.toMatchObject({ code: 'CONFLICT', messageKey: 'errors:idempotencyConflict' });
    expect(await store.readStream(walletStream('alice'))).toHaveLength(before);
  });
});

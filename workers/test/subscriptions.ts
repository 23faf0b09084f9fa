/**
 * Test support for billing: a clock the test moves, a genesis to fund wallets from, users with a
 * wallet holding a given amount, plans, and a way to run the due renewals now (promote BullMQ's
 * delayed jobs after moving the clock: a renewal job waits in the delayed set until its due time).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock, EventStore } from '@quern/core';
import { createPlan } from '@quern/core/plans';
import { identityPayeeDirectory } from '@quern/core/identity';
import {
  SYSTEM_WALLET_IDS,
  ensureSystemWallets,
  executeTransfer,
  openUserWallet,
  walletAddressOf,
  type WalletDeps,
} from '@quern/core/wallet';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { registerUser, type TestUser } from './identity-events.js';
import { transferTermsBook } from '@quern/core/transfer-references';

/** A clock that stands where the test puts it. */
export class TestClock implements Clock {
  #nowMs: number;
  constructor(start: Date | string) {
    this.#nowMs = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#nowMs);
  }
  set(at: Date | string): void {
    this.#nowMs = new Date(at).getTime();
  }
  advanceDays(days: number): void {
    this.#nowMs += days * 86_400_000;
  }
}

export const billingDeps = (store: EventStore, clock: Clock): WalletDeps => ({
  store,
  transferTerms: transferTermsBook,
  clock,
  newId: randomUUID,
  newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
  network: 'mainnet',
  payees: identityPayeeDirectory({ store }),
});

export async function prepareBilling(store: EventStore, clock: Clock): Promise<void> {
  await ensureSystemWallets(billingDeps(store, clock), { supplyMlx: 10_000_000_000_000n, reserveFundingMlx: 0n });
}

/** Moves MLX from genesis to a user's wallet, settled at once (pass deps with a serializer to fund many at once). */
export async function fund(deps: WalletDeps, userId: string, mlx: bigint): Promise<void> {
  await executeTransfer(deps, SYSTEM_WALLET_IDS.genesis, {
    type: 'ReserveTransfer',
    data: {
      transferId: `fund-${randomUUID()}`,
      toAddress: (await walletAddressOf(deps, userId)) ?? '',
      toWalletId: userId,
      amountMlx: mlx,
      feeMlx: 1000n,
    },
  });
}

/** A registered user with a wallet holding `mlx`. */
export async function billingUser(
  store: EventStore,
  clock: Clock,
  index: number,
  mlx: bigint,
  language?: 'en' | 'es',
  deps: WalletDeps = billingDeps(store, clock),
): Promise<TestUser> {
  const user = await registerUser(store, index, language);
  await openUserWallet(deps, user.userId);
  if (mlx > 0n) await fund(deps, user.userId, mlx);
  return user;
}

export async function monthlyPlan(
  store: EventStore,
  clock: Clock,
  providerUserId: string,
  priceMlx: bigint,
  name = 'Gold',
): Promise<string> {
  const { plan } = await createPlan({ store, clock, newId: randomUUID }, providerUserId, {
    name,
    description: `${name} monthly plan`,
    price: priceMlx,
    currency: 'mlx',
    duration: 'monthly',
  });
  return plan.planId;
}

/** Makes every delayed job of the queue ready now (a job not yet due on the clock goes back to waiting). */
export async function promoteDelayed(redis: Redis, prefix: string, queueName: string): Promise<number> {
  const queue = new Queue(queueName, { connection: redis, prefix });
  try {
    const delayed = await queue.getDelayedCount();
    if (delayed > 0) await queue.promoteJobs({ count: 10_000 });
    return delayed;
  } finally {
    await queue.close();
  }
}

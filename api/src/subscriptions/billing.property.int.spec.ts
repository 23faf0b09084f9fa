// Proves, over the real core handlers and a real SQLite log, that any sequence of subscribing,
// renewing (with time moving on, a job run twice, a stale job), funding, draining, cancelling (by
// subscriber or provider), price edits, accepting a higher price (by anyone, at the pending or a
// stale price), the owner ending an unaccepted one and plan deletion keeps every ledger invariant
// and the subscription ones (each period charged once, in order, never after the end, each charge
// a fee-0 transfer of exactly the charged price from subscriber to provider, and at most the price
// the subscriber agreed to for that period), and that a refused subscribe moves nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { type Clock, isAppError } from '@quern/core';
import { createPlan, deletePlan, updatePlan } from '@quern/core/plans';
import {
  acceptSubscriptionPrice,
  currentPlanPrice,
  endSubscriptionForUnacceptedPrice,
  loadSubscription,
  openRenewal,
  pendingPriceMlx,
  runRenewal,
  subscribe,
} from '@quern/core/subscriptions';
import {
  ensureSystemWallets,
  openUserWallet,
  readWallet,
  SYSTEM_WALLET_IDS,
  sendMlx,
  settleInternalTransfer,
  availableMlx,
} from '@quern/core/wallet';
import { createLedgerAuditor } from '@quern/core/audit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { walletDepsFor } from '../../test/ledger.js';

const USERS = ['u0', 'u1', 'u2', 'u3'];
const DAY_MS = 86_400_000;

type Op =
  | { kind: 'subscribe'; user: number; plan: number }
  | { kind: 'advance'; days: number }
  | { kind: 'fund'; user: number; mlx: bigint }
  | { kind: 'drain'; user: number }
  | { kind: 'cancel'; user: number; index: number }
  | { kind: 'price'; plan: number; mlx: bigint }
  | { kind: 'accept'; user: number; index: number; stale: boolean }
  | { kind: 'endForPrice'; user: number; index: number }
  | { kind: 'delete'; plan: number };

const user = fc.nat(USERS.length - 1);
const planIndex = fc.nat(2);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('subscribe' as const), user, plan: planIndex }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fund' as const), user, mlx: fc.bigInt(1_000n, 300_000n) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drain' as const), user }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), user, index: fc.nat(10) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('price' as const), plan: planIndex, mlx: fc.bigInt(1n, 200_000n) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('accept' as const), user, index: fc.nat(10), stale: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('endForPrice' as const), user, index: fc.nat(10) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), plan: planIndex }) },
);

async function run(ops: Op[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quern-billing-'));
  const store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  let nowMs = Date.parse('2026-01-31T10:00:00.000Z');
  const clock: Clock = { now: () => new Date(nowMs) };
  const deps = { ...walletDepsFor(store), clock };
  let ids = 0;
  const planDeps = { store, clock, newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}` };
  try {
    await ensureSystemWallets(deps, { supplyMlx: 100_000_000n, reserveFundingMlx: 50_000_000n });
    const addresses: string[] = [];
    for (const u of USERS) addresses.push(await openUserWallet(deps, u));
    const fund = async (i: number, mlx: bigint) => {
      const sent = await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, {
        to: { kind: 'address', address: addresses[i] as string },
        amount: mlx,
        fee: 1000n,
      });
      await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.reserve, sent.transferId);
    };
    for (let i = 0; i < USERS.length; i++) await fund(i, 500_000n);
    // Plans 0 and 1 belong to u0, plan 2 to u1.
    const plans: string[] = [];
    for (const [owner, price] of [
      [0, 100_000n],
      [0, 30_000n],
      [1, 70_000n],
    ] as const)
      plans.push(
        (await createPlan(planDeps, USERS[owner] as string, { name: 'P', description: 'D', price, currency: 'mlx', duration: 'monthly' }))
          .plan.planId,
      );
    const subscriptions: string[] = [];

    const renewAll = async () => {
      for (const id of subscriptions) {
        for (let guard = 0; guard < 30; guard++) {
          const loaded = await loadSubscription(deps, id);
          const open = loaded && openRenewal(loaded.state);
          if (!open || open.dueAt.getTime() > nowMs) break;
          const job = { subscriptionId: id, period: open.period, attempt: open.attempt };
          await runRenewal(deps, job);
          // The same job again (a stalled BullMQ job runs twice): nothing more happens.
          expect((await runRenewal(deps, job)).outcome).toBe('stale');
        }
      }
    };

    for (const op of ops) {
      if (op.kind === 'subscribe') {
        const before = availableMlx((await readWallet(deps, USERS[op.user] as string)).state);
        try {
          const { state } = await subscribe(deps, USERS[op.user] as string, { subscription_plan_id: plans[op.plan] as string });
          subscriptions.push(state.subscriptionId);
        } catch (error) {
          if (!isAppError(error)) throw error;
          expect(availableMlx((await readWallet(deps, USERS[op.user] as string)).state)).toBe(before);
        }
      } else if (op.kind === 'advance') {
        nowMs += op.days * DAY_MS;
        await renewAll();
      } else if (op.kind === 'fund') await fund(op.user, op.mlx);
      else if (op.kind === 'drain') {
        const left = availableMlx((await readWallet(deps, USERS[op.user] as string)).state);
        if (left > 1000n)
          await sendMlx(deps, USERS[op.user] as string, {
            to: { kind: 'address', address: addresses[(op.user + 1) % USERS.length] as string },
            amount: left - 1000n,
            fee: 1000n,
          }).catch(() => undefined);
      } else if (op.kind === 'cancel') {
        const id = subscriptions[op.index % Math.max(1, subscriptions.length)];
        if (id) {
          const { cancelSubscription } = await import('@quern/core/subscriptions');
          await cancelSubscription(deps, USERS[op.user] as string, id).catch((error) => {
            if (!isAppError(error)) throw error;
          });
        }
      } else if (op.kind === 'accept' || op.kind === 'endForPrice') {
        const id = subscriptions[op.index % Math.max(1, subscriptions.length)];
        const loaded = id ? await loadSubscription(deps, id) : undefined;
        if (id && loaded) {
          const pending = pendingPriceMlx(loaded.state, await currentPlanPrice(deps, loaded.state.planId));
          const byUser = USERS[op.user] as string;
          const attempt =
            op.kind === 'accept'
              ? acceptSubscriptionPrice(deps, byUser, id, op.stale || pending === undefined ? (pending ?? 1000n) + 1n : pending)
              : endSubscriptionForUnacceptedPrice(deps, byUser, id);
          const accepted = await attempt.then(
            () => true,
            (error) => {
              if (!isAppError(error)) throw error;
              return false;
            },
          );
          // Only the subscriber accepts, and only the price pending now; only the owner ends.
          if (accepted && op.kind === 'accept') expect([byUser, op.stale]).toEqual([loaded.state.subscriberUserId, false]);
          if (accepted && op.kind === 'endForPrice') expect(byUser).toBe(loaded.state.providerUserId);
          if (accepted) expect(pending).toBeDefined();
        }
      } else if (op.kind === 'price') {
        const owner = op.plan === 2 ? 'u1' : 'u0';
        await updatePlan(planDeps, owner, plans[op.plan] as string, {
          name: 'P',
          description: 'D',
          price: op.mlx,
          currency: 'mlx',
          duration: 'monthly',
        }).catch((error) => {
          if (!isAppError(error)) throw error;
        });
      } else {
        await deletePlan(planDeps, op.plan === 2 ? 'u1' : 'u0', plans[op.plan] as string).catch((error) => {
          if (!isAppError(error)) throw error;
        });
      }
    }
    nowMs += 400 * DAY_MS;
    await renewAll();

    const auditor = createLedgerAuditor();
    let after: bigint | undefined;
    for (;;) {
      const page = await store.readAll({ after, maxCount: 5000 });
      for (const e of page) auditor.add({ streamId: e.streamId, type: e.type, data: e.data, position: e.position });
      if (page.length < 5000) break;
      after = page[page.length - 1]?.position;
    }
    const audit = auditor.summary();
    expect(audit.violations).toEqual([]);
    // Every charge is at most the price agreed for its period: the first charge, each lower one
    // after it, or a higher price its subscriber accepted before the charge.
    for (const id of subscriptions) {
      let agreed: bigint | undefined;
      for (const e of await store.readStream(`subscription-${id}`)) {
        const price = typeof e.data.priceMlx === 'string' ? BigInt(e.data.priceMlx) : undefined;
        if (price === undefined) continue;
        if (e.type === 'SubscriptionStarted') agreed = price;
        else if (e.type === 'SubscriptionPriceAccepted') agreed = price;
        else if (e.type === 'SubscriptionRenewed') {
          expect(agreed !== undefined && price <= agreed).toBe(true);
          agreed = price;
        }
      }
    }
    // A year on, every subscription has ended or is waiting on a renewal that is not yet due.
    for (const id of subscriptions) {
      const state = (await loadSubscription(deps, id))?.state;
      const open = state && openRenewal(state);
      if (open) expect(open.dueAt.getTime()).toBeGreaterThan(nowMs);
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('subscription billing (property)', () => {
  it('keeps the ledger and subscription invariants under any sequence of operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 30 }), (ops) => run(ops)),
      { numRuns: 25 },
    );
  }, 240_000);
});

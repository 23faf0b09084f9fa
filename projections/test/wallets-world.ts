/**
 * Test support for the wallet read-model tests: a real event store and wallet handlers, users
 * with usernames, and a helper that waits until the runner has applied everything in the log.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { systemClock, type EventStore } from '@quern/core';
import { creditPurchase, orderPurchase, recordCaptureResult, recordRefund, recordReversal, requestCapture } from '@quern/core/purchases';
import { identityPayeeDirectory } from '@quern/core/identity';
import {
  MLX_TOTAL_SUPPLY,
  SEND_FEE_MLX,
  SYSTEM_WALLET_IDS,
  ensureSystemWallets,
  executeWalletCommand,
  openUserWallet,
  recordConfiguredExchangeRate,
  resolveRecipient,
  sendMlx,
  settleInternalTransfer,
  type WalletDeps,
} from '@quern/core/wallet';
import type { ProjectionRunner } from '../src/runner.js';
import { registerUsers } from './events.js';
import { transferTermsBook } from '@quern/core/transfer-references';

export const walletDeps = (store: EventStore): WalletDeps => ({
  store,
  transferTerms: transferTermsBook,
  clock: systemClock,
  newId: randomUUID,
  newKeyIdentifier: () => randomBytes(20),
  network: 'mainnet',
  payees: identityPayeeDirectory({ store }),
});

/** The last position in the log (pages through it: every read is bounded). */
export async function headPosition(store: EventStore): Promise<bigint | undefined> {
  let head: bigint | undefined;
  for (;;) {
    const page = await store.readAll({ after: head, maxCount: 1_000 });
    const last = page.at(-1);
    if (!last) return head;
    head = last.position;
  }
}

/** Resolves once the runner has applied the whole log as it is now. */
export async function caughtUp(store: EventStore, runner: ProjectionRunner): Promise<void> {
  const head = await headPosition(store);
  if (head === undefined) return;
  if (!(await runner.waitForPosition(head, 10_000))) throw new Error(`The runner did not reach position ${head}`);
}

export interface Person {
  id: string;
  username: string;
  address: string;
}

/** The system accounts (reserve funded), plus users User_<i> with wallets. */
export async function openWorld(deps: WalletDeps, userCount: number): Promise<Person[]> {
  await ensureSystemWallets(deps, { supplyMlx: MLX_TOTAL_SUPPLY, reserveFundingMlx: 1_000_000_000_000n });
  const ids = await registerUsers(deps.store, userCount);
  const people: Person[] = [];
  for (const [index, id] of ids.entries()) people.push({ id, username: `User_${index}`, address: await openUserWallet(deps, id) });
  return people;
}

/** A send settled between Quern wallets (at once, in one append: ADR 019); returns the transfer id. */
export async function sendSettled(deps: WalletDeps, fromWalletId: string, toAddress: string, amountMlx: bigint): Promise<string> {
  const sent = await sendMlx(deps, fromWalletId, { to: { kind: 'address', address: toAddress }, amount: amountMlx, fee: SEND_FEE_MLX });
  // A no-op for a send settled at once; settles an external or two-phase one.
  await settleInternalTransfer(deps, fromWalletId, sent.transferId);
  return sent.transferId;
}

/**
 * Only phase one of a two-phase send: the reservation, as internal sends were recorded before
 * ADR 019 (and external ones still are), so the read models' pending rows stay covered.
 */
export async function sendReserved(deps: WalletDeps, fromWalletId: string, toAddress: string, amountMlx: bigint): Promise<string> {
  const { toWalletId } = await resolveRecipient(deps, { kind: 'address', address: toAddress });
  const transferId = deps.newId();
  await executeWalletCommand(deps, fromWalletId, {
    type: 'ReserveTransfer',
    data: { transferId, toAddress, toWalletId, amountMlx, feeMlx: SEND_FEE_MLX },
  });
  return transferId;
}

export const RESERVE = SYSTEM_WALLET_IDS.reserve;

/** The rate the purchase helpers price at: 10 USD buys 833,333 MLX. */
export const PURCHASE_RATE_USD_PER_MLX = '0.000012';

/**
 * A PayPal purchase through the real purchase handlers (ADR 025): ordered, approved, captured
 * COMPLETED as `CAP<orderId>`, and credited from the reserve. Returns the capture id.
 */
export async function purchaseCredited(deps: WalletDeps, buyerUserId: string, orderId: string, usdCents: bigint): Promise<string> {
  await recordConfiguredExchangeRate(deps, PURCHASE_RATE_USD_PER_MLX);
  await orderPurchase(deps, { buyerUserId, usdCents, orderId });
  await requestCapture(deps, { orderId, requestId: `req-${orderId}`, buyerUserId });
  const captureId = `CAP${orderId}`;
  await recordCaptureResult(deps, { orderId, result: { status: 'completed', captureId, usdCents } });
  await creditPurchase(deps, { orderId, buyerUserId });
  return captureId;
}

/** PayPal reported a refund (`kind: 'refund'`) or a reversal of part or all of a credited purchase. */
export async function purchaseReturned(
  deps: WalletDeps,
  kind: 'refund' | 'reversal',
  input: { orderId: string; captureId: string; id: string; usdCents: bigint },
): Promise<void> {
  const { orderId, captureId, id, usdCents } = input;
  if (kind === 'refund') await recordRefund(deps, { orderId, captureId, refundId: id, usdCents });
  else await recordReversal(deps, { orderId, captureId, reversalId: id, usdCents });
}

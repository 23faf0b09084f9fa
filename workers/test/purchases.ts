/**
 * Test support for the purchase jobs: a funded reserve and a rate on a real store, buyers with a
 * registration and a wallet, approved orders, and a scripted PayPal that answers as told and
 * counts what it was asked.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { systemClock, type EventStore } from '@quern/core';
import { captureRequestIdFor, loadPurchase, orderPurchase, requestCapture } from '@quern/core/purchases';
import { identityPayeeDirectory } from '@quern/core/identity';
import { ensureSystemWallets, openUserWallet, recordConfiguredExchangeRate, type WalletDeps } from '@quern/core/wallet';
import type { PayPalClient, PayPalOrder } from '@quern/adapters/paypal';
import { captureLog } from '@quern/test-support/log';
import type { PurchaseJobDeps } from '../src/purchase-capture/deps.js';
import { registerUser, type TestUser } from './identity-events.js';
import { transferTermsBook } from '@quern/core/transfer-references';

/** 10 USD at 0.0000125 USD per MLX (1 USD = 80,000 MLX). */
export const ORDER_USD_CENTS = 1_000n;
export const ORDER_MLX = 800_000n;

export const walletDepsFor = (store: EventStore): WalletDeps => ({
  store,
  transferTerms: transferTermsBook,
  clock: systemClock,
  newId: randomUUID,
  newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
  network: 'mainnet',
  payees: identityPayeeDirectory({ store }),
});

export async function preparePurchases(store: EventStore): Promise<void> {
  await ensureSystemWallets(walletDepsFor(store), { supplyMlx: 10_000_000_000n, reserveFundingMlx: 1_000_000_000n });
  await recordConfiguredExchangeRate({ store, clock: systemClock }, '0.0000125');
}

export async function registerBuyer(store: EventStore, index: number, language?: 'en' | 'es'): Promise<TestUser> {
  const user = await registerUser(store, index, language);
  await openUserWallet(walletDepsFor(store), user.userId);
  return user;
}

/** An order of 10 USD for the buyer, approved (its first capture request recorded); gives the request id. */
export async function approvedOrder(store: EventStore, buyerUserId: string, orderId: string): Promise<string> {
  const deps = { store, clock: systemClock, transferTerms: transferTermsBook };
  await orderPurchase(deps, { buyerUserId, usdCents: ORDER_USD_CENTS, orderId });
  const requestId = captureRequestIdFor(orderId, (await loadPurchase(deps, orderId)).state);
  await requestCapture(deps, { orderId, requestId, buyerUserId });
  return requestId;
}

export const paypalOrder = (orderId: string, capture?: { id: string; status: string; usdCents?: number }): PayPalOrder => ({
  id: orderId,
  status: capture ? 'COMPLETED' : 'APPROVED',
  usdCents: Number(ORDER_USD_CENTS),
  reference: undefined,
  approveUrl: undefined,
  payerEmail: undefined,
  capture: capture && { id: capture.id, status: capture.status, usdCents: capture.usdCents ?? Number(ORDER_USD_CENTS) },
});

type Answer = PayPalOrder | Error;

/** A PayPal that answers each call with the next scripted answer (or the last one again). */
export class ScriptedPayPal implements Pick<PayPalClient, 'captureOrder' | 'getOrder'> {
  readonly captures: Array<{ orderId: string; requestId: string }> = [];
  readonly gets: string[] = [];
  constructor(
    private readonly captureAnswers: Answer[] = [],
    private readonly getAnswers: Answer[] = [],
  ) {}

  async captureOrder(orderId: string, requestId: string): Promise<PayPalOrder> {
    this.captures.push({ orderId, requestId });
    return this.#answer(this.captureAnswers, this.captures.length);
  }

  async getOrder(orderId: string): Promise<PayPalOrder> {
    this.gets.push(orderId);
    return this.#answer(this.getAnswers, this.gets.length);
  }

  #answer(answers: Answer[], call: number): PayPalOrder {
    const answer = answers[Math.min(call, answers.length) - 1];
    if (answer === undefined) throw new Error('ScriptedPayPal: no answer scripted for this call');
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

export function purchaseJobDeps(store: EventStore, paypal: Pick<PayPalClient, 'captureOrder' | 'getOrder'>): PurchaseJobDeps {
  return { core: { store, clock: systemClock, transferTerms: transferTermsBook }, paypal, logger: captureLog().logger };
}

// Proves a whole Quern answers a buyer's PayPal purchase, refund and reversal in the dashboard's calls (REST and tRPC) with their purpose (order, capture, refund or reversal id), and plain transfers without one.
import { createKeyedSerializer } from '@quern/core';
import { creditPurchase, orderPurchase, recordCaptureResult, recordRefund, recordReversal, requestCapture } from '@quern/core/purchases';
import { WalletStateCache } from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve, walletDepsFor } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';

/** 10 USD at 0.000012 USD per MLX. */
const ORDER_MLX = 833_333n;
/** 4 of the 10 USD refunded: the MLX share rounded up. */
const REFUNDED_MLX = 333_334n;

let quern: TestQuern;
let buyer: { id: string; cookie: string };

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', EXCHANGE_RATE_USD_PER_MLX: '0.000012' });
  const user = {
    userName: 'paypal_buyer',
    firstName: 'P',
    lastName: 'B',
    email: 'paypal_buyer@example.com',
    phone: '+15550199001',
    password: 'long enough secret',
  };
  const registered = await quern.call('POST', '/api/user/register', { body: user });
  expect(registered.status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  buyer = { id: registered.body.id as string, cookie: cookieOf(login.setCookie) };
  const { address } = (await quern.call('GET', '/api/millix/address', { cookie: buyer.cookie })).body as { address: string };
  // A plain transfer from the reserve first: the same counterparty, but no purchase.
  await fundFromReserve(quern.store, address, 50_000n);

  // The purchase handlers as the PayPal routes and webhooks call them (ADR 025).
  const deps = { ...walletDepsFor(quern.store), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
  await orderPurchase(deps, { buyerUserId: buyer.id, usdCents: 1000n, orderId: 'ORDER-H1' });
  await requestCapture(deps, { orderId: 'ORDER-H1', requestId: 'approval-H1', buyerUserId: buyer.id });
  await recordCaptureResult(deps, { orderId: 'ORDER-H1', result: { status: 'completed', captureId: 'CAPTURE-H1', usdCents: 1000n } });
  await creditPurchase(deps, { orderId: 'ORDER-H1', buyerUserId: buyer.id });
  await recordRefund(deps, { orderId: 'ORDER-H1', captureId: 'CAPTURE-H1', refundId: 'REFUND-H1', usdCents: 400n });
  await recordReversal(deps, { orderId: 'ORDER-H1', captureId: 'CAPTURE-H1', reversalId: 'REVERSAL-H1', usdCents: 600n });
});
afterAll(async () => {
  await quern?.stop();
});

const ids = { order_id: 'ORDER-H1', capture_id: 'CAPTURE-H1' };
interface Row {
  transaction_type: string;
  amount: string;
  fee?: string;
  purpose?: unknown;
}
const summary = (rows: Row[]) => rows.map(({ transaction_type, amount, fee, purpose }) => ({ transaction_type, amount, fee, purpose }));
const expected = [
  {
    transaction_type: 'debit',
    amount: String(ORDER_MLX - REFUNDED_MLX),
    fee: '0',
    purpose: { kind: 'purchase_reversal', ...ids, refund_id: 'REVERSAL-H1' },
  },
  {
    transaction_type: 'debit',
    amount: String(REFUNDED_MLX),
    fee: '0',
    purpose: { kind: 'purchase_refund', ...ids, refund_id: 'REFUND-H1' },
  },
  { transaction_type: 'credit', amount: String(ORDER_MLX), fee: undefined, purpose: { kind: 'purchase', ...ids } },
  { transaction_type: 'credit', amount: '50000', fee: undefined, purpose: undefined },
];

describe('purchases in the transaction history', () => {
  it('given a purchase, its refund and its reversal, when the REST history is read, then each row carries its purpose and the funding send none', async () => {
    const page = await eventually(async () => {
      const response = await quern.call('GET', '/api/quern/transactions?page=0', { cookie: buyer.cookie });
      return response.body.total === 4 ? response.body : undefined;
    });
    expect(summary(page.transactions)).toEqual(expected);
    expect(page.transactions[3]).not.toHaveProperty('purpose');
    const pending = await quern.call('GET', '/api/quern/pending-transactions', { cookie: buyer.cookie });
    expect(pending.body).toEqual({ content: [] });
  });

  it('given the same history over tRPC, when its output schema has validated it, then the purposes are still there', async () => {
    const input = encodeURIComponent(JSON.stringify({ page: 0 }));
    const response = await eventually(async () => {
      const answer = await quern.call('GET', `/trpc/wallet.transactions?input=${input}`, { cookie: buyer.cookie });
      return answer.body?.result?.data?.total === 4 ? answer : undefined;
    });
    expect(response.status).toBe(200);
    expect(summary(response.body.result.data.transactions)).toEqual(expected);
  });
});

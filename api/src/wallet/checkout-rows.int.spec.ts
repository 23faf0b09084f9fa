// Proves that a checkout payment and its refund can be recognised in both histories (issue 25):
// the shopper's and the shop's rows carry the shop's own order reference, the refund's rows on
// both sides name the same reference, and an order paid without a reference is named by its
// cart's first item instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let shopper: TestUser;
let shop: TestUser;
let key: string;

type Row = { transaction_hash: string; transaction_type: string; purpose?: Record<string, unknown>; to_user?: { username: string } };

async function pay(reference: string | undefined, marker: string): Promise<string> {
  const body = {
    cart: [{ name: `Tea ${marker}`, price: '120000', quantity: 1 }],
    price: '120000',
    currency: 'MLX',
    to: shop.name,
    ...(reference === undefined ? {} : { reference }),
  };
  const answer = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
  expect([answer.status, answer.body.success]).toEqual([200, true]);
  return answer.body.order as string;
}

/** The row of `user` whose purpose names `order` with the given kind, once the read model has it. */
const rowOf = (user: TestUser, order: string, kind: string) =>
  eventually(async () => {
    const page = await quern.call('GET', '/api/quern/transactions', { cookie: user.cookie });
    return (page.body.transactions as Row[]).find((row) => row.purpose?.kind === kind && row.purpose.order_id === order);
  });

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: '10000' });
  shopper = await registerUser(quern, 'rows_shopper');
  shop = await registerUser(quern, 'rows_shop');
  await fundFromReserve(quern.store, shopper.address, 1_000_000n);
  await eventually(async () => {
    const r = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
    return r.body.stable === '1000000' ? true : undefined;
  });
  key = await generateApiKey(quern, shop);
});
afterAll(async () => {
  await quern?.stop();
});

describe('checkout rows name the shop’s reference', () => {
  it('given a payment with a reference, then both sides’ rows carry it, and so do both rows of its refund', async () => {
    const order = await pay('ORD-1042', 'ref');
    const shopperRow = await rowOf(shopper, order, 'checkout');
    expect(shopperRow.transaction_type).toBe('debit');
    expect(shopperRow.to_user).toEqual({ username: shop.name });
    expect(shopperRow.purpose).toEqual({ kind: 'checkout', order_id: order, merchant_reference: 'ORD-1042', first_item: 'Tea ref' });
    const shopRow = await rowOf(shop, order, 'checkout');
    expect([shopRow.transaction_type, shopRow.purpose?.merchant_reference]).toEqual(['credit', 'ORD-1042']);

    const refund = await quern.call('POST', '/api/v1/refunds', {
      body: { order, amount: '20000' },
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'rows-refund-1' },
    });
    expect(refund.status).toBe(201);
    for (const user of [shopper, shop]) {
      const row = await rowOf(user, order, 'checkout_refund');
      expect(row.purpose).toEqual({
        kind: 'checkout_refund',
        order_id: order,
        refund_id: refund.body.id,
        merchant_reference: 'ORD-1042',
        first_item: 'Tea ref',
      });
    }
  });

  it('given a payment without a reference, then its rows carry none, and its first item names it on both sides', async () => {
    const order = await pay(undefined, 'noref');
    expect((await rowOf(shopper, order, 'checkout')).purpose).toEqual({ kind: 'checkout', order_id: order, first_item: 'Tea noref' });
    expect((await rowOf(shop, order, 'checkout')).purpose?.first_item).toBe('Tea noref');
  });
});

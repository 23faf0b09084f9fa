// Proves refunds through the merchant API over real HTTP (ADR 033): 20 parallel retries with one
// Idempotency-Key refund once and answer alike; the same key with another body is 422 and a
// missing key 400; a refund above what was paid is refused and moves nothing; partial refunds
// add up to the total and one more is refused; concurrent refunds of one order never pass what
// was paid; another merchant's order or refund is 404; a merchant short of MLX is refused; the
// web's refunds.create works with a session; both histories name the order; the audit is clean.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutStream, parseCheckoutOrderId } from '@quern/core/checkout';
import { auditLog, fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

type User = TestUser;

let quern: TestQuern;
let shopper: User;
let shopA: User;
let shopB: User;
let keyA: string;
let keyB: string;

const register = (name: string): Promise<User> => registerUser(quern, name);

const generateKey = (user: User): Promise<string> => generateApiKey(quern, user);

/** A paid order of 240,000 MLX to `to`; `marker` makes each cart (and so each order) distinct. */
async function pay(to: User, marker: string): Promise<string> {
  const body = { cart: [{ name: `Tea ${marker}`, price: '120000', quantity: 2 }], price: '240000', currency: 'MLX', to: to.name };
  const answer = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
  expect([answer.status, answer.body.success]).toEqual([200, true]);
  return answer.body.order as string;
}

const refund = (key: string, idempotencyKey: string | undefined, body: unknown) =>
  quern.call('POST', '/api/v1/refunds', {
    body,
    headers: { authorization: `Bearer ${key}`, ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
  });
const orderOf = (key: string, order: string) =>
  quern.call('GET', `/api/v1/orders/${encodeURIComponent(order)}`, { headers: { authorization: `Bearer ${key}` } });
const getRefund = (key: string, id: string) =>
  quern.call('GET', `/api/v1/refunds/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });

/** The refunds recorded on an order's checkout stream. */
async function refundsOn(order: string): Promise<Array<Record<string, unknown>>> {
  const intent = parseCheckoutOrderId(order)?.intentId as string;
  const records = await quern.store.readStream(checkoutStream(intent));
  return records.filter((r) => r.type === 'CheckoutRefunded').map((r) => r.data);
}

async function stableOf(user: User): Promise<string> {
  return (await quern.call('GET', `/api/millix/balance/${user.address}`, { cookie: user.cookie })).body.stable as string;
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: '10000' });
  shopper = await register('refund_shopper');
  shopA = await register('refund_shop_a');
  shopB = await register('refund_shop_b');
  await fundFromReserve(quern.store, shopper.address, 10_000_000n);
  await eventually(async () => ((await stableOf(shopper)) === '10000000' ? true : undefined));
  keyA = await generateKey(shopA);
  keyB = await generateKey(shopB);
});
afterAll(async () => {
  await quern?.stop();
});

describe('POST /api/v1/refunds', () => {
  it('20 parallel requests with one Idempotency-Key refund once, and all answer the same refund', async () => {
    const order = await pay(shopA, 'parallel');
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(keyA, 'refund-parallel-1', { order, amount: '1000' })));
    for (const answer of answers) expect(answer.status).toBe(201);
    const first = answers[0]?.body;
    expect(first).toEqual({
      id: expect.stringMatching(/^re_[0-9a-f]{32}$/),
      object: 'refund',
      order,
      amount: '1000',
      currency: 'MLX',
      status: 'succeeded',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      livemode: false,
    });
    for (const answer of answers) expect(answer.body).toEqual(first);
    expect(await refundsOn(order)).toHaveLength(1);
    const audit = await auditLog(quern.store);
    expect(audit.reservedTransferIds.get(`refund-${first.id}`)).toBe(1);
    // A later retry still answers the first refund and moves nothing.
    expect((await refund(keyA, 'refund-parallel-1', { amount: '1000', order })).body).toEqual(first);
    expect(await refundsOn(order)).toHaveLength(1);
  });

  it('the same key with another body is 422 and moves nothing; a missing key is 400', async () => {
    const order = await pay(shopA, 'reuse');
    expect((await refund(keyA, 'refund-reuse', { order, amount: '500' })).status).toBe(201);
    const reused = await refund(keyA, 'refund-reuse', { order, amount: '501' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.message).toBe('This Idempotency-Key was already used with a different request.');
    const missing = await refund(keyA, undefined, { order, amount: '1' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('An Idempotency-Key header is required for this call.');
    expect((await refundsOn(order)).map((r) => r.mlx)).toEqual(['500']);
  });

  it('a refund above what was paid is refused and nothing moves', async () => {
    const order = await pay(shopA, 'above');
    const before = await stableOf(shopA);
    const answer = await refund(keyA, 'refund-above', { order, amount: '240001' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/240,?000 MLX/);
    expect(await refundsOn(order)).toEqual([]);
    expect(await stableOf(shopA)).toBe(before);
  });

  it('partial refunds add up to the total, then one more is refused', async () => {
    const order = await pay(shopA, 'partial');
    expect((await orderOf(keyA, order)).body).toMatchObject({ status: 'paid', amount_refunded: '0' });
    expect((await refund(keyA, 'partial-1', { order, amount: '100000' })).status).toBe(201);
    expect((await orderOf(keyA, order)).body).toMatchObject({ status: 'partially_refunded', amount_refunded: '100000' });
    expect((await refund(keyA, 'partial-2', { order, amount: '100000' })).status).toBe(201);
    const rest = await refund(keyA, 'partial-3', { order });
    expect([rest.status, rest.body.amount]).toEqual([201, '40000']);
    const more = await refund(keyA, 'partial-4', { order, amount: '1' });
    expect(more.status).toBe(409);
    expect(more.body.error.message).toBe('This order is already fully refunded.');
    expect((await refundsOn(order)).map((r) => r.mlx)).toEqual(['100000', '100000', '40000']);
    // The order's own answer follows its refunds.
    expect((await orderOf(keyA, order)).body).toMatchObject({ status: 'refunded', amount: '240000', amount_refunded: '240000' });
  });

  it('concurrent refunds of one order with different keys never pass what was paid', async () => {
    const order = await pay(shopA, 'race');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => refund(keyA, `race-${i}`, { order, amount: '50000' })));
    const succeeded = answers.filter((a) => a.status === 201);
    expect(succeeded).toHaveLength(4);
    for (const answer of answers) expect([201, 400]).toContain(answer.status);
    const total = (await refundsOn(order)).reduce((sum, r) => sum + BigInt(r.mlx as string), 0n);
    expect(total).toBe(200_000n);
  });

  it("another merchant's order is 404 like an unknown one, and so is another merchant's refund", async () => {
    const order = await pay(shopA, 'foreign');
    const foreign = await refund(keyB, 'foreign-1', { order });
    const unknown = await refund(keyB, 'foreign-2', { order: `${'0'.repeat(32)}-1` });
    const nonsense = await refund(keyB, 'foreign-3', { order: 'not-an-order' });
    for (const answer of [foreign, unknown, nonsense]) {
      expect(answer.status).toBe(404);
      expect(answer.body.error.message).toBe(foreign.body.error.message);
    }
    expect(await refundsOn(order)).toEqual([]);
    const own = await refund(keyA, 'own-1', { order, amount: '7' });
    expect((await getRefund(keyA, own.body.id)).body).toEqual(own.body);
    expect((await getRefund(keyB, own.body.id)).status).toBe(404);
    expect((await getRefund(keyA, `re_${'0'.repeat(32)}`)).status).toBe(404);
  });

  it('a merchant without enough MLX is refused with an insufficient funds message, and nothing moves', async () => {
    const order = await pay(shopB, 'poor');
    // Shop B sends away all but 1,000 MLX of what it was paid (fee 1000).
    const out = await quern.call('POST', '/api/v1/payouts', {
      body: { to: shopper.name, amount: '238000' },
      headers: { authorization: `Bearer ${keyB}`, 'idempotency-key': 'drain-b' },
    });
    expect(out.status).toBe(201);
    const answer = await refund(keyB, 'poor-1', { order });
    expect(answer.status).toBe(409);
    expect(answer.body.error.message).toMatch(/^Insufficient funds: this refund needs 240,?000 MLX/);
    expect(await refundsOn(order)).toEqual([]);
  });
});

describe('refunds.create (the web app, session)', () => {
  it('refunds with the session of the order merchant, once per key, and refuses another user', async () => {
    const order = await pay(shopA, 'web');
    const input = { order, amount: '2500', idempotencyKey: 'web-refund-1' };
    const headers = { 'sec-fetch-site': 'same-origin' };
    const first = await quern.call('POST', '/trpc/refunds.create', { cookie: shopA.cookie, body: input, headers });
    expect(first.status).toBe(200);
    expect(first.body.result.data).toMatchObject({ object: 'refund', order, amount: '2500', status: 'succeeded' });
    const again = await quern.call('POST', '/trpc/refunds.create', { cookie: shopA.cookie, body: input, headers });
    expect(again.body.result.data).toEqual(first.body.result.data);
    const stranger = await quern.call('POST', '/trpc/refunds.create', {
      cookie: shopB.cookie,
      body: { ...input, idempotencyKey: 'x' },
      headers,
    });
    expect(stranger.status).toBe(404);
    expect((await quern.call('POST', '/trpc/refunds.create', { body: input, headers })).status).toBe(401);
    expect(await refundsOn(order)).toHaveLength(1);
  });
});

describe('history and audit', () => {
  it("a refund shows in the merchant's and the shopper's history with its order", async () => {
    const order = await pay(shopA, 'history');
    const made = await refund(keyA, 'history-1', { order, amount: '3000' });
    for (const user of [shopA, shopper]) {
      const row = await eventually(async () => {
        const page = await quern.call('GET', '/api/quern/transactions', { cookie: user.cookie });
        return (page.body.transactions as Array<Record<string, unknown>>).find((r) => r.transaction_hash === `refund-${made.body.id}`);
      });
      expect(row.purpose).toEqual({ kind: 'checkout_refund', order_id: order, refund_id: made.body.id, first_item: 'Tea history' });
      expect(row.transaction_type).toBe(user === shopA ? 'debit' : 'credit');
    }
  });

  it('the audit of the whole log is clean and counts the refunds', async () => {
    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
    expect(audit.ok).toBe(true);
    expect(audit.refunds.refunds).toBeGreaterThanOrEqual(10);
  });

  it('`npm run audit` over this data directory exits 0 and reports the refunds and the payout', async () => {
    const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: quern.dataDir };
    delete env.EVENTSTORE_URL;
    delete env.MILLIX_NODE_URL;
    const run = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', `${repoRoot}api/src/bin/audit.ts`],
        { cwd: repoRoot, env, timeout: 30_000 },
        (error, stdout) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout }),
      );
    });
    expect(run.stdout).toContain('audit: OK');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/checkout refunds: \d+ \(/);
    expect(run.stdout).toContain('payouts: 1 (238,000 MLX sent from merchant wallets)');
  });
});

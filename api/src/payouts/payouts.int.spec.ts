// Proves payouts through the merchant API over real HTTP (ADR 033): to a username, an e-mail and a
// Quern address they complete at once; to an external address they are pending until the
// simulated millix network settles them; 20 parallel retries with one Idempotency-Key pay once and
// answer alike; the same key with another body is 422 and a missing key 400; an overdrawing payout
// and a payout to oneself are refused and move nothing; another merchant's payout is 404; the
// history names the payout on both sides; the audit is clean.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRawEventStore } from '@quern/adapters/eventstore';
import { createAddress } from '@quern/core/wallet';
import { auditLog, fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

type User = TestUser;

let quern: TestQuern;
let shop: User;
let other: User;
let payee: User;
let keyShop: string;
let keyOther: string;

const register = (name: string): Promise<User> => registerUser(quern, name);

const generateKey = (user: User): Promise<string> => generateApiKey(quern, user);

const payout = (key: string, idempotencyKey: string | undefined, body: unknown) =>
  quern.call('POST', '/api/v1/payouts', {
    body,
    headers: { authorization: `Bearer ${key}`, ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
  });
const getPayout = (key: string, id: string) =>
  quern.call('GET', `/api/v1/payouts/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });

async function payoutStreams(): Promise<number> {
  let count = 0;
  let after: bigint | undefined;
  for (;;) {
    const page = await quern.store.readAll({ after, maxCount: 5000 });
    count += page.filter((e) => e.type === 'PayoutRequested').length;
    if (page.length < 5000) return count;
    after = page[page.length - 1]?.position;
  }
}

const stableOf = async (user: User): Promise<string> =>
  (await quern.call('GET', `/api/millix/balance/${user.address}`, { cookie: user.cookie })).body.stable as string;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: '10000' });
  shop = await register('payout_shop');
  other = await register('payout_other');
  payee = await register('payout_payee');
  await fundFromReserve(quern.store, shop.address, 1_000_000n);
  await eventually(async () => ((await stableOf(shop)) === '1000000' ? true : undefined));
  keyShop = await generateKey(shop);
  keyOther = await generateKey(other);
});
afterAll(async () => {
  await quern?.stop();
});

describe('POST /api/v1/payouts', () => {
  it('to a username, an e-mail and a Quern address, completes at once with the send fee', async () => {
    for (const [i, to] of [payee.name, payee.email, payee.address].entries()) {
      const answer = await payout(keyShop, `internal-${i}`, { to, amount: '10000' });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        id: expect.stringMatching(/^po_[0-9a-f]{32}$/),
        object: 'payout',
        to,
        amount: '10000',
        fee: '1000',
        currency: 'MLX',
        status: 'completed',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        livemode: false,
      });
      expect((await getPayout(keyShop, answer.body.id)).body).toEqual(answer.body);
    }
    await eventually(async () => ((await stableOf(payee)) === '30000' ? true : undefined));
  });

  it('to an external address, is pending until the network settles it, then completed', async () => {
    const to = createAddress(new Uint8Array(randomBytes(20)), 'mainnet');
    const answer = await payout(keyShop, 'external-1', { to, amount: '20000' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ to, amount: '20000', fee: '1000', status: 'pending' });
    const settled = await eventually(async () => {
      const read = await getPayout(keyShop, answer.body.id);
      return read.body.status === 'pending' ? undefined : read.body;
    }, 20_000);
    expect(settled).toEqual({ ...answer.body, status: 'completed' });
    // A retry now answers with the status as it is.
    expect((await payout(keyShop, 'external-1', { to, amount: '20000' })).body.status).toBe('completed');
  });

  it('20 parallel requests with one Idempotency-Key pay once, and all answer the same payout', async () => {
    const before = await payoutStreams();
    const answers = await Promise.all(Array.from({ length: 20 }, () => payout(keyShop, 'parallel-1', { to: payee.name, amount: '777' })));
    for (const answer of answers) expect(answer.status).toBe(201);
    for (const answer of answers) expect(answer.body).toEqual(answers[0]?.body);
    expect(await payoutStreams()).toBe(before + 1);
    const audit = await auditLog(quern.store);
    expect(audit.reservedTransferIds.get(`payout-${answers[0]?.body.id}`)).toBe(1);
  });

  it('the same key with another body, or used for a refund, is 422; a missing key is 400; nothing moves', async () => {
    expect((await payout(keyShop, 'reuse-1', { to: payee.name, amount: '100' })).status).toBe(201);
    const before = await payoutStreams();
    const reused = await payout(keyShop, 'reuse-1', { to: payee.name, amount: '101' });
    expect(reused.status).toBe(422);
    expect(reused.body.error.message).toBe('This Idempotency-Key was already used with a different request.');
    const asRefund = await quern.call('POST', '/api/v1/refunds', {
      body: { order: `${'0'.repeat(32)}-1` },
      headers: { authorization: `Bearer ${keyShop}`, 'idempotency-key': 'reuse-1' },
    });
    expect(asRefund.status).toBe(422);
    expect((await payout(keyShop, undefined, { to: payee.name, amount: '1' })).status).toBe(400);
    expect(await payoutStreams()).toBe(before);
  });

  it('more than the wallet holds (with the fee), or to the merchant itself, is refused and nothing moves', async () => {
    const balance = BigInt(await stableOf(shop));
    const before = await payoutStreams();
    const overdrawn = await payout(keyShop, 'overdrawn-1', { to: payee.name, amount: (balance - 999n).toString() });
    expect(overdrawn.status).toBe(409);
    expect(overdrawn.body.error.message).toMatch(/^Insufficient funds/);
    const self = await payout(keyShop, 'self-1', { to: shop.name, amount: '1' });
    expect(self.status).toBe(400);
    const zero = await payout(keyShop, 'zero-1', { to: payee.name, amount: '0' });
    expect(zero.status).toBe(400);
    expect(await payoutStreams()).toBe(before);
    expect(BigInt(await stableOf(shop))).toBe(balance);
  });

  it("another merchant's payout is 404, like an unknown one", async () => {
    const own = await payout(keyShop, 'own-1', { to: payee.name, amount: '5' });
    expect((await getPayout(keyOther, own.body.id)).status).toBe(404);
    expect((await getPayout(keyShop, `po_${'0'.repeat(32)}`)).status).toBe(404);
    expect((await getPayout(keyShop, 'nonsense')).status).toBe(404);
  });
});

describe('history and audit', () => {
  it("a payout shows in the merchant's and the payee's history as a payout", async () => {
    const made = await payout(keyShop, 'history-1', { to: payee.name, amount: '4321' });
    for (const user of [shop, payee]) {
      const row = await eventually(async () => {
        const page = await quern.call('GET', '/api/quern/transactions', { cookie: user.cookie });
        return (page.body.transactions as Array<Record<string, unknown>>).find((r) => r.transaction_hash === `payout-${made.body.id}`);
      });
      expect(row.purpose).toEqual({ kind: 'payout', payout_id: made.body.id });
      expect(row.transaction_type).toBe(user === shop ? 'debit' : 'credit');
    }
  });

  it('the audit of the whole log is clean and counts the payouts, read opened and as recorded (recipients sealed, ADR 042)', async () => {
    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
    expect(audit.ok).toBe(true);
    expect(audit.payouts.payouts).toBe(await payoutStreams());
    // `npm run audit` reads the log as recorded, where a payout's recipient is sealed.
    const raw = openRawEventStore({ dataDir: quern.dataDir });
    try {
      const recorded = await auditLog(raw);
      expect(recorded.violations).toEqual([]);
      expect(recorded.payouts.payouts).toBe(audit.payouts.payouts);
      const payouts = (await raw.readAll({ maxCount: 10_000 })).filter((e) => e.type === 'PayoutRequested' && e.data.toWalletId);
      expect(payouts.length).toBeGreaterThan(0);
      for (const p of payouts) expect(String(p.data.to)).toMatch(/^sealed:v1:/);
    } finally {
      await raw.close();
    }
  });
});

// Proves `as_of` over real HTTP (ADR 089) on a scripted history over five days of the ledger's
// clock (deposits, a send in, a checkout payment, a refund, a payout): the balance the merchant API
// answered at each moment is what `GET /api/v1/balance?as_of=` answers later for that moment's
// cursor and for its time, with the day snapshots in Redis, without them, and with a stale one;
// zero before the wallet existed; a payment as of before and after its refund, 404 before it was
// paid, for another merchant and for an unknown id; a future moment, a cursor past the log and a
// malformed as_of are 400 with a message; the web app's balance at the end of a day agrees.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '@quern/core';
import { SYSTEM_WALLET_IDS, sendMlx, settleInternalTransfer } from '@quern/core/wallet';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletDepsFor } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

const DAY_MS = 86_400_000;
/** The ledger's clock: the system's, moved by the test (it starts four days back and walks to today). */
const ledgerClock: Clock & { offsetMs: number } = { offsetMs: -4 * DAY_MS, now: (): Date => new Date(Date.now() + ledgerClock.offsetMs) };

interface Moment {
  label: string;
  cursor: string;
  time: string;
  balance: { stable: string; unstable: string };
}

let quern: TestQuern;
let redis: Redis;
let shopper: TestUser;
let friend: TestUser;
let merchant: TestUser;
let other: TestUser;
let key: string;
let otherKey: string;
let orderId: string;
const moments: Moment[] = [];
const paymentAt: Record<string, unknown> = {};

const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });
const balanceOf = (query = '', apiKey = key) => quern.call('GET', `/api/v1/balance${query}`, { headers: bearer(apiKey) });
/** A balance as the merchant API answers it (a test key's: not live). */
const v1 = (balance: Moment['balance'] | undefined) => ({ ...balance, livemode: false });
const paymentOf = (id: string, query = '', apiKey = key) =>
  quern.call('GET', `/api/v1/payments/${encodeURIComponent(id)}${query}`, { headers: bearer(apiKey) });

/** Moves MLX from the reserve to the address and settles it, stamped by the ledger's clock. */
async function deposit(address: string, amountMlx: bigint): Promise<void> {
  const deps = { ...walletDepsFor(quern.store), clock: ledgerClock, newKeyIdentifier: () => new Uint8Array(randomBytes(20)) };
  const sent = await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address }, amount: amountMlx, fee: 1000n });
  await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.reserve, sent.transferId);
}

/** The log's last position now: a cursor as the events feed gives them. */
async function logEnd(): Promise<bigint> {
  let end = 0n;
  for (;;) {
    const page = await quern.store.readAll({ after: end, maxCount: 1000 });
    if (page.length === 0) return end;
    end = page[page.length - 1]?.position ?? end;
  }
}

/** Waits for the merchant's balance to be `stable`, then records the moment: its cursor, time and answer. */
async function record(label: string, stable: string): Promise<void> {
  const answer = await eventually(async () => {
    const got = await balanceOf();
    return got.body.stable === stable ? got : undefined;
  });
  const { stable: atStable, unstable } = answer.body as Moment['balance'];
  moments.push({
    label,
    cursor: (await logEnd()).toString(),
    time: ledgerClock.now().toISOString(),
    balance: { stable: atStable, unstable },
  });
}

const nextDay = () => {
  ledgerClock.offsetMs += DAY_MS;
};

async function expectRecordedAnswers(): Promise<void> {
  for (const moment of moments) {
    const byCursor = await balanceOf(`?as_of=${moment.cursor}`);
    expect([moment.label, byCursor.status, byCursor.body]).toEqual([moment.label, 200, v1(moment.balance)]);
    const byTime = await balanceOf(`?as_of=${encodeURIComponent(moment.time)}`);
    expect([moment.label, byTime.status, byTime.body]).toEqual([moment.label, 200, v1(moment.balance)]);
  }
}

async function snapshotKeys(walletId: string): Promise<string[]> {
  return (await redis.keys(`rm:wallet-day*:${walletId}`)).sort();
}

beforeAll(async () => {
  quern = await startTestQuern(
    { REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: '100000', EXCHANGE_RATE_USD_PER_MLX: '0.0000125' },
    { ledgerClock },
  );
  redis = new Redis(quern.redisUrl);
  shopper = await registerUser(quern, 'asof_shopper');
  friend = await registerUser(quern, 'asof_friend');
  merchant = await registerUser(quern, 'asof_shop');
  other = await registerUser(quern, 'asof_other');
  key = await generateApiKey(quern, merchant);
  otherKey = await generateApiKey(quern, other);
  moments.push({
    label: 'wallet opened',
    cursor: (await logEnd()).toString(),
    time: ledgerClock.now().toISOString(),
    balance: { stable: '0', unstable: '0' },
  });
  // The deposit below is stamped by the same clock: in the same millisecond it would be "at or
  // before" this moment, and an instant includes the events of its own millisecond.
  await new Promise((resolve) => setTimeout(resolve, 5));
  // Day 1: deposits.
  await deposit(merchant.address, 1_000_000n);
  await deposit(shopper.address, 2_000_000n);
  await deposit(friend.address, 500_000n);
  await record('day 1: deposit', '1000000');
  // Day 2: a checkout payment and a send in.
  nextDay();
  const body = { cart: [{ name: 'Tea', price: '300000', quantity: 1 }], price: '300000', currency: 'MLX', to: merchant.name };
  const paid = await quern.call('POST', '/api/quern/checkout', { cookie: shopper.cookie, body });
  expect([paid.status, paid.body.success]).toEqual([200, true]);
  orderId = paid.body.order as string;
  const sent = await quern.call('POST', '/api/v1/payouts', {
    headers: { ...bearer(await generateApiKey(quern, friend)), 'idempotency-key': randomUUID() },
    body: { to: merchant.name, amount: '50000' },
  });
  expect(sent.status).toBe(201);
  await record('day 2: payment and send in', '1350000');
  paymentAt.beforeRefund = (
    await eventually(async () => ((await paymentOf(orderId)).status === 200 ? paymentOf(orderId) : undefined))
  ).body;
  // Day 3: a partial refund.
  nextDay();
  const refunded = await quern.call('POST', '/api/v1/refunds', {
    headers: { ...bearer(key), 'idempotency-key': randomUUID() },
    body: { order: orderId, amount: '100000' },
  });
  expect(refunded.status).toBe(201);
  await record('day 3: refund', '1250000');
  paymentAt.afterRefund = (await paymentOf(orderId)).body;
  // Day 4: a payout (its fee of 1000 MLX is the merchant's too).
  nextDay();
  const payout = await quern.call('POST', '/api/v1/payouts', {
    headers: { ...bearer(key), 'idempotency-key': randomUUID() },
    body: { to: friend.name, amount: '200000' },
  });
  expect(payout.status).toBe(201);
  await record('day 4: payout', '1049000');
  // Day 5 (today): another deposit.
  nextDay();
  await deposit(merchant.address, 7_000n);
  await record('day 5: deposit', '1056000');
}, 120_000);
afterAll(async () => {
  redis?.disconnect();
  await quern?.stop();
});

describe('GET /api/v1/balance?as_of=', () => {
  it("answers, for each recorded moment's cursor and time, the balance answered at that moment, from the day snapshots", async () => {
    // One snapshot per day the wallet moved on: the reads below start from them.
    expect(await redis.hlen(`rm:wallet-day-ends:${merchant.id}`)).toBe(5);
    await expectRecordedAnswers();
    // Without as_of: the present.
    expect((await balanceOf()).body).toEqual(v1(moments[moments.length - 1]?.balance));
  });

  it('answers the same with the day snapshots deleted, and with a stale one that does not match the log', async () => {
    const keys = await snapshotKeys(merchant.id);
    expect(keys.length).toBe(3);
    const dayEnds = await redis.hgetall(`rm:wallet-day-ends:${merchant.id}`);
    await redis.del(...keys);
    await expectRecordedAnswers();
    // A cache from another log: the right days, positions that are not the wallet's, a wrong balance.
    for (const [day, json] of Object.entries(dayEnds)) {
      const stored = JSON.parse(json) as Record<string, string>;
      await redis.hset(`rm:wallet-day-ends:${merchant.id}`, day, JSON.stringify({ ...stored, position: '1', posted: '999999999' }));
      await redis.zadd(`rm:wallet-days-by-day:${merchant.id}`, Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS), day);
      await redis.zadd(`rm:wallet-days-by-position:${merchant.id}`, 1, day);
    }
    await expectRecordedAnswers();
    await redis.del(...keys);
    for (const [day, json] of Object.entries(dayEnds)) {
      const stored = JSON.parse(json) as Record<string, string>;
      await redis.hset(`rm:wallet-day-ends:${merchant.id}`, day, json);
      await redis.zadd(`rm:wallet-days-by-day:${merchant.id}`, Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS), day);
      await redis.zadd(`rm:wallet-days-by-position:${merchant.id}`, Number(stored.position), day);
    }
    await expectRecordedAnswers();
  });

  it('answers zero before the wallet existed, by time and by cursor 0', async () => {
    expect((await balanceOf('?as_of=2001-01-01T00:00:00Z')).body).toEqual(v1({ stable: '0', unstable: '0' }));
    expect((await balanceOf('?as_of=0')).body).toEqual(v1({ stable: '0', unstable: '0' }));
  });

  it('answers an instant in the middle of a day with what that day had done by then', async () => {
    const [, day1, day2] = moments;
    // One millisecond before day 2's moment the payment and the send were both already in (they came first).
    expect((await balanceOf(`?as_of=${encodeURIComponent(new Date(Date.parse(day2?.time ?? '') - 1).toISOString())}`)).body).toEqual(
      v1(day2?.balance),
    );
    // Half a day after day 1's moment nothing else had happened yet.
    expect(
      (await balanceOf(`?as_of=${encodeURIComponent(new Date(Date.parse(day1?.time ?? '') + DAY_MS / 2).toISOString())}`)).body,
    ).toEqual(v1(day1?.balance));
  });

  it('refuses a future instant, a cursor past the log and a malformed as_of with 400 and a message naming as_of', async () => {
    const future = new Date(ledgerClock.now().getTime() + 60_000).toISOString();
    const cases = [
      [`?as_of=${encodeURIComponent(future)}`, 'later than now'],
      [`?as_of=${(await logEnd()) + 1_000_000n}`, 'past the end of the log'],
      ['?as_of=2026-03-01', 'ISO 8601'],
      ['?as_of=yesterday', 'ISO 8601'],
      ['?as_of=-5', 'ISO 8601'],
      ['?as_of=2026-02-30T00:00:00Z', 'ISO 8601'],
      ['?as_of=1&as_of=2', 'ISO 8601'],
    ] as const;
    for (const [query, words] of cases) {
      const answer = await balanceOf(query);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(answer.body.error.message).toContain(words);
      expect(answer.body.error.field).toBe('as_of');
    }
  });
});

describe('GET /api/v1/payments/{id}', () => {
  it('answers the payment now exactly as the list does', async () => {
    const listed = (await quern.call('GET', '/api/v1/payments', { headers: bearer(key) })).body.data[0];
    const answer = await paymentOf(orderId);
    expect(answer.status).toBe(200);
    expect({ ...answer.body, livemode: undefined }).toEqual({ ...listed, livemode: undefined });
    expect(answer.body).toMatchObject({
      status: 'partially_refunded',
      amount: '300000',
      amount_refunded: '100000',
      shopper_username: shopper.name,
    });
    expect(answer.body).toEqual(paymentAt.afterRefund);
  });

  it('answers the payment as of before its refund and after it, by cursor and by time, as it was answered then', async () => {
    const [, , day2, day3, day4] = moments;
    for (const asOf of [day2?.cursor, day2?.time]) {
      const before = await paymentOf(orderId, `?as_of=${encodeURIComponent(asOf ?? '')}`);
      expect([before.status, before.body]).toEqual([200, paymentAt.beforeRefund]);
      expect(before.body).toMatchObject({ status: 'paid', amount_refunded: '0', refunds: [] });
    }
    for (const asOf of [day3?.cursor, day3?.time, day4?.time]) {
      const after = await paymentOf(orderId, `?as_of=${encodeURIComponent(asOf ?? '')}`);
      expect([after.status, after.body]).toEqual([200, paymentAt.afterRefund]);
    }
  });

  it('answers 404 before the payment was made, for another merchant and for an unknown id, all alike', async () => {
    const [, day1] = moments;
    const answers = [
      await paymentOf(orderId, `?as_of=${day1?.cursor}`),
      await paymentOf(orderId, `?as_of=${encodeURIComponent(day1?.time ?? '')}`),
      await paymentOf(orderId, '', otherKey),
      await paymentOf(orderId, `?as_of=${moments[4]?.cursor}`, otherKey),
      await paymentOf(`${'0'.repeat(32)}-1`),
      await paymentOf(`${'0'.repeat(32)}-1`, '?as_of=0'),
      await paymentOf('not-an-order'),
    ];
    for (const answer of answers) expect([answer.status, answer.body.error.message]).toEqual([404, 'There is no such payment.']);
  });

  it('refuses a malformed or future as_of with 400 before looking the payment up', async () => {
    expect((await paymentOf(orderId, '?as_of=soon')).status).toBe(400);
    expect((await paymentOf(orderId, `?as_of=${encodeURIComponent(new Date(Date.now() + 10 * DAY_MS).toISOString())}`)).status).toBe(400);
  });
});

describe('tRPC payments.balanceAsOf', () => {
  const ask = (day: string, cookie = merchant.cookie) =>
    quern.call('GET', `/trpc/payments.balanceAsOf?input=${encodeURIComponent(JSON.stringify({ day }))}`, { cookie });

  it('answers the balance at the end of each day of the history, and today so far', async () => {
    for (const moment of moments.slice(1)) {
      const answer = await ask(moment.time.slice(0, 10));
      expect([moment.label, answer.status, answer.body.result.data.balance]).toEqual([moment.label, 200, moment.balance]);
    }
    const before = await ask('2001-01-01');
    expect(before.body.result.data).toEqual({
      day: '2001-01-01',
      as_of: '2001-01-01T23:59:59.999Z',
      balance: { stable: '0', unstable: '0' },
    });
  });

  it('refuses a day after today and a day that does not exist, and answers 401 without a session', async () => {
    const tomorrow = new Date(ledgerClock.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    for (const day of [tomorrow, '2026-02-30', '2026-3-1']) expect((await ask(day)).status).toBe(400);
    expect((await ask('2026-01-01', '')).status).toBe(401);
  });
});

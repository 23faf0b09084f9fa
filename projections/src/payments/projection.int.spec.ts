// Proves the payments read model on a real Redis: payments list newest first by log position with their refunds, status and usernames; a walk by cursor sees neither duplicates nor gaps while payments arrive; a cursor of another merchant is refused; the by-time reads honour their inclusive range and resume after their last row; malformed events are refused; and a rebuild from the log gives the same keys and values.
import { AppError } from '@quern/core';
import { checkoutStream } from '@quern/core/checkout';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProjectionApplyError } from '../commit.js';
import { rebuildProjections } from '../rebuild.js';
import { startProjections } from '../runner.js';
import { type CommittedLog, openCommittedLog } from '../../test/committed-log.js';
import { dumpKeys } from '../../test/redis-dump.js';
import { captureLog, openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { openTempStore } from '../../test/store.js';
import { userRegistered } from '../../test/events.js';
import { usersProjection } from '../users/projection.js';
import { merchantPaymentsProjection } from './projection.js';
import { listMerchantPayments, readMerchantPaymentsByTime } from './queries.js';

let redis: PrivateRedis;
let log: CommittedLog;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
  log = openCommittedLog(redis.redis, [usersProjection, merchantPaymentsProjection]);
});
afterEach(() => {
  log.close();
});

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const intent = (n: number) => n.toString(16).padStart(32, '0');
const orderOf = (n: number) => `${intent(n)}-1`;
const refundIdOf = (n: number) => `re_${n.toString(16).padStart(32, '0')}`;

const paid = (n: number, { merchant = 'm1', ms = T0 + n * 1_000, mlx = '800000', rate = '0.0000125' as string | null } = {}) => ({
  orderId: orderOf(n),
  shopperUserId: 'shopper-1',
  merchantUserId: merchant,
  mlx,
  cartDigest: 'a'.repeat(64),
  ...(rate === null ? {} : { usdPerMlx: rate }),
  transferId: `checkout-${intent(n)}-1`,
  paidAt: at(ms),
});
const refunded = (n: number, r: number, mlx: string, ms = T0 + 100_000 + r) => ({
  refundId: refundIdOf(r),
  orderId: orderOf(n),
  merchantUserId: 'm1',
  shopperUserId: 'shopper-1',
  mlx,
  transferId: `refund-${refundIdOf(r)}`,
  refundedAt: at(ms),
});

const ids = (list: { data: { id: string }[] }) => list.data.map((p) => p.id);

describe('payments read model', () => {
  it('given payments and refunds, when listed, then newest first with status, refunded total, refunds oldest first, USD value and username', async () => {
    await log.apply('UserRegistered', userRegistered(7, 'shopper-1').data);
    await log.apply('CheckoutPaid', paid(1));
    await log.apply('CheckoutPaid', paid(2, { rate: null, mlx: '500' }));
    await log.apply('CheckoutPaid', paid(3, { merchant: 'm2' }));
    await log.apply('CheckoutRefunded', refunded(1, 2, '300000'));
    await log.apply('CheckoutRefunded', refunded(1, 1, '100000'));
    await log.apply('CheckoutRefunded', refunded(2, 3, '500'));

    const list = await listMerchantPayments(redis.redis, 'm1', { limit: 10 });
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.data).toEqual([
      {
        id: orderOf(2),
        object: 'payment',
        status: 'refunded',
        amount: '500',
        amount_refunded: '500',
        currency: 'MLX',
        usd_rate: null,
        usd_value: null,
        shopper_username: 'User_7',
        created_at: at(T0 + 2_000),
        refunds: [{ id: refundIdOf(3), amount: '500', created_at: at(T0 + 100_003) }],
      },
      {
        id: orderOf(1),
        object: 'payment',
        status: 'partially_refunded',
        amount: '800000',
        amount_refunded: '400000',
        currency: 'MLX',
        usd_rate: '0.0000125',
        usd_value: '10.00',
        shopper_username: 'User_7',
        created_at: at(T0 + 1_000),
        // In log order, whatever the ids: the refund of id 2 was recorded first.
        refunds: [
          { id: refundIdOf(2), amount: '300000', created_at: at(T0 + 100_002) },
          { id: refundIdOf(1), amount: '100000', created_at: at(T0 + 100_001) },
        ],
      },
    ]);
    expect(ids(await listMerchantPayments(redis.redis, 'm2', { limit: 10 }))).toEqual([orderOf(3)]);
    expect((await listMerchantPayments(redis.redis, 'nobody', { limit: 10 })).data).toEqual([]);
  });

  it('given a refund event replayed, when applied again, then the refunded total does not change', async () => {
    await log.apply('CheckoutPaid', paid(1));
    await log.apply('CheckoutRefunded', refunded(1, 1, '100000'));
    await log.apply('CheckoutRefunded', refunded(1, 1, '100000'));
    const [payment] = (await listMerchantPayments(redis.redis, 'm1', { limit: 1 })).data;
    expect(payment).toMatchObject({ amount_refunded: '100000', status: 'partially_refunded', shopper_username: null });
  });

  it('given a walk by cursor, when payments arrive between pages, then it sees every older payment once, in order, and none twice', async () => {
    for (let n = 1; n <= 25; n++) await log.apply('CheckoutPaid', paid(n));
    const seen: string[] = [];
    let cursor: string | null = null;
    let arriving = 100;
    do {
      const page = await listMerchantPayments(redis.redis, 'm1', { limit: 7, startingAfter: cursor });
      seen.push(...ids(page));
      cursor = page.next_cursor;
      expect(page.has_more).toBe(cursor !== null);
      // New payments (even with an older paid time) land in front of the cursor, never behind it.
      for (let k = 0; k < 3; k++) await log.apply('CheckoutPaid', paid(arriving++, { ms: T0 }));
    } while (cursor !== null);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => orderOf(25 - i)));
    const fresh = await listMerchantPayments(redis.redis, 'm1', { limit: 3 });
    expect(ids(fresh)).toEqual([orderOf(arriving - 1), orderOf(arriving - 2), orderOf(arriving - 3)]);
  });

  it("given a cursor that is not one of the merchant's payments, when listed, then it is refused naming starting_after", async () => {
    await log.apply('CheckoutPaid', paid(1, { merchant: 'm2' }));
    const refusal = listMerchantPayments(redis.redis, 'm1', { limit: 5, startingAfter: orderOf(1) });
    await expect(refusal).rejects.toBeInstanceOf(AppError);
    await expect(refusal).rejects.toMatchObject({ code: 'VALIDATION', fields: { starting_after: 'errors:paymentsUnknownCursor' } });
    await expect(listMerchantPayments(redis.redis, 'm1', { limit: 0 })).rejects.toThrow(RangeError);
    await expect(listMerchantPayments(redis.redis, 'm1', { limit: 101 })).rejects.toThrow(RangeError);
  });

  it('given payments over time, when read by time, then the range is inclusive at both ends, in created order, and pages resume after their last row', async () => {
    // Two payments share a millisecond: both come, ordered by order id, and neither is lost at a page edge.
    for (const n of [5, 1, 2, 3, 4]) await log.apply('CheckoutPaid', paid(n, { ms: n === 5 ? T0 + 2_000 : T0 + n * 1_000 }));
    const range = { fromMs: T0 + 2_000, toMs: T0 + 4_000 };
    const first = await readMerchantPaymentsByTime(redis.redis, 'm1', { ...range, limit: 2 });
    expect(first.payments.map((p) => p.id)).toEqual([orderOf(2), orderOf(5)]);
    const second = await readMerchantPaymentsByTime(redis.redis, 'm1', { ...range, after: first.last, limit: 2 });
    expect(second.payments.map((p) => p.id)).toEqual([orderOf(3), orderOf(4)]);
    const third = await readMerchantPaymentsByTime(redis.redis, 'm1', { ...range, after: second.last, limit: 2 });
    expect(third).toEqual({ payments: [], last: undefined });
    await expect(readMerchantPaymentsByTime(redis.redis, 'm1', { ...range, limit: 1_001 })).rejects.toThrow(RangeError);
  });

  it('given a malformed checkout or refund event, when committed, then it is refused (retried, never skipped) and writes nothing', async () => {
    await expect(log.commit(log.event('CheckoutPaid', { orderId: 'bad' }))).rejects.toThrow(ProjectionApplyError);
    await expect(log.commit(log.event('CheckoutRefunded', { ...refunded(1, 1, '0') }))).rejects.toThrow(ProjectionApplyError);
    expect(await dumpKeys(redis.redis, 'rm:*payment*')).toEqual({});
    expect(await log.checkpoint()).toBeNull();
  });

  it('given a log of payments and refunds projected live, when rebuilt from position 0, then every key and value is the same', async () => {
    log.close();
    const temp = openTempStore();
    try {
      await temp.store.append('user-shopper-1', [userRegistered(1, 'shopper-1')], 'no_stream');
      for (let n = 1; n <= 30; n++) {
        const events = [{ type: 'CheckoutPaid', data: paid(n, { merchant: n % 3 === 0 ? 'm2' : 'm1' }) }];
        if (n % 4 === 0) events.push({ type: 'CheckoutRefunded', data: refunded(n, n, '1000') } as never);
        await temp.store.append(checkoutStream(intent(n)), events, 'no_stream');
      }
      const projections = [usersProjection, merchantPaymentsProjection];
      const runner = startProjections({ store: temp.store, redis: redis.redis, projections, logger: captureLog().logger });
      const last = (await temp.store.readAll({ after: 0n, maxCount: 1_000 })).at(-1);
      await expect(runner.waitForPosition(last?.position ?? 0n, 20_000)).resolves.toBe(true);
      await runner.close();
      const live = await dumpKeys(redis.redis, 'rm:*');
      expect(Object.keys(live).filter((k) => k.startsWith('rm:payment:'))).toHaveLength(30);

      await rebuildProjections({ store: temp.store, redis: redis.redis, projections, pageSize: 7 });

      expect(await dumpKeys(redis.redis, 'rm:*')).toEqual(live);
      expect((await listMerchantPayments(redis.redis, 'm1', { limit: 100 })).data).toHaveLength(20);
    } finally {
      await temp.dispose();
    }
  });
});

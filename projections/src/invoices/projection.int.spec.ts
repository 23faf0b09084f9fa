// Proves the invoices read model's by-time index on a real Redis: an InvoiceCreated adds the invoice under its own creation time, reads by time honour their inclusive range in created order (ties by id) and resume strictly after their last row, another merchant's are apart, a status change leaves the index alone, and a rebuild from the log gives the same keys and values.
import { invoiceStream } from '@quern/core/invoices';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../rebuild.js';
import { startProjections } from '../runner.js';
import { type CommittedLog, openCommittedLog } from '../../test/committed-log.js';
import { dumpKeys } from '../../test/redis-dump.js';
import { captureLog, openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { openTempStore } from '../../test/store.js';
import { merchantInvoicesByTimeKey } from './keys.js';
import { invoicesProjection } from './projection.js';
import { listMerchantInvoiceIds, listMerchantInvoiceIdsByTime } from './queries.js';

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
  log = openCommittedLog(redis.redis, [invoicesProjection]);
});
afterEach(() => {
  log.close();
});

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const idOf = (n: number) => `in_${n.toString(16).padStart(32, '0')}`;

const created = (n: number, { merchant = 'm1', ms = T0 + n * 1_000 } = {}) => ({
  invoiceId: idOf(n),
  merchantUserId: merchant,
  address: `addr${n}`,
  amountMlx: '1000',
  currency: 'MLX' as const,
  metadata: {},
  expiresAt: at(ms + 900_000),
  createdAt: at(ms),
});
const voided = (n: number, merchant = 'm1') => ({
  invoiceId: idOf(n),
  voidedAt: at(T0 + 50_000),
  merchantUserId: merchant,
  status: 'void' as const,
  previousStatus: 'open' as const,
});

describe('invoices read model, by time', () => {
  it('given invoices over time, when read by time, then the range is inclusive at both ends, in created order, and pages resume after their last row', async () => {
    // Created out of time order, and two in one millisecond: both come, ordered by id, and neither is lost at a page edge.
    for (const n of [5, 1, 2, 3, 4]) await log.apply('InvoiceCreated', created(n, { ms: n === 5 ? T0 + 2_000 : T0 + n * 1_000 }));
    await log.apply('InvoiceCreated', created(6, { merchant: 'm2', ms: T0 + 3_000 }));
    await log.apply('InvoiceVoided', voided(3));
    const range = { fromMs: T0 + 2_000, toMs: T0 + 4_000 };
    const first = await listMerchantInvoiceIdsByTime(redis.redis, 'm1', { ...range, limit: 2 });
    expect(first.ids).toEqual([idOf(2), idOf(5)]);
    const second = await listMerchantInvoiceIdsByTime(redis.redis, 'm1', { ...range, after: first.last, limit: 2 });
    expect(second.ids).toEqual([idOf(3), idOf(4)]);
    const third = await listMerchantInvoiceIdsByTime(redis.redis, 'm1', { ...range, after: second.last, limit: 2 });
    expect(third).toEqual({ ids: [], last: undefined });
    expect((await listMerchantInvoiceIdsByTime(redis.redis, 'm2', { fromMs: 0, toMs: T0 * 2, limit: 10 })).ids).toEqual([idOf(6)]);
    expect(await redis.redis.zcard(merchantInvoicesByTimeKey('m1'))).toBe(5);
    await expect(listMerchantInvoiceIdsByTime(redis.redis, 'm1', { ...range, limit: 1_001 })).rejects.toThrow(RangeError);
    await expect(listMerchantInvoiceIdsByTime(redis.redis, 'm1', { fromMs: 0.5, toMs: 1, limit: 1 })).rejects.toThrow(RangeError);
  });

  it('given a log of invoices projected live, when rebuilt from position 0, then every key and value is the same', async () => {
    log.close();
    const temp = openTempStore();
    try {
      for (let n = 1; n <= 30; n++) {
        const merchant = n % 3 === 0 ? 'm2' : 'm1';
        // Creation times out of log order, so the by-time index is not the position order.
        const events = [{ type: 'InvoiceCreated', data: created(n, { merchant, ms: T0 + ((n * 7) % 30) * 1_000 }) } as never];
        if (n % 4 === 0) events.push({ type: 'InvoiceVoided', data: voided(n, merchant) } as never);
        await temp.store.append(invoiceStream(idOf(n)), events, 'no_stream');
      }
      const projections = [invoicesProjection];
      const runner = startProjections({ store: temp.store, redis: redis.redis, projections, logger: captureLog().logger });
      const last = (await temp.store.readAll({ after: 0n, maxCount: 1_000 })).at(-1);
      await expect(runner.waitForPosition(last?.position ?? 0n, 20_000)).resolves.toBe(true);
      await runner.close();
      const live = await dumpKeys(redis.redis, 'rm:*');
      expect(Object.keys(live)).toContain(merchantInvoicesByTimeKey('m1'));

      await rebuildProjections({ store: temp.store, redis: redis.redis, projections, pageSize: 7 });

      expect(await dumpKeys(redis.redis, 'rm:*')).toEqual(live);
      const byTime = await listMerchantInvoiceIdsByTime(redis.redis, 'm1', { fromMs: 0, toMs: T0 * 2, limit: 100 });
      expect(byTime.ids).toHaveLength(20);
      const times = byTime.ids.map((id) => (Number.parseInt(id.slice(3), 16) * 7) % 30);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect((await listMerchantInvoiceIds(redis.redis, 'm1', { limit: 100, status: 'void' })).ids).toHaveLength(5);
    } finally {
      await temp.dispose();
    }
  });
});

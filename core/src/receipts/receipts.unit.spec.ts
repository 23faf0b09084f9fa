// Proves the receipts' pure parts (ADR 091): which history rows have a receipt, the rate in force
// at a log position read from the exchange-rate stream a page at a time (strictly before the
// position, ascending only), and the rows a receipt shows in English and Spanish.
import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../shared/ports/event-store.js';
import { EXCHANGE_RATE_STREAM } from '../wallet/rate.js';
import { type Receipt, receiptKindOf } from './contracts.js';
import { createRateWalk } from './rate-walk.js';
import { receiptRows } from './rows.js';

const rateEvent = (revision: number, position: number, usdPerMlx: string): RecordedEvent => ({
  id: `rate-${revision}`,
  streamId: EXCHANGE_RATE_STREAM,
  revision: BigInt(revision),
  position: BigInt(position),
  type: 'ExchangeRateSet',
  data: { usdPerMlx, source: 'provider', setAt: '2026-01-01T00:00:00.000Z' },
  metadata: {},
  recordedAt: '2026-01-01T00:00:00.000Z',
});

/** A stream of rates at positions 10, 20, 30 ...; counts its reads. */
function rateStream(count: number) {
  const events = Array.from({ length: count }, (_, i) => rateEvent(i, (i + 1) * 10, `0.0000${i + 10}`));
  let reads = 0;
  return {
    reads: () => reads,
    store: {
      async readStream(_stream: string, options: { fromRevision?: bigint; maxCount?: number } = {}) {
        reads += 1;
        const from = Number(options.fromRevision ?? 0n);
        return events.slice(from, from + (options.maxCount ?? events.length));
      },
    },
  };
}

describe('receiptKindOf', () => {
  it('names the four kinds with a receipt and nothing else', () => {
    expect(receiptKindOf({ transaction_type: 'debit', purpose: { kind: 'checkout' } })).toBe('checkout_payment');
    expect(receiptKindOf({ transaction_type: 'credit', purpose: { kind: 'purchase' } })).toBe('purchase');
    expect(receiptKindOf({ transaction_type: 'debit', purpose: { kind: 'invoice_payment' } })).toBe('invoice_payment');
    expect(receiptKindOf({ transaction_type: 'debit', purpose: { kind: 'subscription_charge' } })).toBe('subscription_charge');
    for (const row of [
      { transaction_type: 'credit', purpose: { kind: 'checkout' } },
      { transaction_type: 'debit' },
      { transaction_type: 'credit' },
      { transaction_type: 'credit', purpose: { kind: 'checkout_refund' } },
      { transaction_type: 'debit', purpose: { kind: 'payout' } },
      { transaction_type: 'debit', purpose: { kind: 'purchase_refund' } },
    ])
      expect(receiptKindOf(row), JSON.stringify(row)).toBeUndefined();
  });
});

describe('the rate walk', () => {
  it('answers the last rate recorded strictly before each position, reading a page at a time', async () => {
    const stream = rateStream(7);
    const walk = createRateWalk(stream.store, 3);
    expect(await walk.at(5n)).toBeUndefined();
    expect(await walk.at(10n)).toBeUndefined();
    expect(await walk.at(11n)).toBe('0.00001');
    expect(await walk.at(35n)).toBe('0.000012');
    expect(await walk.at(1_000n)).toBe('0.000016');
    // Pages of 3 over 7 events: 3 reads, the last one short.
    expect(stream.reads()).toBe(3);
    await expect(walk.at(20n)).rejects.toThrow(/after/);
  });

  it('given no rate ever set, then undefined', async () => {
    expect(await createRateWalk(rateStream(0).store).at(100n)).toBeUndefined();
  });
});

const receipt: Receipt = {
  id: 'checkout-abc-1',
  kind: 'checkout_payment',
  date: '2026-03-01T10:05:00.000Z',
  payer: 'ada',
  merchant: 'tea_shop',
  reference: 'ORD-77',
  order_id: 'abc-1',
  period: null,
  amount_mlx: '1234567',
  fee_mlx: '0',
  total_mlx: '1234567',
  usd_per_mlx: '0.00002',
  usd_value: '24.69',
  usd_paid: null,
  provider_transaction_id: null,
};

/** Keys and their params, as a test's stand-in for the i18n resources. */
const echo = (key: string, params: Record<string, string> = {}) =>
  Object.keys(params).length === 0 ? key : `${key}(${Object.values(params).join('|')})`;

describe('receiptRows', () => {
  it('lists the checkout payment’s rows in order, with amounts, rate and value in the language’s format', () => {
    expect(receiptRows(receipt, 'en', echo).map((row) => [row.key, row.value])).toEqual([
      ['date', 'dateValue(1 March 2026 at 10:05 am)'],
      ['payer', 'ada'],
      ['merchant', 'tea_shop'],
      ['reference', 'ORD-77'],
      ['orderId', 'abc-1'],
      ['amount', 'amountValue(1,234,567)'],
      ['fee', 'amountValue(0)'],
      ['total', 'amountValue(1,234,567)'],
      ['rate', 'rateValue(0.00002)'],
      ['usdValue', 'usdAmount(24.69)'],
      ['transactionId', 'checkout-abc-1'],
    ]);
    const es = receiptRows(receipt, 'es', echo);
    expect(es.find((row) => row.key === 'rate')?.value).toBe('rateValue(0,00002)');
    expect(es.find((row) => row.key === 'amount')?.value).toBe('amountValue(1.234.567)');
    expect(es.find((row) => row.key === 'usdValue')?.value).toBe('usdAmount(24,69)');
  });

  it('gives a purchase its buyer, seller, USD paid and PayPal transaction, and a rate-less payment says so', () => {
    const purchase = receiptRows(
      { ...receipt, kind: 'purchase', usd_paid: '10.00', provider_transaction_id: 'CAP-1', merchant: 'Quern' },
      'en',
      echo,
    ).map((row) => row.key);
    expect(purchase).toEqual([
      'date',
      'buyer',
      'seller',
      'reference',
      'orderId',
      'received',
      'usdPaid',
      'rate',
      'usdValue',
      'providerTransaction',
      'transactionId',
    ]);
    const noRate = receiptRows({ ...receipt, usd_per_mlx: null, usd_value: null }, 'en', echo);
    expect(noRate.find((row) => row.key === 'rate')?.value).toBe('noRate');
    expect(noRate.some((row) => row.key === 'usdValue')).toBe(false);
  });
});

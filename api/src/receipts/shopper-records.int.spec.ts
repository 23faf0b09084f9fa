// Proves a shopper's records (issue 28, ADR 091) over a scripted history: funding, a rate change,
// a checkout payment, a PayPal purchase, a subscription charge and an invoice paid from the
// balance, interleaved with another user's payments. The CSV has one row per transaction of the
// range with its signed amount, fee, balance after (each following from the one before) and USD
// value at the rate in force then; instant bounds are inclusive; another user's rows never appear;
// a malformed or reversed range is a 400 with a message. Each receipt answers the merchant,
// reference, amount and rate, its PDF (English and Spanish) says the same when read back with
// pdfjs-dist, another user's receipt or a transaction without one is the same 404, and the
// receipt e-mails link to the receipt's page.
import { createKeyedSerializer, type EventStore } from '@quern/core';
import { creditPurchase, orderPurchase, recordCaptureResult, requestCapture } from '@quern/core/purchases';
import { EXCHANGE_RATE_STREAM, SYSTEM_WALLET_IDS, sendMlx, settleInternalTransfer, WalletStateCache } from '@quern/core/wallet';
import { pdfText as pdfBytesText } from '@quern/test-support/pdf-text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletDepsFor } from '../../test/ledger.js';
import { outboxMails } from '../../test/outbox.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';
import { HISTORY_CSV_HEADER } from '../history-export/csv.js';

const DAY_MS = 86_400_000;
/** The ledger's clock runs this far from the real one, so the history spans days. */
let offsetMs = -10 * DAY_MS;
const clock = { now: () => new Date(Date.now() + offsetMs) };

let quern: TestQuern;
let shopper: TestUser;
let stranger: TestUser;
let shop: TestUser;
let checkoutOrder: string;
let invoiceId: string;

const json = { 'sec-fetch-site': 'same-origin' };

async function fund(store: EventStore, address: string, amountMlx: bigint): Promise<void> {
  const deps = { ...walletDepsFor(store), clock };
  const sent = await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address }, amount: amountMlx, fee: 1000n });
  await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.reserve, sent.transferId);
}

async function setRate(store: EventStore, usdPerMlx: string): Promise<void> {
  const records = await store.readStream(EXCHANGE_RATE_STREAM);
  const last = records[records.length - 1];
  const event = { type: 'ExchangeRateSet', data: { usdPerMlx, source: 'provider', setAt: clock.now().toISOString() } };
  await store.append(EXCHANGE_RATE_STREAM, [event], last ? last.revision : 'no_stream');
}

async function checkout(user: TestUser, price: string, reference: string): Promise<string> {
  const body = { cart: [{ name: 'Green tea', price, quantity: 1 }], price, currency: 'MLX', to: shop.name, reference };
  const answer = await quern.call('POST', '/api/quern/checkout', { cookie: user.cookie, body });
  expect([answer.status, answer.body.success]).toEqual([200, true]);
  return answer.body.order as string;
}

type Row = { transaction_hash: string; purpose?: { kind: string }; balance: string };
const historyOf = async (user: TestUser): Promise<Row[]> =>
  (await quern.call('GET', '/api/quern/transactions', { cookie: user.cookie })).body.transactions as Row[];
const rowCount = (user: TestUser, count: number) =>
  eventually(async () => ((await historyOf(user)).length === count ? true : undefined), 20_000);

beforeAll(async () => {
  quern = await startTestQuern(
    {
      REGISTRATIONS_PER_IP_HOUR: '1000',
      API_KEY_REQUESTS_PER_MINUTE: '1000',
      EXCHANGE_RATE_USD_PER_MLX: '0.000012',
      PURCHASE_HOLD_HOURS: '0',
    },
    { ledgerClock: clock },
  );
  shopper = await registerUser(quern, 'rcpt_shopper');
  stranger = await registerUser(quern, 'rcpt_stranger');
  shop = await registerUser(quern, 'rcpt_shop');
  const key = await generateApiKey(quern, shop);

  await fund(quern.store, shopper.address, 1_000_000n);
  offsetMs = -9 * DAY_MS;
  await fund(quern.store, stranger.address, 500_000n);
  await rowCount(shopper, 1);
  await setRate(quern.store, '0.00002');

  offsetMs = -8 * DAY_MS;
  checkoutOrder = await checkout(shopper, '120000', 'ORD-77');
  offsetMs = -7 * DAY_MS;
  await checkout(stranger, '90000', 'ORD-STRANGER');

  offsetMs = -6 * DAY_MS;
  // The purchase handlers as the PayPal routes and webhooks call them (ADR 025): 10 USD at 0.00002.
  const deps = { ...walletDepsFor(quern.store), clock, serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
  await orderPurchase(deps, { buyerUserId: shopper.id, usdCents: 1000n, orderId: 'ORDER-R1' });
  await requestCapture(deps, { orderId: 'ORDER-R1', requestId: 'approval-R1', buyerUserId: shopper.id });
  await recordCaptureResult(deps, { orderId: 'ORDER-R1', result: { status: 'completed', captureId: 'CAPTURE-R1', usdCents: 1000n } });
  await creditPurchase(deps, { orderId: 'ORDER-R1', buyerUserId: shopper.id });
  await rowCount(shopper, 3);

  offsetMs = 0;
  const plan = { name: 'Tea club', description: 'A tin a month', price: 30_000, currency: 'mlx', duration: 'monthly' };
  const planId = (await quern.call('POST', '/api/subscription-plans/create', { cookie: shop.cookie, body: plan })).body.id as string;
  const subscribed = await quern.call('POST', '/api/subscriptions/create', {
    cookie: shopper.cookie,
    body: { subscription_plan_id: planId },
  });
  expect(subscribed.status).toBe(200);
  await rowCount(shopper, 4);

  const invoice = await quern.call('POST', '/api/v1/invoices', {
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'rcpt-invoice-1' },
    body: { amount: '50000', currency: 'MLX', reference: 'INV-9' },
  });
  expect(invoice.status).toBe(201);
  invoiceId = invoice.body.id as string;
  const paid = await quern.call('POST', '/trpc/invoices.pay', { cookie: shopper.cookie, body: { id: invoiceId }, headers: json });
  expect(paid.status).toBe(200);
  await rowCount(shopper, 5);
}, 120_000);
afterAll(async () => {
  await quern?.stop();
});

/** RFC 4180 as the exporter writes it (CRLF, quotes doubled). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

type CsvRow = Record<(typeof HISTORY_CSV_HEADER)[number], string>;

async function exportCsv(user: TestUser | undefined, query: string): Promise<{ status: number; text: string; type: string | null }> {
  const answer = await fetch(`${quern.url}/api/quern/history/export${query}`, { headers: user ? { cookie: user.cookie } : {} });
  return { status: answer.status, text: await answer.text(), type: answer.headers.get('content-type') };
}

async function csvRows(user: TestUser, query: string): Promise<CsvRow[]> {
  const answer = await exportCsv(user, query);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.type).toBe('text/csv; charset=utf-8');
  const [header, ...rows] = parseCsv(answer.text);
  expect(header).toEqual([...HISTORY_CSV_HEADER]);
  return rows.map((cells) => Object.fromEntries(HISTORY_CSV_HEADER.map((name, i) => [name, cells[i] ?? ''])) as CsvRow);
}

const WIDE = '?from=2020-01-01&to=2100-12-31';

describe('the shopper history CSV', () => {
  it('given the scripted history, then one row per transaction, oldest first, each balance following from the one before and valued at the rate in force then', async () => {
    const rows = await csvRows(shopper, WIDE);
    expect(rows.map((row) => row.kind)).toEqual(['received', 'checkout_payment', 'purchase', 'subscription_charge', 'invoice_payment']);
    expect(rows.map((row) => [row.amount, row.fee])).toEqual([
      ['1000000', '0'],
      ['-120000', '0'],
      ['500000', '0'],
      ['-30000', '0'],
      ['-50000', '0'],
    ]);
    let balance = 0n;
    for (const row of rows) {
      balance += BigInt(row.amount) - BigInt(row.fee);
      expect(row.balance_after, row.kind).toBe(balance.toString());
    }
    // The last balance is the wallet's, and each row's is the history's own.
    const history = await historyOf(shopper);
    expect(rows.at(-1)?.balance_after).toBe(history[0]?.balance);
    expect(rows.map((row) => row.transaction).sort()).toEqual(history.map((row) => row.transaction_hash).sort());
    // Funded at 0.000012, then the rate changed to 0.00002 before everything else.
    expect(rows.map((row) => [row.usd_rate, row.usd_value])).toEqual([
      ['0.000012', '12.00'],
      ['0.00002', '-2.40'],
      ['0.00002', '10.00'],
      ['0.00002', '-0.60'],
      ['0.00002', '-1.00'],
    ]);
    expect(rows.map((row) => row.counterparty)).toEqual([expect.any(String), shop.name, expect.any(String), shop.name, shop.name]);
    // Times are the transactions' own, ascending.
    const times = rows.map((row) => Date.parse(row.time));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('given instant bounds, then exactly the rows from the first to the last instant, both included', async () => {
    const all = await csvRows(shopper, WIDE);
    const from = all[1]?.time as string;
    const to = all[2]?.time as string;
    const rows = await csvRows(shopper, `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(rows.map((row) => row.kind)).toEqual(['checkout_payment', 'purchase']);
    const justAfter = new Date(Date.parse(from) + 1).toISOString();
    expect((await csvRows(shopper, `?from=${encodeURIComponent(justAfter)}&to=${encodeURIComponent(to)}`)).map((r) => r.kind)).toEqual([
      'purchase',
    ]);
    // Day bounds: the funding's day alone holds the funding alone.
    const day = (all[0]?.time ?? '').slice(0, 10);
    expect((await csvRows(shopper, `?from=${day}&to=${day}`)).map((row) => row.kind)).toEqual(['received']);
    // A range before the history: the header alone.
    expect(await csvRows(shopper, '?from=2020-01-01&to=2020-12-31')).toEqual([]);
  });

  it('given another user in the same days, then neither export holds the other’s rows', async () => {
    const mine = (await csvRows(shopper, WIDE)).map((row) => row.transaction);
    const theirs = await csvRows(stranger, WIDE);
    expect(theirs.map((row) => row.kind)).toEqual(['received', 'checkout_payment']);
    expect(theirs.map((row) => row.transaction).filter((id) => mine.includes(id))).toEqual([]);
  });

  it('given a malformed, reversed or unknown range, or no session, then a 4xx with a message and no file', async () => {
    for (const query of [
      '?from=2026-02-30&to=2026-03-01',
      '?from=2026-03-01&to=2026-02-01',
      '?from=2026-03-01',
      '?from=x&to=y',
      `${WIDE}&wallet=${stranger.id}`,
    ]) {
      const answer = await exportCsv(shopper, query);
      expect(answer.status, query).toBe(400);
      expect(answer.type, query).toMatch(/json/);
      expect(JSON.parse(answer.text).message, query).toMatch(/\S/);
    }
    expect(JSON.parse((await exportCsv(shopper, '?from=2026-03-01&to=2026-02-01')).text).message).toBe(
      'The end of the range must not be before its start.',
    );
    expect((await exportCsv(undefined, WIDE)).status).toBe(401);
  });
});

type Receipt = Record<string, unknown> & { id: string; kind: string };

const receiptCall = (user: TestUser, id: string) =>
  quern.call('GET', `/trpc/receipts.byId?input=${encodeURIComponent(JSON.stringify({ id }))}`, { cookie: user.cookie });

async function receiptOf(user: TestUser, kind: string): Promise<Receipt> {
  const rows = await historyOf(user);
  const row = rows.find((r) => (r.purpose?.kind === 'checkout' ? 'checkout_payment' : r.purpose?.kind) === kind);
  expect(row, kind).toBeDefined();
  const answer = await receiptCall(user, row?.transaction_hash as string);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result.data as Receipt;
}

async function pdfText(user: TestUser, id: string, lang: 'en' | 'es'): Promise<string> {
  const answer = await fetch(`${quern.url}/api/quern/receipts/${encodeURIComponent(id)}/pdf?lang=${lang}`, {
    headers: { cookie: user.cookie },
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/pdf');
  return pdfBytesText(new Uint8Array(await answer.arrayBuffer()));
}

describe('receipts', () => {
  it('given each kind of payment, then its receipt names the merchant, reference, amounts and the rate it was priced at', async () => {
    expect(await receiptOf(shopper, 'checkout_payment')).toMatchObject({
      kind: 'checkout_payment',
      payer: shopper.name,
      merchant: shop.name,
      reference: 'ORD-77',
      order_id: checkoutOrder,
      amount_mlx: '120000',
      fee_mlx: '0',
      total_mlx: '120000',
      usd_per_mlx: '0.00002',
      usd_value: '2.40',
      usd_paid: null,
    });
    expect(await receiptOf(shopper, 'purchase')).toMatchObject({
      kind: 'purchase',
      payer: shopper.name,
      merchant: 'Quern',
      reference: 'ORDER-R1',
      amount_mlx: '500000',
      usd_per_mlx: '0.00002',
      usd_value: '10.00',
      usd_paid: '10.00',
      provider_transaction_id: 'CAPTURE-R1',
    });
    expect(await receiptOf(shopper, 'subscription_charge')).toMatchObject({
      merchant: shop.name,
      reference: 'Tea club',
      period: 1,
      amount_mlx: '30000',
      usd_value: '0.60',
    });
    expect(await receiptOf(shopper, 'invoice_payment')).toMatchObject({
      merchant: shop.name,
      reference: 'INV-9',
      order_id: invoiceId,
      amount_mlx: '50000',
      usd_per_mlx: '0.00002',
      usd_value: '1.00',
    });
  });

  it('given a receipt, then its PDF read back in English and in Spanish holds the same merchant, reference, amount, rate and transaction', async () => {
    const receipt = await receiptOf(shopper, 'checkout_payment');
    const en = await pdfText(shopper, receipt.id, 'en');
    for (const text of ['Receipt', 'Payment to a shop', shop.name, 'ORD-77', '120,000 MLX', '1 MLX = 0.00002 USD', '2.40 USD', receipt.id])
      expect(en).toContain(text);
    const es = await pdfText(shopper, receipt.id, 'es');
    for (const text of ['Recibo', 'Pago a una tienda', shop.name, 'ORD-77', '120.000 MLX', '1 MLX = 0,00002 USD', '2,40 USD', receipt.id])
      expect(es).toContain(text);
    const purchase = await receiptOf(shopper, 'purchase');
    const bought = await pdfText(shopper, purchase.id, 'en');
    for (const text of ['Purchase of MLX', '500,000 MLX', '10.00 USD', 'CAPTURE-R1', 'ORDER-R1']) expect(bought).toContain(text);
  });

  it('given another user’s receipt, a transaction without one or an unknown id, then the same 404, as data and as PDF', async () => {
    const receipt = await receiptOf(shopper, 'checkout_payment');
    const funding = (await historyOf(shopper)).find((row) => row.purpose === undefined)?.transaction_hash as string;
    const messages = new Set<string>();
    for (const [user, id] of [
      [stranger, receipt.id],
      [shopper, funding],
      [shopper, 'no-such-transaction'],
    ] as const) {
      const data = await receiptCall(user, id);
      expect(data.status, id).toBe(404);
      messages.add(data.body.error.message);
      const pdf = await fetch(`${quern.url}/api/quern/receipts/${id}/pdf`, { headers: { cookie: user.cookie } });
      expect(pdf.status, id).toBe(404);
      messages.add(((await pdf.json()) as { message: string }).message);
    }
    expect([...messages]).toEqual(['That receipt is not in your account. Check the link, or open it from the transaction in your wallet.']);
    expect((await fetch(`${quern.url}/api/quern/receipts/${receipt.id}/pdf?lang=fr`, { headers: { cookie: shopper.cookie } })).status).toBe(
      400,
    );
    expect((await fetch(`${quern.url}/api/quern/receipts/${receipt.id}/pdf`)).status).toBe(401);
  });

  it('given the receipt e-mails, then each links to its receipt’s page', async () => {
    const mails = () => outboxMails(quern).map((raw) => raw.replace(/=\r?\n/g, ''));
    // A notice days old is not mailed (it would be stale), so the checkout's mail comes from a payment made now.
    const order = await checkout(shopper, '1000', 'ORD-MAIL');
    const paidNow = await eventually(async () =>
      (await historyOf(shopper)).find((row) => (row.purpose as { order_id?: string } | undefined)?.order_id === order),
    );
    const ids = [paidNow.transaction_hash, (await receiptOf(shopper, 'purchase')).id, (await receiptOf(shopper, 'subscription_charge')).id];
    for (const id of ids) {
      const mail = await eventually(async () => mails().find((text) => text.includes(`/receipts/${id}`)), 20_000);
      const escaped = id.replace(/[-:]/g, '\\$&');
      expect(mail, id).toMatch(new RegExp(`See or print your receipt: https?://\\S+/receipts/${escaped}\\s`));
    }
  });
});

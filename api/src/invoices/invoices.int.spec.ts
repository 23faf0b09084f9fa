// Proves invoices through the merchant API and the web app's procedures over real HTTP (issue 27,
// ADR 081): created once under 20 parallel retries of one Idempotency-Key, with their own address
// and a payment URI; a USD price fixed at creation with its rate; bad input refused with a message
// and nothing recorded; each way money reaches an invoice from a wallet outside Quern (exact,
// partial then completed, over) through the simulated millix network; void only while nothing was
// paid; the list by cursor and status; the hosted page's public view (no metadata, no address once
// it takes no payment); 'Pay with Quern' paying once on a double click; another merchant's invoice
// is 404; the audit is clean after all of it.
import { openSimulatedNetwork, type SimulatedNetwork, simulatedNetworkFile } from '@quern/adapters/millix';
import { recordConfiguredExchangeRate } from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fundFromReserve, countEventsOfType } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let network: SimulatedNetwork;
let shop: TestUser;
let other: TestUser;
let shopper: TestUser;
let keyShop: string;
let keyOther: string;
let keys = 0;

/** `idempotencyKey` null sends none; absent, a fresh one. */
const create = (body: unknown, key: string = keyShop, idempotencyKey: string | null = `inv-${++keys}`) =>
  quern.call('POST', '/api/v1/invoices', {
    body,
    headers: { authorization: `Bearer ${key}`, ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) },
  });
const get = (id: string, key: string = keyShop) =>
  quern.call('GET', `/api/v1/invoices/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
const list = (query: string, key: string = keyShop) =>
  quern.call('GET', `/api/v1/invoices${query}`, { headers: { authorization: `Bearer ${key}` } });
const voidIt = (id: string, key: string = keyShop) =>
  quern.call('POST', `/api/v1/invoices/${encodeURIComponent(id)}/void`, { headers: { authorization: `Bearer ${key}` } });
const publicView = (id: string) => quern.call('GET', `/trpc/invoices.public?input=${encodeURIComponent(JSON.stringify({ id }))}`);
const payWithQuern = (user: TestUser, id: string) =>
  quern.call('POST', '/trpc/invoices.pay', { cookie: user.cookie, body: { id }, headers: { 'sec-fetch-site': 'same-origin' } });
const statusOf = async (id: string, wanted: string) =>
  eventually(async () => {
    const answer = await get(id);
    return answer.body.status === wanted ? answer.body : undefined;
  });
const stableOf = async (user: TestUser): Promise<string> =>
  (await quern.call('GET', `/api/millix/balance/${user.address}`, { cookie: user.cookie })).body.stable as string;
const invoiceEventsOf = (type: string): Promise<number> => countEventsOfType(quern.store, type);

beforeAll(async () => {
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    API_KEY_REQUESTS_PER_MINUTE: '10000',
    DEPOSIT_POLL_INTERVAL_MS: '50',
    EXCHANGE_RATE_USD_PER_MLX: '0.0003',
  });
  network = openSimulatedNetwork({ file: simulatedNetworkFile(quern.dataDir), confirmDelayMs: 300 });
  shop = await registerUser(quern, 'inv_shop');
  other = await registerUser(quern, 'inv_other');
  shopper = await registerUser(quern, 'inv_shopper');
  keyShop = await generateApiKey(quern, shop);
  keyOther = await generateApiKey(quern, other);
});
afterAll(async () => {
  await network?.close();
  await quern?.stop();
});

describe('POST /api/v1/invoices', () => {
  it('creates an MLX invoice at its own address of the merchant wallet, with a payment URI and a hosted page', async () => {
    const answer = await create({
      amount: '25000',
      reference: 'order-1001',
      description: 'Two coffees',
      metadata: { cart: '42' },
      redirect_url: 'https://shop.example/thanks?order=1001',
    });
    expect(answer.status).toBe(201);
    const invoice = answer.body;
    expect(invoice).toMatchObject({
      id: expect.stringMatching(/^in_[0-9a-f]{32}$/),
      object: 'invoice',
      status: 'open',
      amount_mlx: '25000',
      amount_paid_mlx: '0',
      amount_due_mlx: '25000',
      currency: 'MLX',
      amount_usd: null,
      usd_rate: null,
      reference: 'order-1001',
      description: 'Two coffees',
      metadata: { cart: '42' },
      redirect_url: 'https://shop.example/thanks?order=1001',
      payments: [],
      paid_at: null,
      livemode: false,
    });
    expect(invoice.address).not.toBe(shop.address);
    // The same wallet's key identifier: a millix address is a base plus the wallet's key identifier.
    expect(invoice.address.slice(-20)).toBe(shop.address.slice(-20));
    expect(invoice.payment_uri).toBe(`millix:${invoice.address}?amount=25000&label=order-1001&message=Two%20coffees`);
    // PUBLIC_URL is unset in tests: the origin is the configured default, the path is the page's.
    expect(invoice.hosted_url.endsWith(`/i/${invoice.id}`)).toBe(true);
    expect(Date.parse(invoice.expires_at) - Date.parse(invoice.created_at)).toBe(900_000);
    expect((await get(invoice.id)).body).toEqual(invoice);
  });

  it('given 20 parallel retries with one Idempotency-Key, then one invoice, answered alike; another body with the key is 422', async () => {
    const before = await invoiceEventsOf('InvoiceCreated');
    const body = { amount: '1234', expires_in_seconds: 3600 };
    const answers = await Promise.all(Array.from({ length: 20 }, () => create(body, keyShop, 'parallel-retry')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.address)).size).toBe(1);
    expect(await invoiceEventsOf('InvoiceCreated')).toBe(before + 1);
    const changed = await create({ amount: '1235', expires_in_seconds: 3600 }, keyShop, 'parallel-retry');
    expect(changed.status).toBe(422);
    const missing = await create(body, keyShop, null);
    expect(missing.status).toBe(400);
    expect(await invoiceEventsOf('InvoiceCreated')).toBe(before + 1);
  });

  it('prices a USD invoice at the rate when it is created, rounded up, and keeps it when the rate changes', async () => {
    const answer = await create({ amount: '12.50', currency: 'USD' });
    expect(answer.status).toBe(201);
    // 12.50 USD at 0.0003 USD per MLX is 41,666.67 MLX: rounded up so the merchant gets at least the price.
    expect(answer.body).toMatchObject({ currency: 'USD', amount_usd: '12.50', usd_rate: '0.0003', amount_mlx: '41667' });
    await recordConfiguredExchangeRate({ store: quern.store, clock: { now: () => new Date() } }, '0.0006');
    expect((await get(answer.body.id)).body).toMatchObject({ amount_mlx: '41667', usd_rate: '0.0003' });
    const later = await create({ amount: '12.50', currency: 'USD' });
    expect(later.body).toMatchObject({ amount_mlx: '20834', usd_rate: '0.0006' });
  });

  it('refuses bad input with a message naming the field, and records nothing', async () => {
    const before = await invoiceEventsOf('InvoiceCreated');
    const cases: Array<[unknown, string]> = [
      [{ amount: '0' }, 'amount'],
      [{ amount: '12.5', currency: 'MLX' }, 'amount'],
      [{ amount: '1.234', currency: 'USD' }, 'amount'],
      [{ amount: '10', currency: 'EUR' }, 'currency'],
      [{ amount: '10', metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
      [{ amount: '10', metadata: { nested: { a: 1 } } }, 'metadata'],
      [{ amount: '10', metadata: { note: 'line\u0000break' } }, 'metadata'],
      [{ amount: '10', expires_in_seconds: 59 }, 'expires_in_seconds'],
      [{ amount: '10', expires_in_seconds: 604_801 }, 'expires_in_seconds'],
      [{ amount: '10', redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
      [{ amount: '10', redirect_url: 'https://user:pw@shop.example/' }, 'redirect_url'],
      [{ amount: '10', reference: 'a'.repeat(65) }, 'reference'],
      [{ amount: '10', surprise: true }, 'surprise'],
    ];
    for (const [body, field] of cases) {
      const answer = await create(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body), JSON.stringify(body)).toContain(field);
      expect(answer.body.error.message, JSON.stringify(body)).toMatch(/\w/);
    }
    expect(await invoiceEventsOf('InvoiceCreated')).toBe(before);
  });
});

describe('paid from a millix wallet outside Quern', () => {
  it('given the exact amount, then open → processing → paid, and the merchant holds it', async () => {
    const invoice = (await create({ amount: '7000' })).body;
    await network.deposit(invoice.address, 7_000n);
    const paid = await statusOf(invoice.id, 'paid');
    expect(paid).toMatchObject({ amount_paid_mlx: '7000', amount_due_mlx: '0', amount_overpaid_mlx: '0', paid_late: false });
    expect(paid.payments).toEqual([expect.objectContaining({ method: 'network', amount_mlx: '7000', status: 'settled', late: false })]);
    expect(paid.paid_at).toEqual(expect.any(String));
    await eventually(async () => ((await stableOf(shop)) === '7000' ? true : undefined));
  });

  it('given part of the amount, then partially_paid with what is missing, and paid once the rest arrives', async () => {
    const invoice = (await create({ amount: '9000' })).body;
    await network.deposit(invoice.address, 4_000n);
    expect(await statusOf(invoice.id, 'partially_paid')).toMatchObject({ amount_paid_mlx: '4000', amount_due_mlx: '5000' });
    // The URI now asks for what is missing.
    expect((await get(invoice.id)).body.payment_uri).toBe(`millix:${invoice.address}?amount=5000`);
    await network.deposit(invoice.address, 5_000n);
    expect(await statusOf(invoice.id, 'paid')).toMatchObject({ amount_paid_mlx: '9000', amount_due_mlx: '0' });
  });

  it('given more than the amount, then paid with the excess as amount_overpaid_mlx', async () => {
    const invoice = (await create({ amount: '3000' })).body;
    await network.deposit(invoice.address, 3_500n);
    expect(await statusOf(invoice.id, 'paid')).toMatchObject({ amount_paid_mlx: '3500', amount_overpaid_mlx: '500' });
  });
});

describe('void', () => {
  it('voids an open invoice once; its page then shows no address; a paid invoice cannot be voided (409)', async () => {
    const invoice = (await create({ amount: '5000' })).body;
    const voided = await voidIt(invoice.id);
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'void', voided_at: expect.any(String) });
    expect((await voidIt(invoice.id)).body).toEqual(voided.body);
    const page = await publicView(invoice.id);
    expect(page.body.result.data).toMatchObject({ status: 'void', address: null, payment_uri: null, qr_svg: null });

    const paid = (await create({ amount: '2000' })).body;
    await network.deposit(paid.address, 2_000n);
    await statusOf(paid.id, 'paid');
    const refused = await voidIt(paid.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/can no longer be voided/);
  });
});

describe('GET /api/v1/invoices', () => {
  it('pages newest first by cursor, filters by status, refuses a cursor that is not an invoice of this merchant', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ amount: String(100 + i) })).body.id);
    const first = await list('?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((invoice: { id: string }) => invoice.id)).toEqual([ids[2], ids[1]]);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: ids[1] });
    const second = await list(`?limit=2&starting_after=${ids[1]}`);
    expect(second.body.data[0].id).toBe(ids[0]);
    const paidOnly = await eventually(async () => {
      const page = await list('?status=paid&limit=100');
      return page.body.data.length >= 3 ? page : undefined;
    });
    expect(paidOnly.body.data.every((invoice: { status: string }) => invoice.status === 'paid')).toBe(true);
    const voidOnly = await eventually(async () => {
      const page = await list('?status=void');
      return page.body.data.length === 1 ? page : undefined;
    });
    expect(voidOnly.body.data[0].status).toBe('void');
    expect((await list(`?starting_after=${ids[0]}`, keyOther)).status).toBe(400);
    expect((await list('?status=lost')).status).toBe(400);
    expect((await list('?limit=101')).status).toBe(400);
  });

  it("answers another merchant's invoice as unknown (404), on read and void", async () => {
    const invoice = (await create({ amount: '100' })).body;
    expect((await get(invoice.id, keyOther)).status).toBe(404);
    expect((await voidIt(invoice.id, keyOther)).status).toBe(404);
    expect((await get('in_nope')).status).toBe(404);
  });
});

describe('the hosted page and Pay with Quern', () => {
  it('shows anyone the merchant, amounts and a QR code, never the metadata', async () => {
    const invoice = (await create({ amount: '4200', description: 'Tea', metadata: { secret: 'internal note' } })).body;
    const page = await publicView(invoice.id);
    expect(page.status).toBe(200);
    const view = page.body.result.data;
    expect(view).toMatchObject({
      id: invoice.id,
      status: 'open',
      merchant: { name: 'Test User', username: 'inv_shop' },
      amount_mlx: '4200',
      address: invoice.address,
      payment_uri: invoice.payment_uri,
      description: 'Tea',
      redirect_url: null,
    });
    expect(view.qr_svg).toMatch(/^<svg/);
    expect(JSON.stringify(view)).not.toContain('internal note');
    expect((await publicView('in_0000')).status).toBe(404);
  });

  it('given a funded shopper, pays from the balance once on a double click, recorded as paid with Quern', async () => {
    await fundFromReserve(quern.store, shopper.address, 50_000n);
    await eventually(async () => ((await stableOf(shopper)) === '50000' ? true : undefined));
    const invoice = (await create({ amount: '6000' })).body;
    const [a, b] = await Promise.all([payWithQuern(shopper, invoice.id), payWithQuern(shopper, invoice.id)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    const paid = (await get(invoice.id)).body;
    expect(paid).toMatchObject({ status: 'paid', amount_paid_mlx: '6000' });
    expect(paid.payments).toEqual([expect.objectContaining({ method: 'quern', amount_mlx: '6000', status: 'settled' })]);
    await eventually(async () => ((await stableOf(shopper)) === '44000' ? true : undefined));
    const again = await payWithQuern(shopper, invoice.id);
    expect(again.status).toBe(409);
    expect((await payWithQuern(shop, (await create({ amount: '10' })).body.id)).status).toBe(400);
    expect(
      (await quern.call('POST', '/trpc/invoices.pay', { body: { id: invoice.id }, headers: { 'sec-fetch-site': 'same-origin' } })).status,
    ).toBe(401);
  });

  it('leaves the ledger audit clean', async () => {
    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
  });
});

// Proves payment links through the merchant API and the pay page's procedures over real HTTP (ADR
// 084): fixed and open links created once per Idempotency-Key; the list newest first by cursor;
// turning off and on; a visitor's fresh invoice (a fixed link's amount, an open link's typed
// amount, one invoice for a double submit of one visit, another for another visit); a link that
// is off refuses with a message and makes nothing; bad input is 400 with messages; another
// merchant's link is 404; the public call that makes invoices is limited per client address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countEventsOfType } from '../../test/ledger.js';
import { startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let shop: TestUser;
let other: TestUser;
let keyShop: string;
let keyOther: string;
let keys = 0;
let visits = 0;

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const create = (body: unknown, key: string = keyShop, idempotencyKey: string = `pl-${++keys}`) =>
  quern.call('POST', '/api/v1/payment-links', { body, headers: { ...auth(key), 'idempotency-key': idempotencyKey } });
const get = (id: string, key: string = keyShop) =>
  quern.call('GET', `/api/v1/payment-links/${encodeURIComponent(id)}`, { headers: auth(key) });
const list = (query: string, key: string = keyShop) => quern.call('GET', `/api/v1/payment-links${query}`, { headers: auth(key) });
const turn = (id: string, to: 'deactivate' | 'activate', key: string = keyShop) =>
  quern.call('POST', `/api/v1/payment-links/${encodeURIComponent(id)}/${to}`, { headers: auth(key) });
const view = (slug: string) => quern.call('GET', `/trpc/paymentLinks.view?input=${encodeURIComponent(JSON.stringify({ slug }))}`);
const newVisit = () => `visit-${String(++visits).padStart(10, '0')}`;
const pay = (body: { slug: string; amount?: string; visitId?: string }) =>
  quern.call('POST', '/trpc/paymentLinks.pay', { body: { visitId: newVisit(), ...body }, headers: { 'sec-fetch-site': 'same-origin' } });
const invoice = (id: string) => quern.call('GET', `/api/v1/invoices/${id}`, { headers: auth(keyShop) });
const countEvents = (type: string): Promise<number> => countEventsOfType(quern.store, type);

beforeAll(async () => {
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    API_KEY_REQUESTS_PER_MINUTE: '10000',
    EXCHANGE_RATE_USD_PER_MLX: '0.0005',
    PAYMENT_LINK_INVOICES_PER_IP_HOUR: '12',
  });
  shop = await registerUser(quern, 'pl_shop');
  other = await registerUser(quern, 'pl_other');
  keyShop = await generateApiKey(quern, shop);
  keyOther = await generateApiKey(quern, other);
});
afterAll(async () => {
  await quern?.stop();
});

describe('POST /api/v1/payment-links', () => {
  it('creates a fixed MLX link and an open USD link, each with its URL, active', async () => {
    const fixed = await create({ amount: '25000', description: 'Coffee' });
    expect(fixed.status).toBe(201);
    expect(fixed.body).toMatchObject({
      id: expect.stringMatching(/^pl_[0-9a-f]{32}$/),
      object: 'payment_link',
      url: expect.stringMatching(/\/pay\/[A-Za-z0-9_-]{12}$/),
      active: true,
      amount_type: 'fixed',
      currency: 'MLX',
      amount: '25000',
      min_amount: null,
      max_amount: null,
      description: 'Coffee',
    });
    expect(fixed.body.url).toBe(`${new URL(fixed.body.url).origin}/pay/${fixed.body.slug}`);
    const open = await create({ currency: 'USD', min_amount: '5', max_amount: '100' });
    expect(open.status).toBe(201);
    expect(open.body).toMatchObject({
      amount_type: 'open',
      currency: 'USD',
      amount: null,
      min_amount: '5.00',
      max_amount: '100.00',
      description: null,
    });
    expect(open.body.slug).not.toBe(fixed.body.slug);
  });

  it('answers 20 parallel retries of one Idempotency-Key with one link, and refuses the key with another body (422)', async () => {
    const before = await countEvents('PaymentLinkCreated');
    const answers = await Promise.all(Array.from({ length: 20 }, () => create({ amount: '700' }, keyShop, 'same-link-key')));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await countEvents('PaymentLinkCreated')).toBe(before + 1);
    const reused = await create({ amount: '701' }, keyShop, 'same-link-key');
    expect(reused.status).toBe(422);
  });

  it('refuses bad input with 400 and a message for the field, and records nothing', async () => {
    const before = await countEvents('PaymentLinkCreated');
    const cases: Array<[unknown, string]> = [
      [{ amount: '0' }, 'amount'],
      [{ amount: '1.5' }, 'amount'],
      [{ amount: '12.345', currency: 'USD' }, 'amount'],
      [{ currency: 'EUR' }, 'currency'],
      [{ amount: '10', min_amount: '5' }, 'min_amount'],
      [{ min_amount: '10', max_amount: '5' }, 'max_amount'],
      [{ min_amount: 'abc' }, 'min_amount'],
      [{ description: 'x'.repeat(501) }, 'description'],
      [{ amount: '10', extra: true }, ''],
    ];
    for (const [body, param] of cases) {
      const answer = await create(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message, JSON.stringify(body)).toMatch(/\w/);
      if (param) expect(answer.body.error.field, JSON.stringify(body)).toBe(param);
    }
    expect(await countEvents('PaymentLinkCreated')).toBe(before);
  });
});

describe('the merchant reads, lists and turns links off and on', () => {
  it('lists newest first by cursor, gets one, and another merchant gets 404 for it', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await create({ amount: String(100 + i) })).body.id as string);
    const first = await list('?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((link: { id: string }) => link.id)).toEqual([made[2], made[1]]);
    expect(first.body.has_more).toBe(true);
    const second = await list(`?limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body.data[0].id).toBe(made[0]);
    expect((await get(made[0] as string)).body.amount).toBe('100');
    expect((await get(made[0] as string, keyOther)).status).toBe(404);
    expect((await turn(made[0] as string, 'deactivate', keyOther)).status).toBe(404);
    expect((await list('', keyOther)).body.data).toEqual([]);
    expect((await list('?limit=0')).status).toBe(400);
    expect((await list('?starting_after=nope')).status).toBe(400);
  });

  it('turns a link off and on; twice is no change', async () => {
    const link = (await create({ amount: '300' })).body;
    expect((await turn(link.id, 'deactivate')).body.active).toBe(false);
    expect((await turn(link.id, 'deactivate')).body.active).toBe(false);
    expect((await get(link.id)).body.active).toBe(false);
    expect((await turn(link.id, 'activate')).body.active).toBe(true);
    expect((await view(link.slug)).body.result.data.active).toBe(true);
  });
});

describe('a visitor pays through a link', () => {
  it("shows the public view and makes a fresh invoice of the link's amount for each visit, one per visit", async () => {
    const link = (await create({ amount: '25000', description: 'Coffee' })).body;
    const shown = (await view(link.slug)).body.result.data;
    expect(shown).toMatchObject({
      slug: link.slug,
      active: true,
      description: 'Coffee',
      amount_type: 'fixed',
      amount: '25000',
      currency: 'MLX',
    });
    expect(shown.merchant.username).toBe(shop.name);
    expect(shown).not.toHaveProperty('id');

    const visitId = newVisit();
    const [a, b] = await Promise.all([pay({ slug: link.slug, visitId }), pay({ slug: link.slug, visitId })]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const made = a.body.result.data;
    expect(made.invoice_id).toMatch(/^in_[0-9a-f]{32}$/);
    expect(b.body.result.data.invoice_id).toBe(made.invoice_id);
    expect(made.hosted_url).toMatch(new RegExp(`/i/${made.invoice_id}$`));
    const created = (await invoice(made.invoice_id)).body;
    expect(created).toMatchObject({ amount_mlx: '25000', currency: 'MLX', description: 'Coffee', metadata: { payment_link: link.id } });

    const another = (await pay({ slug: link.slug })).body.result.data;
    expect(another.invoice_id).not.toBe(made.invoice_id);
  });

  it("makes an open link's invoice of the visitor's amount, within the bounds", async () => {
    const link = (await create({ currency: 'USD', min_amount: '5', max_amount: '100', description: 'Donation' })).body;
    const made = (await pay({ slug: link.slug, amount: '12.50' })).body.result.data;
    const created = (await invoice(made.invoice_id)).body;
    expect(created).toMatchObject({ currency: 'USD', amount_usd: '12.50', amount_mlx: '25000', metadata: { payment_link: link.id } });
    for (const amount of ['4.99', '100.01', '0', 'abc', '']) {
      const refused = await pay({ slug: link.slug, amount });
      expect(refused.status, amount).toBe(400);
      expect(refused.body.error.message, amount).toMatch(/\w/);
    }
    const below = await pay({ slug: link.slug, amount: '4.99' });
    expect(below.body.error.message).toMatch(/at least 5\.00 USD/);
  });

  it('refuses through a link that is off, with a message, and makes no invoice', async () => {
    const link = (await create({ amount: '900' })).body;
    await turn(link.id, 'deactivate');
    expect((await view(link.slug)).body.result.data.active).toBe(false);
    const before = await countEvents('InvoiceCreated');
    const refused = await pay({ slug: link.slug });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/turned off/);
    expect(await countEvents('InvoiceCreated')).toBe(before);
  });

  it('answers an unknown slug 404 and a malformed visit 400', async () => {
    expect((await view('AAAAAAAAAAAA')).status).toBe(404);
    expect((await pay({ slug: 'AAAAAAAAAAAA' })).status).toBe(404);
    const link = (await create({ amount: '5' })).body;
    expect((await pay({ slug: link.slug, visitId: 'short' })).status).toBe(400);
  });

  it('refuses a client address past its hourly number of invoices with 429', async () => {
    const link = (await create({ amount: '5' })).body;
    let limited = false;
    for (let i = 0; i < 20 && !limited; i++) limited = (await pay({ slug: link.slug })).status === 429;
    expect(limited).toBe(true);
  });
});

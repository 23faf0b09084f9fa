// Proves the invoices CSV export over real HTTP (real SQLite, real Redis): invoices of several
// statuses (open, void, paid, partially paid, overpaid, USD) created over a range export exactly,
// oldest first, with the status and payments the log holds now and RFC 4180 quoting (a comma, a
// quote) and formula cells made inert; another merchant's invoices are absent; rows
// outside the range are left out; a bad range is 400 with a message; the web app's session
// download answers the same file, and a walk in small pages gives the same rows.
import type { InvoiceOutput } from '@quern/core/invoices';
import { Writable } from 'node:stream';
import { openSimulatedNetwork, type SimulatedNetwork, simulatedNetworkFile } from '@quern/adapters/millix';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';
import { INVOICES_CSV_HEADER, writeInvoicesCsv } from './csv-export.js';

let quern: TestQuern;
let network: SimulatedNetwork;
let shop: TestUser;
let other: TestUser;
let keyShop: string;
let keyOther: string;
let keys = 0;

const create = (body: unknown, key: string = keyShop) =>
  quern.call('POST', '/api/v1/invoices', { body, headers: { authorization: `Bearer ${key}`, 'idempotency-key': `exp-${++keys}` } });
const get = (id: string) => quern.call('GET', `/api/v1/invoices/${id}`, { headers: { authorization: `Bearer ${keyShop}` } });
const statusOf = async (id: string, wanted: string) =>
  eventually(async () => {
    const answer = await get(id);
    return answer.body.status === wanted ? answer.body : undefined;
  });
const exportCsv = (query: string, key: string = keyShop) =>
  fetch(`${quern.url}/api/v1/invoices/export${query}`, { headers: { authorization: `Bearer ${key}` } });
/** RFC 4180 with CRLF records: quoted cells may hold commas, doubled quotes and line breaks. */
function parse(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
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
  if (cell !== '' || row.length > 0) throw new Error('the CSV does not end with CRLF');
  return rows;
}
const today = () => new Date().toISOString().slice(0, 10);

/** The invoices in the order they were created, with what the API answers for each now. */
const created: Array<Record<string, string | null>> = [];

beforeAll(async () => {
  quern = await startTestQuern({
    REGISTRATIONS_PER_IP_HOUR: '1000',
    API_KEY_REQUESTS_PER_MINUTE: '10000',
    DEPOSIT_POLL_INTERVAL_MS: '50',
    EXCHANGE_RATE_USD_PER_MLX: '0.0003',
  });
  network = openSimulatedNetwork({ file: simulatedNetworkFile(quern.dataDir), confirmDelayMs: 100 });
  shop = await registerUser(quern, 'exp_shop');
  other = await registerUser(quern, 'exp_other');
  keyShop = await generateApiKey(quern, shop);
  keyOther = await generateApiKey(quern, other);

  const open = (await create({ amount: '1000', reference: 'plain-1', description: 'Coffee, "large", with milk' })).body;
  const voided = (await create({ amount: '2000', reference: '=HYPERLINK("x")', description: '+1 cell' })).body;
  expect((await quern.call('POST', `/api/v1/invoices/${voided.id}/void`, { headers: { authorization: `Bearer ${keyShop}` } })).status).toBe(
    200,
  );
  const paid = (await create({ amount: '3000' })).body;
  const partial = (await create({ amount: '9000' })).body;
  const over = (await create({ amount: '4000' })).body;
  const usd = (await create({ amount: '12.50', currency: 'USD', reference: 'usd-1' })).body;
  for (const invoice of [open, voided, paid, partial, over, usd]) expect(invoice.id).toMatch(/^in_/);
  await create({ amount: '777', reference: 'other-shop' }, keyOther);
  await network.deposit(paid.address, 3_000n);
  await network.deposit(partial.address, 4_000n);
  await network.deposit(over.address, 4_500n);
  await statusOf(paid.id, 'paid');
  await statusOf(partial.id, 'partially_paid');
  await statusOf(over.id, 'paid');
  for (const invoice of [open, voided, paid, partial, over, usd]) created.push((await get(invoice.id)).body);
}, 60_000);
afterAll(async () => {
  await network?.close();
  await quern?.stop();
});

const expectedRow = (i: (typeof created)[number]) => [
  i.id,
  i.created_at,
  i.status,
  i.currency,
  i.amount_mlx,
  i.amount_usd ?? '',
  i.usd_rate ?? '',
  i.amount_paid_mlx,
  i.amount_overpaid_mlx,
  i.reference?.startsWith('=') ? `'${i.reference}` : (i.reference ?? ''),
  i.description?.startsWith('+') ? `'${i.description}` : (i.description ?? ''),
  i.paid_at ?? '',
];

describe('GET /api/v1/invoices/export', () => {
  it("given invoices of several statuses, then exactly the merchant's, oldest first, quoted per RFC 4180, as an attachment", async () => {
    const answer = await exportCsv(`?from=${today()}&to=${today()}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="quern-invoices-${today()}-${today()}.csv"`);
    const text = await answer.text();
    expect(text.startsWith(`${INVOICES_CSV_HEADER.join(',')}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    // A cell with a comma or a quote is quoted, its quotes doubled.
    expect(text).toContain('"Coffee, ""large"", with milk"');
    const rows = parse(text);
    expect(rows[0]).toEqual([...INVOICES_CSV_HEADER]);
    expect(rows.slice(1)).toEqual(created.map(expectedRow));
    expect(rows.slice(1).map((row) => row[2])).toEqual(['open', 'void', 'paid', 'partially_paid', 'paid', 'open']);
    expect(rows[5]?.[8]).toBe('500');
    expect(rows[6]?.slice(3, 7)).toEqual(['USD', created[5]?.amount_mlx, '12.50', '0.0003']);
    expect(text).not.toContain('other-shop');
  });

  it("given the other merchant's key, then only its own invoice", async () => {
    const rows = parse(await (await exportCsv(`?from=${today()}&to=${today()}`, keyOther)).text());
    expect(rows.map((row) => row[9])).toEqual(['reference', 'other-shop']);
  });

  it('given a range before the invoices, then the header alone', async () => {
    const answer = await exportCsv('?from=2020-01-01&to=2020-12-31');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(`${INVOICES_CSV_HEADER.join(',')}\r\n`);
  });

  it('refuses a bad range with 400 and a message naming the field', async () => {
    for (const [query, param, message] of [
      ['?from=2026-03-01&to=2026-02-01', 'to', /must not be before/],
      ['?from=2026-02-31&to=2026-03-01', 'from', /Enter a date/],
      ['?from=yesterday&to=2026-03-01', 'from', /Enter a date/],
      ['?to=2026-03-01', 'from', /Enter a date/],
    ] as const) {
      const answer = await exportCsv(query);
      expect(answer.status, query).toBe(400);
      const body = (await answer.json()) as { error: { message: string; field?: string } };
      expect(body.error.message, query).toMatch(message);
      expect(body.error.field, query).toBe(param);
    }
  });

  it("given the session cookie, then the web app's download answers the same file; without it, 401", async () => {
    const query = `?from=${today()}&to=${today()}`;
    const viaSession = await fetch(`${quern.url}/api/quern/invoices/export${query}`, { headers: { cookie: shop.cookie } });
    expect(viaSession.status).toBe(200);
    expect(await viaSession.text()).toBe(await (await exportCsv(query)).text());
    expect((await fetch(`${quern.url}/api/quern/invoices/export${query}`)).status).toBe(401);
  });

  it('given pages of two, then the same rows: each page resumes strictly after the last', async () => {
    const redis = new Redis(quern.redisUrl);
    try {
      const chunks: string[] = [];
      const out = new Writable({
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk.toString('utf8'));
          done();
        },
      });
      const ids = created.map((i) => i.id as string);
      const rows = await writeInvoicesCsv(redis, out, {
        merchantUserId: shop.id,
        fromMs: 0,
        toMs: Date.parse('2100-01-01T00:00:00Z'),
        pageSize: 2,
        readInvoice: async (id) => created.find((invoice) => invoice.id === id) as InvoiceOutput | undefined,
      });
      expect(rows).toBe(created.length);
      const parsed = parse(chunks.join(''));
      expect(parsed.slice(1).map((row) => row[0])).toEqual(ids);
    } finally {
      redis.disconnect();
    }
  });
});

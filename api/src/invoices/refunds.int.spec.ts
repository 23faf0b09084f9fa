// Proves refunds of invoices paid from a wallet outside Quern over real HTTP (issue 27, ADR 087):
// the merchant refunds at most what reached the invoice (once per Idempotency-Key), the answer
// carries a single-use claim link that a wrong token cannot open, the payer claims it to an outside
// address and the payout reaches the simulated network; the merchant's own address, a bad address,
// a second claim and a claim of a canceled refund are refused with a message; five racing claims
// pay out once; another merchant cannot refund or cancel; the claim link is mailed to the invoice's
// customer_email; the audit is clean after all of it.
import { openSimulatedNetwork, type SimulatedNetwork, simulatedNetworkFile } from '@quern/adapters/millix';
import { createAddress, parseAddress } from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, countEventsOfType } from '../../test/ledger.js';
import { outboxMails } from '../../test/outbox.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let network: SimulatedNetwork;
let shop: TestUser;
let other: TestUser;
let keyShop: string;
let keyOther: string;
let keys = 0;

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const createInvoice = async (body: unknown) =>
  (await quern.call('POST', '/api/v1/invoices', { body, headers: { ...auth(keyShop), 'idempotency-key': `inv-${++keys}` } })).body;
const getInvoice = async (id: string) => (await quern.call('GET', `/api/v1/invoices/${id}`, { headers: auth(keyShop) })).body;
/** `idempotencyKey` null sends none; absent, a fresh one. */
const refund = (invoiceId: string, body: unknown, key = keyShop, idempotencyKey: string | null = `ref-${++keys}`) =>
  quern.call('POST', `/api/v1/invoices/${invoiceId}/refunds`, {
    body,
    headers: { ...auth(key), ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) },
  });
const cancel = (invoiceId: string, refundId: string, key = keyShop) =>
  quern.call('POST', `/api/v1/invoices/${invoiceId}/refunds/${refundId}/cancel`, { headers: auth(key) });
const claimView = (refundId: string, token: string) =>
  quern.call('GET', `/trpc/invoices.refundClaim?input=${encodeURIComponent(JSON.stringify({ refundId, token }))}`);
const claim = (refundId: string, token: string, address: string) =>
  quern.call('POST', '/trpc/invoices.claimRefund', { body: { refundId, token, address }, headers: { 'sec-fetch-site': 'same-origin' } });
/** The refund id and token a claim link carries: `/refund/<id>#<token>`. */
function linkParts(claimUrl: string): { refundId: string; token: string } {
  const url = new URL(claimUrl);
  const match = /^\/refund\/(ir_[0-9a-f]{32})$/.exec(url.pathname);
  if (!match?.[1]) throw new Error(`Not a claim link: ${claimUrl}`);
  return { refundId: match[1], token: url.hash.slice(1) };
}
/** An address of a wallet outside Quern, on the deployment's network (the shop's). */
const outsideAddress = (seed: number) => {
  const parsed = parseAddress(shop.address);
  if (!parsed.ok) throw new Error('The shop has no valid address');
  return createAddress(new Uint8Array(20).fill(seed), parsed.network);
};
const eventsOf = (type: string): Promise<number> => countEventsOfType(quern.store, type);

/** An invoice of the shop paid `amount` MLX from outside Quern, once it is recorded as stable. */
async function paidInvoice(amount: number, extra: Record<string, unknown> = {}) {
  const invoice = await createInvoice({ amount: String(amount), ...extra });
  await network.deposit(invoice.address, BigInt(amount));
  return eventually(async () => {
    const now = await getInvoice(invoice.id);
    return now.status === 'paid' ? now : undefined;
  });
}

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: '10000', DEPOSIT_POLL_INTERVAL_MS: '50' });
  network = openSimulatedNetwork({ file: simulatedNetworkFile(quern.dataDir), confirmDelayMs: 200 });
  shop = await registerUser(quern, 'irf_shop');
  other = await registerUser(quern, 'irf_other');
  keyShop = await generateApiKey(quern, shop);
  keyOther = await generateApiKey(quern, other);
});
afterAll(async () => {
  await network?.close();
  await quern?.stop();
});

describe('refunds of an invoice paid from outside Quern', () => {
  it('refunds at most what reached the invoice, once per key, and the payer claims it to an outside address', async () => {
    const invoice = await paidInvoice(7000, { reference: 'order-77', description: 'A teapot' });
    const before = await eventsOf('InvoiceRefundCreated');

    const tooMuch = await refund(invoice.id, { amount: '7001' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.message).toBe('This is more than the invoice can refund: at most 7000 MLX.');
    expect((await refund(invoice.id, { amount: '3000' }, keyShop, null)).status).toBe(400);
    expect((await refund(invoice.id, { amount: '-5' })).status).toBe(400);
    expect((await refund(invoice.id, { amount: '3000' }, keyOther)).status).toBe(404);
    expect(await eventsOf('InvoiceRefundCreated')).toBe(before);

    const created = await refund(invoice.id, { amount: '3000' }, keyShop, 'refund-once');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^ir_[0-9a-f]{32}$/),
      object: 'invoice_refund',
      invoice: invoice.id,
      amount_mlx: '3000',
      status: 'awaiting_claim',
      emailed: false,
      payout: null,
      to_address: null,
      claimed_at: null,
    });
    expect((await refund(invoice.id, { amount: '3000' }, keyShop, 'refund-once')).body).toEqual(created.body);
    expect((await refund(invoice.id, { amount: '2000' }, keyShop, 'refund-once')).status).toBe(422);
    expect(await eventsOf('InvoiceRefundCreated')).toBe(before + 1);
    const withRefund = await getInvoice(invoice.id);
    const { livemode: _, ...refundInInvoice } = created.body;
    expect(withRefund).toMatchObject({ status: 'paid', amount_refunded_mlx: '3000', refunds: [refundInInvoice] });

    const { refundId, token } = linkParts(created.body.claim_url);
    const to = outsideAddress(41);
    const forged = await claimView(refundId, `${token.slice(0, -2)}AA`);
    expect(forged.status).toBe(404);
    expect(forged.body.error.message).toMatch(/refund link is not valid/);
    const view = await claimView(refundId, token);
    expect(view.status).toBe(200);
    expect(view.body.result.data).toMatchObject({
      refund_id: refundId,
      status: 'awaiting_claim',
      amount_mlx: '3000',
      merchant: { username: shop.name },
      reference: 'order-77',
      description: 'A teapot',
      to_address: null,
    });

    const bad = await claim(refundId, token, 'not-an-address');
    expect(bad.status).toBe(400);
    const ours = parseAddress(to);
    const elsewhere = ours.ok && ours.network === 'mainnet' ? 'testnet' : 'mainnet';
    const otherNetwork = await claim(refundId, token, createAddress(new Uint8Array(20).fill(9), elsewhere));
    expect(otherNetwork.status).toBe(400);
    const own = await claim(refundId, token, invoice.address);
    expect(own.status).toBe(400);
    expect(own.body.error.message).toBe('This address belongs to the merchant. Enter the address of your own millix wallet.');

    const payoutsBefore = await eventsOf('PayoutRequested');
    const claimed = await claim(refundId, token, to);
    expect(claimed.status).toBe(200);
    expect(claimed.body.result.data).toMatchObject({ status: 'pending', to_address: to });
    // The same address again answers as the first claim; another address is refused.
    expect((await claim(refundId, token, to)).status).toBe(200);
    const second = await claim(refundId, token, outsideAddress(42));
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe('This refund has already been claimed.');
    expect(await eventsOf('PayoutRequested')).toBe(payoutsBefore + 1);

    // The settlement worker sends it to the network: the refund succeeds with its payout.
    const succeeded = await eventually(async () => {
      const now = await getInvoice(invoice.id);
      return now.refunds[0]?.status === 'succeeded' ? now.refunds[0] : undefined;
    });
    expect(succeeded).toMatchObject({ claim_url: null, to_address: to, payout: expect.stringMatching(/^po_/) });
    const payout = await quern.call('GET', `/api/v1/payouts/${succeeded.payout}`, { headers: auth(keyShop) });
    expect(payout.body).toMatchObject({ amount: '3000', fee: '1000', status: 'completed' });
    expect((await cancel(invoice.id, refundId)).status).toBe(409);

    // The rest, with no amount, refunds all that is left.
    const rest = await refund(invoice.id, {});
    expect(rest.body).toMatchObject({ amount_mlx: '4000', status: 'awaiting_claim' });
    const nothing = await refund(invoice.id, {});
    expect(nothing.status).toBe(409);
  });

  it('given five racing claims of one refund, then one payout; a canceled refund claims nothing and frees its amount', async () => {
    const invoice = await paidInvoice(5000);
    const created = (await refund(invoice.id, { amount: '2000' })).body;
    const { refundId, token } = linkParts(created.claim_url);
    const payoutsBefore = await eventsOf('PayoutRequested');
    const answers = await Promise.all([43, 44, 45, 46, 47].map((seed) => claim(refundId, token, outsideAddress(seed))));
    expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body))).toEqual([
      200, 409, 409, 409, 409,
    ]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(4);
    expect(await eventsOf('PayoutRequested')).toBe(payoutsBefore + 1);

    const withdrawn = (await refund(invoice.id, { amount: '3000' })).body;
    expect((await cancel(invoice.id, withdrawn.id, keyOther)).status).toBe(404);
    const canceled = await cancel(invoice.id, withdrawn.id);
    expect(canceled.body).toMatchObject({ status: 'canceled', claim_url: null, canceled_at: expect.any(String) });
    expect((await cancel(invoice.id, withdrawn.id)).body).toEqual(canceled.body);
    const link = linkParts(withdrawn.claim_url);
    const refused = await claim(link.refundId, link.token, outsideAddress(48));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/canceled this refund/);
    expect((await refund(invoice.id, {})).body).toMatchObject({ amount_mlx: '3000' });
  });

  it('mails the claim link to the invoice customer_email, once', async () => {
    const invoice = await paidInvoice(4000, { customer_email: 'payer@example.com' });
    expect(invoice.customer_email).toBe('payer@example.com');
    const created = (await refund(invoice.id, { amount: '1500' })).body;
    // The text part is quoted-printable: its soft line breaks ('=' at a line's end) are not in the text.
    const mail = await eventually(async () =>
      outboxMails(quern)
        .map((raw) => raw.replace(/=\r?\n/g, ''))
        .find((text) => text.includes(created.id)),
    );
    expect(mail).toMatch(/To: payer@example\.com/);
    expect(mail).toContain(`Claim your refund: ${created.claim_url}`);
    expect(mail).toContain('gave this address with your payment');
    await eventually(async () => ((await getInvoice(invoice.id)).refunds[0]?.emailed === true ? true : undefined));
    // The hosted page never shows the payer's e-mail.
    const page = await quern.call('GET', `/trpc/invoices.public?input=${encodeURIComponent(JSON.stringify({ id: invoice.id }))}`);
    expect(JSON.stringify(page.body)).not.toContain('payer@example.com');
  });

  it('leaves the audit clean', async () => {
    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
    expect(audit.invoices.refunds).toBeGreaterThanOrEqual(5);
    expect(audit.invoices.refundedMlx).toBeGreaterThanOrEqual(3000n);
  });
});

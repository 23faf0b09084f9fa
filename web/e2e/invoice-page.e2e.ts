// Proves the hosted invoice page `/i/{id}` (issue 27, ADR 081) in a real browser against a real
// Quern: a visitor who is not signed in sees the merchant, the amount, a QR code that decodes (with a
// QR decoder) to the invoice's payment URI, the address and a countdown; when a wallet outside Quern
// pays it (the dev faucet through the simulated network) the page goes from open to paid without a
// reload and links back to the shop; a signed-in Quern user pays with 'Pay with Quern'; a void
// invoice says so and shows no address; the words are Spanish on a Spanish page; axe finds nothing
// serious. Screenshots: test-results/screenshots/invoice-*.png.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { usePreferences } from './contentPages.js';
import { apiUser, faucet, loginByApi, registerByApi, trpcMutation, trpcQuery, uniqueUser } from './users.js';

interface Invoice {
  id: string;
  address: string;
  payment_uri: string;
  status: string;
}

async function decodeQr(image: Locator): Promise<string | null> {
  const png = PNG.sync.read(await image.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

let keys = 0;
const newInvoice = async (api: Awaited<ReturnType<typeof apiUser>>['api'], body: Record<string, unknown>): Promise<Invoice> =>
  trpcMutation<Invoice>(api, 'invoices.create', { ...body, idempotencyKey: `e2e-invoice-${Date.now()}-${++keys}` });

for (const viewport of [
  { name: 'mobile', width: 390, height: 844 },
  { name: 'desktop', width: 1024, height: 900 },
] as const) {
  test.describe(viewport.name, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: 'reduce' });

    test(`a visitor scans the invoice's code, and the page turns paid without a reload when a millix wallet pays (${viewport.name})`, async ({
      page,
    }) => {
      const merchant = await apiUser();
      const invoice = await newInvoice(merchant.api, {
        amount: '2500',
        description: 'Two coffees',
        reference: 'table-4',
        redirect_url: 'https://shop.example/thanks',
      });
      await page.goto(`/i/${invoice.id}`);
      await expect(page.getByRole('heading', { name: '2,500 MLX' })).toBeVisible();
      await expect(page.getByText(`@${merchant.user.userName}`)).toBeVisible();
      await expect(page.getByText('Two coffees')).toBeVisible();
      await expect(page.getByTestId('invoice-status')).toHaveText('Waiting for your payment.');
      await expect(page.getByTestId('invoice-address')).toHaveText(invoice.address);
      await expect(page.getByTestId('invoice-countdown')).toHaveText(/^1[45]:\d\d$/);
      const qr = page.getByTestId('invoice-qr');
      await expect.poll(() => decodeQr(qr)).toBe(invoice.payment_uri);
      await expect(page.getByRole('link', { name: /Sign in to pay from your balance/ })).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: `test-results/screenshots/invoice-open-${viewport.name}.png`, fullPage: true });

      // A marker on the window survives only if the page is never reloaded.
      await page.evaluate(() => Object.assign(window, { invoiceMarker: 'still here' }));
      await faucet(invoice.address, 2500, { confirmDelayMs: 1500 });
      await expect(page.getByTestId('invoice-status')).toHaveAttribute('data-status', 'paid', { timeout: 30_000 });
      await expect(page.getByTestId('invoice-status')).toHaveText('Paid. Thank you!');
      expect(await page.evaluate(() => (window as unknown as { invoiceMarker?: string }).invoiceMarker)).toBe('still here');
      await expect(page.getByRole('link', { name: 'Return to the shop' })).toHaveAttribute('href', 'https://shop.example/thanks');
      await expect(page.getByTestId('invoice-qr')).toHaveCount(0);
      await page.screenshot({ path: `test-results/screenshots/invoice-paid-${viewport.name}.png`, fullPage: true });
    });
  });
}

test('a signed-in Quern user pays with Quern in one step', async ({ page }) => {
  const merchant = await apiUser();
  const invoice = await newInvoice(merchant.api, { amount: '3000' });
  const shopper = uniqueUser();
  await registerByApi(page.request, shopper);
  await loginByApi(page.request, shopper);
  await faucet(shopper.userName, 10_000, { confirmDelayMs: 200 });
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(page.request, 'wallet.balance')).stable, { timeout: 30_000 })
    .toBe('10000');
  await page.goto(`/i/${invoice.id}`);
  const pay = page.getByRole('button', { name: 'Pay 3,000 MLX with Quern' });
  await pay.dblclick();
  await expect(page.getByTestId('invoice-status')).toHaveAttribute('data-status', 'paid');
  const paid = await trpcQuery<{ status: string; payments: Array<{ method: string }> }>(merchant.api, 'invoices.get', { id: invoice.id });
  expect(paid.status).toBe('paid');
  expect(paid.payments.map((payment) => payment.method)).toEqual(['quern']);
  expect((await trpcQuery<{ stable: string }>(page.request, 'wallet.balance')).stable).toBe('7000');
});

test('a void invoice says so and shows no address, in Spanish too', async ({ page }) => {
  const merchant = await apiUser();
  const invoice = await newInvoice(merchant.api, { amount: '900' });
  await trpcMutation(merchant.api, 'invoices.void', { id: invoice.id });
  await page.goto(`/i/${invoice.id}`);
  await expect(page.getByTestId('invoice-status')).toHaveText(/cancelled by the merchant/);
  await expect(page.getByTestId('invoice-address')).toHaveCount(0);
  await expect(page.getByTestId('invoice-qr')).toHaveCount(0);
  await usePreferences(page, { language: 'es' });
  await page.goto(`/i/${invoice.id}`);
  await expect(page.getByTestId('invoice-status')).toHaveText(/El comercio anuló esta factura/);
  await page.goto('/i/in_00000000000000000000000000000000');
  await expect(page.getByRole('alert')).toHaveText('No existe esa factura.');
});

test("a USD invoice writes its price and rate in the page's number format, in English and Spanish, on a phone and a desktop", async ({
  page,
}) => {
  const merchant = await apiUser();
  const invoice = await newInvoice(merchant.api, { amount: '1234.50', currency: 'USD', description: 'Catering for twelve' });
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/i/${invoice.id}`);
    await expect(page.getByTestId('invoice-amount')).toHaveText('102,875,000 MLX');
    await expect(page.getByTestId('invoice-usd')).toHaveText('Priced at 1,234.50 USD (1 MLX = 0.000012 USD when the invoice was made)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `test-results/screenshots/invoice-usd-en-${viewport.width}.png`, fullPage: true });
  }
  await usePreferences(page, { language: 'es' });
  await page.goto(`/i/${invoice.id}`);
  await expect(page.getByTestId('invoice-amount')).toHaveText('102.875.000 MLX');
  await expect(page.getByTestId('invoice-usd')).toHaveText('Precio de 1234,50 USD (1 MLX = 0,000012 USD cuando se creó la factura)');
  await page.screenshot({ path: 'test-results/screenshots/invoice-usd-es-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('invoice-usd')).toHaveText('Precio de 1234,50 USD (1 MLX = 0,000012 USD cuando se creó la factura)');
  await page.screenshot({ path: 'test-results/screenshots/invoice-usd-es-390.png', fullPage: true });
  await merchant.api.dispose();
});

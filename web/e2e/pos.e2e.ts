// Proves the point of sale (/pos, ADR 085) in a real browser against a real Quern, on a phone and
// a tablet: a direct load answers 200; 2500 MLX typed on the keypad is charged once; the QR code,
// decoded from its pixels, is the invoice's payment URI; a payment from outside (the simulated
// network's faucet) turns the screen to paid without a reload; the manifest is served and linked,
// and the service worker registers. Screenshots: test-results/screenshots/pos-*.png.
import { expect, type Locator, test } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { faucet, loginByApi, registerByApi, trpcQuery, uniqueUser } from './users.js';

async function decodeQr(image: Locator): Promise<string | null> {
  const png = PNG.sync.read(await image.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 1024, height: 768 },
] as const) {
  test(`a merchant charges 2500 MLX and sees it paid (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const user = uniqueUser();
    await registerByApi(page.request, user);
    await loginByApi(page.request, user);

    const response = await page.goto('/pos');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Point of sale' })).toBeVisible();
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/pos.webmanifest');
    const manifest = await page.request.get('/pos.webmanifest');
    expect(manifest.ok()).toBe(true);
    expect(await manifest.json()).toMatchObject({ start_url: '/pos', display: 'standalone' });
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toMatch(/\/pos$/);

    const keypad = page.getByRole('group', { name: 'Keypad' });
    for (const key of ['2', '5', '00']) await keypad.getByRole('button', { name: key, exact: true }).click();
    await expect(page.getByTestId('pos-amount')).toContainText('2,500');
    await page.screenshot({ path: `test-results/screenshots/pos-keypad-${viewport.name}.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await page.getByRole('button', { name: 'Charge' }).dblclick();
    const qr = page.getByTestId('pos-qr');
    await expect(qr).toBeVisible();
    await expect(page.getByTestId('pos-sale-amount')).toHaveText('2,500 MLX');
    const { data } = await trpcQuery<{ data: { id: string; address: string; payment_uri: string; status: string }[] }>(
      page.request,
      'invoices.list',
      { limit: 20 },
    );
    expect(data).toHaveLength(1);
    const invoice = data[0];
    if (!invoice) throw new Error('no invoice');
    await expect.poll(() => decodeQr(qr)).toBe(invoice.payment_uri);
    await page.screenshot({ path: `test-results/screenshots/pos-qr-${viewport.name}.png` });

    await faucet(invoice.address, 2500, { confirmDelayMs: 500 });
    await expect(page.getByTestId('pos-paid')).toBeVisible({ timeout: 45_000 });
    await page.screenshot({ path: `test-results/screenshots/pos-paid-${viewport.name}.png` });
    await page.getByRole('button', { name: 'New sale' }).click();
    await expect(page.getByTestId('pos-recent')).toContainText('Paid');
  });
}

// Proves the point of sale (/pos, ADR 085) in a real browser against a real Quern, on a phone and
// a tablet: a direct load answers 200; 2500 MLX typed on the keypad is charged once; the QR code,
// decoded from its pixels, is the invoice's payment URI; a payment from outside (the simulated
// network's faucet) turns the screen to paid without a reload; the manifest is served and linked,
// and the service worker registers. A USD sale is written in the page's number format, typed and
// charged, in English and Spanish. Screenshots: test-results/screenshots/pos-*.png.
import { expect, type Locator, test } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { type Language, usePreferences } from './contentPages.js';
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

const USD_SALE = {
  en: {
    keypad: 'Keypad',
    point: 'Decimal point',
    charge: 'Charge',
    typed: '1,234.5 USD',
    mlx: '102,875,000 MLX',
    priced: '1,234.50 USD at 0.000012 USD per MLX',
  },
  es: {
    keypad: 'Teclado',
    point: 'Separador decimal',
    charge: 'Cobrar',
    typed: '1234,5 USD',
    mlx: '102.875.000 MLX',
    priced: '1234,50 USD a 0,000012 USD por MLX',
  },
} as const satisfies Record<Language, Record<string, string>>;

for (const language of ['en', 'es'] as const) {
  test(`a USD sale is written in the page's number format (${language})`, async ({ page }) => {
    const words = USD_SALE[language];
    await usePreferences(page, { language });
    await page.setViewportSize({ width: 390, height: 844 });
    const user = uniqueUser();
    await registerByApi(page.request, user);
    await loginByApi(page.request, user);
    await page.goto('/pos');
    await page.getByRole('button', { name: 'USD', exact: true }).click();
    const keypad = page.getByRole('group', { name: words.keypad });
    for (const key of ['1', '2', '3', '4']) await keypad.getByRole('button', { name: key, exact: true }).click();
    const point = keypad.getByRole('button', { name: words.point });
    await expect(point).toHaveText(language === 'en' ? '.' : ',');
    await point.click();
    await keypad.getByRole('button', { name: '5', exact: true }).click();
    await expect(page.getByTestId('pos-amount')).toHaveText(words.typed);
    await page.getByRole('button', { name: words.charge }).click();
    await expect(page.getByTestId('pos-sale-amount')).toHaveText(words.mlx);
    await expect(page.getByTestId('pos-sale-usd')).toHaveText(words.priced);
    await page.screenshot({ path: `test-results/screenshots/pos-usd-${language}-390.png`, fullPage: true });
  });
}

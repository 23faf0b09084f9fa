// Proves the Payments page's "Balance at the end of a day" in a real browser against a real Quern
// (ADR 089): for today it shows the merchant wallet's balance so far, which follows a payment just
// received; for yesterday (before the merchant's wallet existed) it shows zero; a day is written
// beside the field in the page's format; the section passes axe. Screenshot:
// test-results/screenshots/payments-balance-at-day.png.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { apiUser, faucet, loginByApi, trpcQuery } from './users.js';

const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';

test('a merchant reads its balance at the end of today and of yesterday on the Payments page', async ({ browser }) => {
  test.setTimeout(120_000);
  const merchant = await apiUser();
  const shopper = await apiUser();
  const { address } = await trpcQuery<{ address: string }>(shopper.api, 'wallet.address');
  await faucet(address, 500_000);
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(shopper.api, 'wallet.balance')).stable, { timeout: 60_000 })
    .toBe('500000');
  const data = {
    cart: [{ name: 'Green tea', price: '123456', quantity: 1 }],
    price: '123456',
    currency: 'MLX',
    to: merchant.user.userName,
  };
  const paid = await shopper.api.post('/api/quern/checkout', { data, headers: { origin: quernUrl() } });
  expect(((await paid.json()) as { success: boolean }).success).toBe(true);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await loginByApi(page.request, merchant.user);
  await page.goto('/payments');
  const section = page.locator('.payments-export', { has: page.getByRole('heading', { name: 'Balance at the end of a day' }) });
  await expect(section).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  await expect(section.getByLabel('Day')).toHaveValue(today);
  await expect(section.getByTestId('balance-at-day-current')).toHaveText('123,456 MLX');
  await expect(section.getByTestId('balance-at-day-pending')).toHaveText('0 MLX');
  await expect(section.getByTestId('balance-at-day')).toContainText('As of');
  const { violations } = await new AxeBuilder({ page }).include('.payments-export').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await section.screenshot({ path: 'test-results/screenshots/payments-balance-at-day.png' });

  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await section.getByLabel('Day').fill(yesterday);
  await expect(section.getByTestId('payments-balance-day-shown')).not.toHaveText('');
  await expect(section.getByTestId('balance-at-day-current')).toHaveText('0 MLX');
  await expect(section.getByTestId('balance-at-day')).toContainText('11:59 pm (UTC)');
  await section.screenshot({ path: 'test-results/screenshots/payments-balance-at-day-yesterday.png' });
  await context.close();
});

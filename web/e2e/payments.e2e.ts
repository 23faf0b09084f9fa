// Proves the payments page in a real browser against a real Quern: a merchant without payments
// sees the 'No data' card; after a shopper pays twice through the checkout call, the page lists
// both payments newest first with the shopper, the amount and the USD value, in a table at 1280 px
// and as cards at 375 px; Export CSV downloads the session export with its header and rows; the
// page is reached from API Direct and passes axe; a partial refund and then the rest, from the
// page, update the row and leave a refunded payment without a Refund button. Screenshots: test-results/screenshots/payments-*.png.
import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { apiUser, faucet, loginByApi, type TestUser, trpcQuery } from './users.js';

const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';

async function pay(shopper: APIRequestContext, merchant: TestUser, price: string): Promise<string> {
  const data = { cart: [{ name: 'Green tea', price, quantity: 1 }], price, currency: 'MLX', to: merchant.userName };
  const response = await shopper.post('/api/quern/checkout', { data, headers: { origin: quernUrl() } });
  const body = (await response.json()) as { success: boolean; order: string };
  expect(body.success).toBe(true);
  return body.order;
}

test('a merchant sees no data, then its received payments, and exports them as CSV', async ({ browser }) => {
  test.setTimeout(120_000);
  const merchant = await apiUser();
  const shopper = await apiUser();
  const { address } = await trpcQuery<{ address: string }>(shopper.api, 'wallet.address');
  await faucet(address, 1_000_000);
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(shopper.api, 'wallet.balance')).stable, { timeout: 60_000 })
    .toBe('1000000');

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await loginByApi(page.request, merchant.user);
  await page.goto('/api-direct');
  await page.getByRole('link', { name: 'Received payments and CSV export' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
  await expect(page.getByTestId('payments-no-data')).toContainText('No data');

  const first = await pay(shopper.api, merchant.user, '120000');
  const second = await pay(shopper.api, merchant.user, '80000');
  await expect
    .poll(
      async () => {
        await page.reload();
        // count() does not wait: wait for the list or the empty card to have loaded first.
        await page.locator('[data-testid="payment"], [data-testid="payments-no-data"]').first().waitFor();
        return page.getByTestId('payment').count();
      },
      { timeout: 30_000 },
    )
    .toBe(2);
  const rows = page.getByTestId('payment');
  await expect(rows.nth(0)).toContainText(second);
  await expect(rows.nth(0)).toContainText(shopper.user.userName);
  await expect(rows.nth(0)).toContainText('80,000 MLX');
  await expect(rows.nth(1)).toContainText(first);
  await expect(rows.nth(1)).toContainText('Paid');
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/payments-desktop.png', fullPage: true });

  const downloading = page.waitForEvent('download');
  await page.getByTestId('payments-export').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^quern-payments-\d{4}-01-01-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await download.path()) as string, 'utf8')).split('\r\n');
  expect(csv[0]).toBe('order,created,amount,refunded,currency,usd_rate,usd_value,shopper');
  expect(csv.slice(1, 3).map((line) => line.split(',')[0])).toEqual([first, second]);

  // A partial refund, then the rest: the row follows (read-your-writes), and a refunded payment offers no more.
  await rows.nth(1).getByRole('button', { name: 'Refund' }).click();
  await rows.nth(1).getByLabel('Amount to refund (MLX)').fill('20,000');
  await rows.nth(1).getByRole('button', { name: 'Refund 20,000 MLX' }).click();
  await expect(rows.nth(1)).toContainText('Refunded 20,000 MLX.');
  await expect(rows.nth(1)).toContainText('Partially refunded');
  await rows.nth(1).getByRole('button', { name: 'Refund' }).click();
  await rows.nth(1).getByRole('button', { name: 'Refund 100,000 MLX' }).click();
  await expect(rows.nth(1)).toContainText('Refunded 100,000 MLX.');
  await expect(rows.nth(1).locator('.payments-status')).toHaveText('Refunded');
  await expect(rows.nth(1).getByRole('button', { name: 'Refund' })).toHaveCount(0);
  await expect(rows.nth(0).getByRole('button', { name: 'Refund' })).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screenshots/payments-refunded.png', fullPage: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.locator('.payments-cards [data-testid="payment"]')).toHaveCount(2);
  await page.screenshot({ path: 'test-results/screenshots/payments-mobile.png', fullPage: true });
  await context.close();
  await merchant.api.dispose();
  await shopper.api.dispose();
});

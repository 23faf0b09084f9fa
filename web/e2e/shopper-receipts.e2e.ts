// Proves a shopper's records in a real browser against a real Quern (issue 28, ADR 091): after a
// checkout payment, the transaction popup on /account links to the receipt page, which shows the
// shop, the reference, the amount and the transaction; its PDF downloads and reads back with the
// same figures; the print view leaves out the site around the receipt; the account page's export
// downloads the CSV of the history with the payment's row; the receipt page passes axe. At 1280 px
// and at a phone's 375 px.
// Screenshots: test-results/screenshots/shopper-*.png.
import AxeBuilder from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { pdfText } from '@quern/test-support/pdf-text';
import { apiUser, faucet, loginByApi, type TestUser, trpcQuery } from './users.js';

const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';

async function pay(shopper: APIRequestContext, merchant: TestUser, price: string, reference: string): Promise<string> {
  const data = { cart: [{ name: 'Green tea', price, quantity: 1 }], price, currency: 'MLX', to: merchant.userName, reference };
  const response = await shopper.post('/api/quern/checkout', { data, headers: { origin: quernUrl() } });
  const body = (await response.json()) as { success: boolean; order: string };
  expect(body.success).toBe(true);
  return body.order;
}

async function pdfFileText(path: string): Promise<string> {
  return pdfText(new Uint8Array(await readFile(path)));
}

async function openReceiptFromPopup(page: Page, mobile: boolean): Promise<void> {
  await page.goto('/account');
  const row = mobile ? page.locator('.tx-card').filter({ hasText: 'ORD-E2E' }) : page.locator('tr.tx-row').filter({ hasText: 'ORD-E2E' });
  await row.first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('tx-receipt-link').click();
  await expect(page).toHaveURL(/\/receipts\/checkout-[A-Za-z0-9_-]+$/);
}

test('a shopper opens a payment’s receipt from the popup, downloads its PDF and exports the history as CSV', async ({ browser }) => {
  test.setTimeout(120_000);
  const merchant = await apiUser();
  const shopper = await apiUser();
  const { address } = await trpcQuery<{ address: string }>(shopper.api, 'wallet.address');
  await faucet(address, 1_000_000);
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(shopper.api, 'wallet.balance')).stable, { timeout: 60_000 })
    .toBe('1000000');
  const order = await pay(shopper.api, merchant.user, '120000', 'ORD-E2E');

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await loginByApi(page.request, shopper.user);
  await expect
    .poll(
      async () => {
        await page.goto('/account');
        await page.locator('tr.tx-row').first().waitFor();
        return page.locator('tr.tx-row').filter({ hasText: 'ORD-E2E' }).count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  await page.locator('tr.tx-row').filter({ hasText: 'ORD-E2E' }).click();
  await page.screenshot({ path: 'test-results/screenshots/shopper-popup-desktop.png' });
  await page.getByRole('dialog').getByTestId('tx-receipt-link').click();
  await expect(page).toHaveURL(new RegExp(`/receipts/checkout-${order}$`));

  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  await expect(receipt).toContainText('Payment to a shop');
  await expect(receipt.locator('[data-row="merchant"] dd')).toHaveText(merchant.user.userName);
  await expect(receipt.locator('[data-row="reference"] dd')).toHaveText('ORD-E2E');
  await expect(receipt.locator('[data-row="amount"] dd')).toHaveText('120,000 MLX');
  await expect(receipt.locator('[data-row="transactionId"] dd')).toHaveText(`checkout-${order}`);
  await expect(receipt.locator('[data-row="rate"] dd')).toContainText('1 MLX =');
  await page.screenshot({ path: 'test-results/screenshots/shopper-receipt-desktop.png', fullPage: true });
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // On paper: the receipt alone.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.site-header')).toBeHidden();
  await expect(page.locator('.receipt-actions')).toBeHidden();
  await expect(receipt).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/shopper-receipt-print.png', fullPage: true });
  await page.emulateMedia({ media: 'screen' });

  const downloadingPdf = page.waitForEvent('download');
  await page.getByTestId('receipt-pdf').click();
  const pdf = await downloadingPdf;
  expect(pdf.suggestedFilename()).toBe(`quern-receipt-checkout-${order}.pdf`);
  const text = await pdfFileText((await pdf.path()) as string);
  for (const expected of ['Receipt', merchant.user.userName, 'ORD-E2E', '120,000 MLX', `checkout-${order}`])
    expect(text).toContain(expected);
  const downloadingSpanish = page.waitForEvent('download');
  await page.getByTestId('receipt-pdf-other').click();
  const spanish = await pdfFileText((await (await downloadingSpanish).path()) as string);
  for (const expected of ['Recibo', 'ORD-E2E', '120.000 MLX']) expect(spanish).toContain(expected);

  // The history export from /account.
  await page.goto('/account');
  const exportSection = page.locator('.history-export');
  await exportSection.scrollIntoViewIfNeeded();
  await expect(exportSection.getByRole('heading', { name: 'Export your history' })).toBeVisible();
  await exportSection.screenshot({ path: 'test-results/screenshots/shopper-export-desktop.png' });
  const downloadingCsv = page.waitForEvent('download');
  await page.getByTestId('history-export').click();
  const csvFile = await downloadingCsv;
  expect(csvFile.suggestedFilename()).toMatch(/^quern-history-\d{4}-01-01-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await csvFile.path()) as string, 'utf8')).split('\r\n');
  expect(csv[0]).toBe('time,transaction,kind,counterparty,amount,fee,balance_after,usd_rate,usd_value');
  const paid = csv.find((line) => line.includes(`checkout-${order}`))?.split(',');
  expect(paid?.slice(2, 7)).toEqual(['checkout_payment', merchant.user.userName, '-120000', '0', '880000']);
  // A reversed range offers no download and says why.
  await page.getByTestId('history-export-from').fill('2030-01-02');
  await page.getByTestId('history-export-to').fill('2030-01-01');
  await expect(exportSection.getByRole('alert')).toHaveText('The end date must be on or after the start date.');
  await expect(page.getByTestId('history-export')).toHaveCount(0);
  await context.close();

  // A phone: the same receipt from the popup's card, and the export's form.
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, acceptDownloads: true });
  const small = await phone.newPage();
  await loginByApi(small.request, shopper.user);
  await openReceiptFromPopup(small, true);
  await expect(small.getByTestId('receipt').locator('[data-row="reference"] dd')).toHaveText('ORD-E2E');
  const width = await small.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  await small.screenshot({ path: 'test-results/screenshots/shopper-receipt-phone.png', fullPage: true });
  await small.goto('/account');
  await small.locator('.history-export').scrollIntoViewIfNeeded();
  await small.locator('.history-export').screenshot({ path: 'test-results/screenshots/shopper-export-phone.png' });

  // Another user's browser: the same receipt address is not theirs.
  const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const stranger = await other.newPage();
  await loginByApi(stranger.request, merchant.user);
  await stranger.goto(`/receipts/checkout-${order}`);
  await expect(stranger.getByText('That receipt is not in your account.')).toBeVisible();
  await phone.close();
  await other.close();
});

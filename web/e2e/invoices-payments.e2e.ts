// Proves the Invoices section of the payments page in a real browser against a real Quern: the
// merchant's invoices (created through tRPC, one paid through the simulated millix network) are
// listed newest first with their reference, amounts (USD when priced in USD), paid amount and
// status in words; the status filter keeps only that status; Void asks first, then voids an open
// invoice, and a paid one offers no Void; the invoices CSV downloads with its header and a row per
// invoice, oldest first; no sideways scroll at 390 px; light and dark. Screenshots:
// test-results/screenshots/invoices-*.png.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiUser, faucet, loginByApi, trpcMutation, trpcQuery } from './users.js';

interface Invoice {
  id: string;
  address: string;
  status: string;
}

test('a merchant lists, filters, voids and exports its invoices on the payments page', async ({ browser }) => {
  test.setTimeout(120_000);
  const merchant = await apiUser();
  const create = (input: Record<string, unknown>) =>
    trpcMutation<Invoice>(merchant.api, 'invoices.create', { ...input, idempotencyKey: randomUUID() });
  const toPay = await create({ amount: '3000', reference: 'paid-1', description: 'Paid by the network' });
  const toVoid = await create({ amount: '2000', reference: 'void-me', description: 'Two "large" coffees, to go' });
  const usd = await create({ amount: '1234.50', currency: 'USD', reference: 'usd-1' });
  await faucet(toPay.address, 3000, { confirmDelayMs: 200 });
  await expect
    .poll(async () => (await trpcQuery<Invoice>(merchant.api, 'invoices.get', { id: toPay.id })).status, { timeout: 60_000 })
    .toBe('paid');

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await loginByApi(page.request, merchant.user);
  await page.goto('/payments');
  const section = page.getByTestId('invoices-section');
  await expect(section.getByRole('heading', { name: 'Invoices', exact: true })).toBeVisible();
  const rows = section.getByTestId('invoice');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('usd-1');
  await expect(rows.nth(0).locator('.invoices-usd')).toHaveText('1,234.50 USD');
  await expect(rows.nth(0)).toContainText('Open');
  await expect(rows.nth(1)).toContainText('Two "large" coffees, to go');
  await expect(rows.nth(2)).toContainText('paid-1');
  await expect(rows.nth(2)).toContainText('3,000 MLX');
  await expect(rows.nth(2).getByTestId('invoice-status')).toHaveText('Paid');
  await expect(rows.nth(2).getByRole('button', { name: 'Void' })).toHaveCount(0);
  await expect(rows.nth(2).getByRole('link', { name: 'Open its page' })).toHaveAttribute('href', new RegExp(`/i/${toPay.id}$`));

  // The filter keeps the paid invoice alone.
  await section.getByLabel('Show').selectOption('paid');
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText('paid-1');
  await section.getByLabel('Show').selectOption('');
  await expect(rows).toHaveCount(3);

  // Void asks first; Cancel leaves it open; confirming voids it.
  await rows.nth(1).getByRole('button', { name: 'Void' }).click();
  await expect(rows.nth(1)).toContainText('Void this invoice?');
  await rows.nth(1).getByRole('button', { name: 'Cancel' }).click();
  await expect(rows.nth(1).getByTestId('invoice-status')).toHaveText('Open');
  await rows.nth(1).getByRole('button', { name: 'Void' }).click();
  await rows.nth(1).getByRole('button', { name: 'Void invoice' }).click();
  await expect(rows.nth(1).getByTestId('invoice-status')).toHaveText('Void');
  await expect(rows.nth(1).getByRole('button', { name: 'Void' })).toHaveCount(0);
  await section.getByLabel('Show').selectOption('void');
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText('void-me');
  await section.getByLabel('Show').selectOption('');
  await expect(rows).toHaveCount(3);
  await page.screenshot({ path: 'test-results/screenshots/invoices-desktop.png', fullPage: true });

  const downloading = page.waitForEvent('download');
  await page.getByTestId('invoices-export').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^quern-invoices-\d{4}-01-01-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await download.path()) as string, 'utf8')).split('\r\n');
  expect(csv[0]).toBe('invoice,created,status,currency,amount_mlx,amount_usd,usd_rate,paid_mlx,overpaid_mlx,reference,description,paid_at');
  expect(csv.slice(1, 4).map((line) => line.split(',').slice(0, 3))).toEqual([
    [toPay.id, expect.any(String), 'paid'],
    [toVoid.id, expect.any(String), 'void'],
    [usd.id, expect.any(String), 'open'],
  ]);
  expect(csv[2]).toContain('"Two ""large"" coffees, to go"');
  expect(csv[3]).toContain(',USD,');
  expect(csv[4]).toBe('');

  // A phone: cards, no sideways scroll; then the dark scheme.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(section.locator('.payments-cards [data-testid="invoice"]')).toHaveCount(3);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/screenshots/invoices-mobile.png', fullPage: true });
  // The shell's dark-mode switch sets this class on the body (and remembers it); the class is what the styles read.
  await page.evaluate(() => document.body.classList.add('dark-mode'));
  await page.screenshot({ path: 'test-results/screenshots/invoices-mobile-dark.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(section.locator('table [data-testid="invoice"]')).toHaveCount(3);
  await page.screenshot({ path: 'test-results/screenshots/invoices-desktop-dark.png', fullPage: true });
  await context.close();
  await merchant.api.dispose();
});

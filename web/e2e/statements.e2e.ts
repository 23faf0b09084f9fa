// Proves the Payments page's monthly statements in a real browser against a real Quern: after a
// shopper pays the merchant, the merchant picks this month, downloads the signed JSON (it is this
// merchant's open statement with the payment, and `npm run verify-statement` accepts it with the
// key from the Quern's own /api/v1/statement-key) and the PDF (pdfjs reads it back, with the same
// closing balance), in Spanish too. Screenshot: test-results/screenshots/statements-desktop.png.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { pdfPagesText } from '@quern/test-support/pdf-text';
import { apiUser, faucet, loginByApi, trpcQuery } from './users.js';

const run = promisify(execFile);
const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';

test('a merchant downloads this month’s signed statement as JSON and PDF, and both check out', async ({ browser }) => {
  test.setTimeout(120_000);
  const merchant = await apiUser();
  const shopper = await apiUser();
  const { address } = await trpcQuery<{ address: string }>(shopper.api, 'wallet.address');
  await faucet(address, 1_000_000);
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(shopper.api, 'wallet.balance')).stable, { timeout: 60_000 })
    .toBe('1000000');
  const data = {
    cart: [{ name: 'Green tea', price: '120000', quantity: 1 }],
    price: '120000',
    currency: 'MLX',
    to: merchant.user.userName,
  };
  const paid = await shopper.api.post('/api/quern/checkout', { data, headers: { origin: quernUrl() } });
  expect(((await paid.json()) as { success: boolean }).success).toBe(true);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await loginByApi(page.request, merchant.user);
  await page.goto('/payments');
  const section = page.getByTestId('statements');
  await expect(section.getByRole('heading', { name: 'Monthly statements' })).toBeVisible();
  const thisMonth = new Date().toISOString().slice(0, 7);
  await section.getByLabel('Month').selectOption(thisMonth);
  await expect(section).toContainText('This month is not over');
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/statements-desktop.png', fullPage: true });

  const jsonDownload = page.waitForEvent('download');
  await section.getByTestId('statement-json').click();
  const json = await jsonDownload;
  expect(json.suggestedFilename()).toBe(`quern-statement-${thisMonth}.json`);
  const file = (await json.path()) as string;
  const statement = JSON.parse(await readFile(file, 'utf8')) as {
    merchant_id: string;
    status: string;
    closing_balance: string;
    rows: Array<{ kind: string; amount: string; counterparty: string }>;
  };
  expect(statement).toMatchObject({ status: 'open', closing_balance: '120000' });
  expect(statement.rows.map((r) => [r.kind, r.amount, r.counterparty])).toEqual([['checkout_received', '120000', shopper.user.userName]]);
  const root = join(import.meta.dirname, '../..');
  const verified = await run('npm', ['run', '--silent', 'verify-statement', '--', file, '--url', quernUrl()], { cwd: root });
  expect(verified.stdout).toContain(`for ${thisMonth} (open), 1 row,`);

  for (const [language, label, closing] of [
    ['en', 'English', 'Closing balance: 120,000 MLX'],
    ['es', 'Spanish', 'Saldo final: 120.000 MLX'],
  ] as const) {
    await section.getByLabel('Language of the CSV and PDF').selectOption({ label });
    const pdfDownload = page.waitForEvent('download');
    await section.getByTestId('statement-pdf').click();
    const pdf = await pdfDownload;
    expect(pdf.suggestedFilename()).toBe(`quern-statement-${thisMonth}-${language}.pdf`);
    const text = (await pdfPagesText(await readFile((await pdf.path()) as string))).join('\n').replace(/\s+/g, ' ');
    expect(text).toContain(closing);
    expect(text).toContain(shopper.user.userName);
  }
  await context.close();
});

// Proves one number format and one date format per language across the app (issue 25), in a real
// browser against a real Quern, in English and Spanish at 390 and 1280 px: the dashboard's
// balance and its history dates, the Buy page's rate and the Send page's fee and typed amount use
// the language's own grouping ('1,234,567' / '1.234.567'; Spanish leaves four digits together:
// '1000'), dates read '27/11/2026, 1:32 pm' in English and '27/11/2026, 13:32' in Spanish, and the
// payments export shows its chosen days in the page's format beside the browser's date inputs.
// Axe checks the payments page with them. Screenshots: test-results/screenshots/formats-*.png.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { usePreferences } from './contentPages.js';
import { faucet, loginByApi, registerByApi, trpcQuery, uniqueUser } from './users.js';

const viewports = [
  { name: 'mobile', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

const texts = {
  en: {
    balance: '1,234,567 MLX',
    rate: /1 USD = 83,333 MLX/,
    fee: '1,000',
    typed: '12,500',
    total: '13,500 MLX',
    dateTime: /\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} (am|pm)/,
    from: 'From',
    amount: 'Amount',
    chosen: '05/03/2026',
  },
  es: {
    balance: '1.234.567 MLX',
    rate: /1 USD = 83\.333 MLX/,
    fee: '1000',
    typed: '12.500',
    total: '13.500 MLX',
    // 24-hour, no am/pm; the hour is not padded (Intl writes '0:25' after midnight, '13:32' after noon).
    dateTime: /\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2}(?! ?[ap]\.? ?m)/,
    from: 'Desde',
    amount: 'Importe',
    chosen: '05/03/2026',
  },
} as const;

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const FUNDED_MLX = 1_234_567;

for (const language of ['en', 'es'] as const) {
  for (const viewport of viewports) {
    test(`formats, ${language} ${viewport.name}: dashboard, buy, send and the payments filter write numbers and dates one way`, async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const text = texts[language];
      const shot = (name: string) => `test-results/screenshots/formats-${name}-${language}-${viewport.name}.png`;
      const user = uniqueUser();
      const context = await browser.newContext({
        baseURL: process.env.QUERN_E2E_BASE_URL,
        viewport: { width: viewport.width, height: viewport.height },
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      await usePreferences(page, { language });
      try {
        await registerByApi(context.request, user);
        await loginByApi(context.request, user);
        await faucet(user.userName, FUNDED_MLX);
        await expect
          .poll(() => trpcQuery<{ stable: string }>(context.request, 'wallet.balance').then((b) => b.stable), { timeout: 30_000 })
          .toBe(String(FUNDED_MLX));

        // Dashboard: the balance grouped in the language, the faucet's row dated in its format.
        await page.goto('/account');
        await expect(page.locator('.balance-mlx').first()).toHaveText(text.balance);
        if (viewport.name === 'desktop') {
          const history = page.locator('table.tx-table').last();
          await expect(history).toContainText(text.dateTime);
          await expect(history).toContainText(text.balance.replace(' MLX', ''));
        } else {
          await expect(page.locator('.tx-card-date').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
        }
        await page.screenshot({ path: shot('dashboard'), fullPage: true });

        // Buy: the rate in the language's grouping.
        await page.goto('/millix/buy');
        await expect(page.locator('.buy-rate')).toHaveText(text.rate);
        await page.screenshot({ path: shot('buy'), fullPage: true });

        // Send: the fee written as the language writes 1000, a typed amount in its grouping, the total.
        await page.goto('/millix/send');
        await expect(page.locator('body')).toContainText(`${text.fee} MLX`);
        const amount = page.getByLabel(text.amount, { exact: true });
        await amount.fill(text.typed);
        await expect(amount).toHaveValue(text.typed);
        await expect(page.locator('body')).toContainText(text.total);
        await page.screenshot({ path: shot('send'), fullPage: true });

        // Payments: the export's days in the page's format beside the browser's own date inputs.
        await page.goto('/payments');
        const from = page.getByLabel(text.from, { exact: true });
        await from.fill('2026-03-05');
        await expect(page.getByTestId('payments-export-from-shown')).toHaveText(text.chosen);
        const today = new Date();
        const todayText = [today.getUTCDate(), today.getUTCMonth() + 1]
          .map((n) => String(n).padStart(2, '0'))
          .concat(String(today.getUTCFullYear()))
          .join('/');
        await expect(page.getByTestId('payments-export-to-shown')).toHaveText(todayText);
        await from.fill('');
        await expect(page.getByTestId('payments-export-from-shown')).toHaveText('');
        await from.fill('2026-03-05');
        await expectNoSeriousViolations(page);
        await page.screenshot({ path: shot('payments'), fullPage: true });
      } finally {
        await context.close();
      }
    });
  }
}

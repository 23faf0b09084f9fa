// Proves the send page never drops or reinterprets a typed amount, in a real browser against a
// real Quern, in English and Spanish at 390 and 1280 px: '12.5', '12,5', '1x' and the other
// language's grouping stay on screen as typed, the field says 'Whole MLX only, for example
// 12,500' (12.500 in Spanish), Send stays disabled and no send leaves the page; an amount below
// the fee shows the summary with a warning; a valid amount shows who receives it (the username
// the server resolves, or a warning for a name nobody has), the amount, the fee and the total,
// and Send moves exactly that amount. Axe checks the page with the inline
// error and with the warning (screenshots in test-results/screenshots/send-amount-*.png).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiUser, faucet, loginByApi, registerByApi, trpcQuery, uniqueUser } from './users.js';

const viewports = [
  { name: 'mobile', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

const texts = {
  en: {
    to: 'To',
    amount: 'Amount',
    send: 'Send',
    whole: 'Whole MLX only, for example 12,500',
    bad: ['12.5', '12,5', '1x', '1,00', '12.500'],
    belowFee: 'The fee (1,000 MLX) is more than the amount you send.',
    valid: '12,500',
    total: '13,500 MLX',
    success: 'Transaction successful',
    user: (name: string) => `${name}, a Quern user`,
    unknown: 'No Quern account has this username or e-mail. Check it before you send.',
  },
  es: {
    to: 'Para',
    amount: 'Importe',
    send: 'Enviar',
    whole: 'Solo MLX enteros, por ejemplo 12.500',
    bad: ['12.5', '12,5', '1x', '1.00', '12,500'],
    belowFee: 'La comisión (1000 MLX) es mayor que el importe que usted envía.',
    valid: '12.500',
    total: '13.500 MLX',
    success: 'Transacción realizada',
    user: (name: string) => `${name}, usuario de Quern`,
    unknown: 'Ninguna cuenta de Quern tiene este nombre de usuario o correo electrónico. Revíselo antes de enviar.',
  },
} as const;

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const language of ['en', 'es'] as const) {
  for (const viewport of viewports) {
    test(`send amount, ${language} ${viewport.name}: bad amounts refused as typed, summary, below-fee warning, a valid send`, async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const text = texts[language];
      const shot = (name: string) => `test-results/screenshots/send-amount-${name}-${language}-${viewport.name}.png`;
      const sender = uniqueUser();
      const { user: payee, api: payeeApi } = await apiUser();
      const context = await browser.newContext({
        baseURL: process.env.QUERN_E2E_BASE_URL,
        viewport: { width: viewport.width, height: viewport.height },
        reducedMotion: 'reduce',
      });
      try {
        await context.addInitScript((value) => localStorage.setItem('quern.language', value), language);
        await registerByApi(context.request, sender);
        await loginByApi(context.request, sender);
        await faucet(sender.userName, 100_000);
        await expect
          .poll(() => trpcQuery<{ stable: string }>(context.request, 'wallet.balance').then((b) => b.stable), { timeout: 30_000 })
          .toBe('100000');

        const page = await context.newPage();
        const sends: string[] = [];
        page.on('request', (request) => {
          if (request.url().includes('wallet.send')) sends.push(request.postData() ?? '');
        });
        await page.goto('/millix/send');
        const amount = page.getByLabel(text.amount, { exact: true });
        const sendButton = page.getByRole('button', { name: text.send, exact: true });
        const error = page.locator('#send-amount-error');
        const summary = page.locator('.send-summary');
        await page.getByLabel(text.to, { exact: true }).fill(payee.userName);

        for (const bad of text.bad) {
          await test.step(`'${bad}' is refused as typed`, async () => {
            await amount.fill('');
            await amount.pressSequentially(bad);
            await expect(amount).toHaveValue(bad);
            await expect(error).toHaveText(text.whole);
            await expect(amount).toHaveAttribute('aria-invalid', 'true');
            await expect(sendButton).toBeDisabled();
            await expect(summary).toBeEmpty();
            await amount.press('Enter');
          });
        }
        await page.screenshot({ path: shot('error'), fullPage: true });
        await expectNoSeriousViolations(page);
        expect(sends).toEqual([]);

        await amount.fill('500');
        await expect(error).toHaveCount(0);
        // The server names who the MLX reach; a name nobody has is warned about before Send.
        await expect(page.getByTestId('send-recipient')).toHaveText(text.user(payee.userName.toLowerCase()));
        const to = page.getByLabel(text.to, { exact: true });
        await to.fill(`nobody_${payee.userName}`.slice(0, 32));
        await expect(page.locator('.send-recipient-warning')).toHaveText(text.unknown);
        await page.screenshot({ path: shot('unknown-recipient'), fullPage: true });
        await expectNoSeriousViolations(page);
        await to.fill(payee.userName);
        await expect(page.getByTestId('send-recipient')).toHaveText(text.user(payee.userName.toLowerCase()));
        await expect(page.locator('.send-below-fee')).toHaveText(text.belowFee);
        await page.screenshot({ path: shot('below-fee'), fullPage: true });
        await expectNoSeriousViolations(page);

        await amount.fill('');
        await amount.pressSequentially('12500');
        await expect(amount).toHaveValue(text.valid);
        await expect(page.locator('.send-below-fee')).toHaveCount(0);
        await expect(summary.locator('.send-summary-total dd')).toHaveText(text.total);
        await expect(summary).toContainText(`${text.valid} MLX`);
        await expect(sendButton).toBeEnabled();
        await page.screenshot({ path: shot('summary'), fullPage: true });
        await sendButton.click();
        await expect(page.getByRole('alertdialog').getByRole('heading', { name: text.success })).toBeVisible({ timeout: 15_000 });
        expect(sends).toHaveLength(1);
        expect(sends[0]).toContain('"amount":"12500"');
        expect(sends[0]).toContain(`"to":"${payee.userName}"`);
      } finally {
        await context.close();
        await payeeApi.dispose();
      }
    });
  }
}

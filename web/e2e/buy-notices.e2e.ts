// Proves that the Buy page tells the buyer what became of a payment that took no money, against a
// real Quern with the local PayPal server and its capture worker: 'Decline card' in PayPal's
// window (INSTRUMENT_DECLINED at capture) shows 'Your card was declined. Nothing was charged. Try
// another card.' while the window starts over, credits nothing, and a later approval completes the
// purchase; closing PayPal's window (the SDK's onCancel) shows 'Payment cancelled. Nothing was
// charged.', cleared when the buyer opens PayPal again. In English and Spanish at 390 and 1280 px,
// with screenshots (test-results/screenshots/buy-notice-*.png) and axe on each notice.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { loginByApi, registerByApi, trpcQuery, uniqueUser } from './users.js';

/** The capture waits for the capture worker (CAPTURE_WAIT_MS, 20 s by default) before it answers. */
const CAPTURE_TIMEOUT_MS = 30_000;
/** The e2e server's rate (global-setup.ts): 10 USD buys 833,333 MLX. */
const MLX_FOR_10_USD = '833333';

const texts = {
  en: {
    rate: '1 USD = 83,333 MLX',
    amount: 'Purchase amount',
    continue: 'Continue',
    declined: 'Your card was declined. Nothing was charged. Try another card.',
    cancelled: 'Payment cancelled. Nothing was charged.',
    success: 'Payment successful',
  },
  es: {
    rate: '1 USD = 83.333 MLX',
    amount: 'Importe de la compra',
    continue: 'Continuar',
    declined: 'Su tarjeta fue rechazada. No se ha cobrado nada. Pruebe con otra tarjeta.',
    cancelled: 'Pago cancelado. No se ha cobrado nada.',
    success: 'Pago realizado',
  },
} as const;

const openContexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(openContexts.splice(0).map((context) => context.close()));
});

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function openPayPal(page: Page): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'PayPal', exact: true }).click()]);
  await popup.waitForURL(/\/paypal-local\/checkoutnow\?token=/);
  return popup;
}

const balanceOf = (page: Page) =>
  trpcQuery<{ stable: string; unstable: string }>(page.request, 'wallet.balance').then(({ stable, unstable }) => ({ stable, unstable }));

for (const language of ['en', 'es'] as const) {
  for (const width of [390, 1280] as const) {
    test(`a declined card and a closed PayPal window each say nothing was charged (${language}, ${width} px)`, async ({ browser }) => {
      test.setTimeout(120_000);
      const say = texts[language];
      const shot = (name: string) => `test-results/screenshots/buy-notice-${name}-${language}-${width}.png`;
      const context = await browser.newContext({
        baseURL: process.env.QUERN_E2E_BASE_URL,
        viewport: { width, height: 844 },
        reducedMotion: 'reduce',
      });
      openContexts.push(context);
      await context.addCookies([{ name: 'quern.language', value: language, url: process.env.QUERN_E2E_BASE_URL ?? '' }]);
      const user = uniqueUser();
      await registerByApi(context.request, user);
      await loginByApi(context.request, user);
      const page = await context.newPage();

      const toPayPalView = async () => {
        await page.goto('/millix/buy');
        await expect(page.getByText(say.rate)).toBeVisible();
        await page.getByLabel(say.amount).fill('10');
        await page.getByRole('button', { name: say.continue, exact: true }).click();
        await expect(page.getByRole('button', { name: 'PayPal', exact: true })).toBeVisible();
      };
      await toPayPalView();

      // Declined at capture: the page says so while PayPal's window starts over; nothing credited.
      const popup = await openPayPal(page);
      await popup.getByRole('button', { name: 'Decline card' }).click();
      const declined = page.getByRole('alert').filter({ hasText: say.declined });
      await expect(declined).toBeVisible({ timeout: CAPTURE_TIMEOUT_MS });
      await expect(popup.getByRole('button', { name: 'Approve payment' })).toBeVisible();
      expect(await balanceOf(page)).toEqual({ stable: '0', unstable: '0' });
      await page.screenshot({ path: shot('declined') });
      await expectNoSeriousViolations(page);

      // Another try in the same window pays, and the notice goes.
      await popup.getByRole('button', { name: 'Approve payment' }).click();
      const success = page.getByRole('alertdialog', { name: say.success });
      await expect(success).toBeVisible({ timeout: CAPTURE_TIMEOUT_MS });
      await expect(page.getByTestId('buy-notice')).toHaveCount(0);
      expect(await balanceOf(page)).toEqual({ stable: MLX_FOR_10_USD, unstable: '0' });

      // Closing PayPal's window: cancelled, nothing charged; opening PayPal again clears it.
      await toPayPalView();
      const second = await openPayPal(page);
      await second.close();
      const cancelled = page.getByRole('status').filter({ hasText: say.cancelled });
      await expect(cancelled).toBeVisible();
      expect(await balanceOf(page)).toEqual({ stable: MLX_FOR_10_USD, unstable: '0' });
      await page.screenshot({ path: shot('cancelled') });
      await expectNoSeriousViolations(page);
      const third = await openPayPal(page);
      await expect(page.getByTestId('buy-notice')).toHaveCount(0);
      await third.close();
      await expect(cancelled).toBeVisible();
    });
  }
}

// Proves the dashboard's truth (issue 25, ADR 062) in a real browser against a real Quern, in
// English and Spanish at 390 and 1280 px: a deposit the network reports shows as pending (with
// words, not DEBIT/CREDIT) before it confirms, a polite notice says money arrived, an outgoing
// send counts in the signed Pending figure with its fee beside the amount, and the detail's Type
// says what happened in words; the detail has its own URL (reload shows it, close returns to
// /account, an unknown hash says so); axe finds nothing serious with the notice shown, the detail
// open and the not-found message (screenshots in test-results/screenshots/dashboard-*.png).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type Language, usePreferences } from './contentPages.js';
import { apiUser, faucet, loginByApi, registerByApi, trpcMutation, trpcQuery, uniqueUser } from './users.js';

const MINUS = '\u2212';
/** Long enough that the deposit is certainly pending while the page is looked at. */
const DEPOSIT_CONFIRM_DELAY_MS = 60_000;

const words = {
  en: {
    received: 'Received from',
    sent: 'Sent to',
    notice: 'You received 50,000 MLX',
    pending: '+50,000 MLX',
    pendingAfterSend: '+29,000 MLX',
    fee: 'incl. 1,000 MLX fee',
    detail: 'Transaction details',
    type: 'SENT',
    dismiss: 'Dismiss',
    pendingTitle: 'Pending transactions',
    close: 'Close',
    notFound: 'That transaction is not in your account. Check the link, or open it from your list of transactions.',
  },
  es: {
    received: 'Recibido de',
    sent: 'Enviado a',
    notice: 'Ha recibido 50.000 MLX',
    pending: '+50.000 MLX',
    pendingAfterSend: '+29.000 MLX',
    fee: 'incl. comisión de 1000 MLX',
    detail: 'Detalles de la transacción',
    type: 'ENVIADO',
    dismiss: 'Cerrar aviso',
    pendingTitle: 'Transacciones pendientes',
    close: 'Cerrar',
    notFound: 'Esa transacción no está en su cuenta. Compruebe el enlace o ábrala desde su lista de transacciones.',
  },
} as const;

const sizes = [
  { name: 'mobile', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const language of ['en', 'es'] as const satisfies readonly Language[]) {
  for (const size of sizes) {
    test(`dashboard truth, ${language}, ${size.width} px`, async ({ page }) => {
      test.setTimeout(120_000);
      const w = words[language];
      await page.setViewportSize({ width: size.width, height: size.height });
      await usePreferences(page, { language });
      const user = uniqueUser();
      await registerByApi(page.request, user);
      await loginByApi(page.request, user);
      const { address } = await trpcQuery<{ address: string }>(page.request, 'wallet.address');
      await faucet(address, 100_000);
      await expect
        .poll(async () => (await trpcQuery<{ stable: string }>(page.request, 'wallet.balance')).stable, { timeout: 30_000 })
        .toBe('100000');

      await page.goto('/account');
      await expect(page.locator('.balance-current .balance-mlx')).toBeVisible();
      const pendingFigure = page.locator('.balance-pending .balance-mlx');
      await expect(pendingFigure).toHaveText('0 MLX');

      // A deposit the network reports: pending on screen well before it confirms, announced politely.
      await faucet(address, 50_000, { confirmDelayMs: DEPOSIT_CONFIRM_DELAY_MS });
      const pendingSection = page.getByRole('region', { name: w.pendingTitle });
      await expect(pendingSection).toContainText(w.received, { timeout: 8_000 });
      await expect(pendingFigure).toHaveText(w.pending);
      const notice = page.getByRole('status').filter({ hasText: w.notice });
      await expect(notice).toBeVisible();
      await expect(page.locator('.arrival-notice')).toHaveAttribute('aria-live', 'polite');
      await page.screenshot({ path: `test-results/screenshots/dashboard-deposit-${language}-${size.width}.png`, fullPage: true });
      await expectNoSeriousViolations(page);
      await notice.getByRole('button', { name: w.dismiss }).click();
      await expect(page.locator('.arrival-notice')).toBeEmpty();

      // An outgoing send waiting for settlement: Pending is incoming minus outgoing (amount plus fee).
      const payee = await apiUser();
      const payeeAddress = (await trpcQuery<{ address: string }>(payee.api, 'wallet.address')).address;
      await trpcMutation(page.request, 'wallet.send', { to: payeeAddress, amount: '20000', fee: '1000' });
      await expect(pendingSection).toContainText(w.sent);
      await expect(pendingSection).toContainText(w.fee);
      await expect(pendingFigure).toHaveText(w.pendingAfterSend);
      await expect(pendingFigure).not.toContainText(MINUS);
      await page.screenshot({ path: `test-results/screenshots/dashboard-send-${language}-${size.width}.png`, fullPage: true });

      // The detail of the send: its Type in words.
      const sentRow =
        size.name === 'mobile'
          ? pendingSection.locator('.tx-card').filter({ hasText: w.sent })
          : pendingSection.locator('tr').filter({ hasText: w.sent }).getByRole('button');
      await sentRow.click();
      const dialog = page.getByRole('dialog', { name: w.detail });
      await expect(dialog).toBeVisible();
      await expect(dialog.locator('dd[data-direction="debit"]')).toHaveText(w.type);
      await page.screenshot({ path: `test-results/screenshots/dashboard-detail-${language}-${size.width}.png` });
      await expectNoSeriousViolations(page);

      // The detail has its own URL: a reload shows it again, closing returns to /account.
      await expect(page).toHaveURL(/\/account\/transactions\/[A-Za-z0-9_:-]+$/);
      await page.reload();
      await expect(page.getByRole('dialog', { name: w.detail }).locator('dd[data-direction="debit"]')).toHaveText(w.type);
      await page.getByRole('dialog', { name: w.detail }).getByRole('button', { name: w.close }).click();
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // A hash that is not the user's: the popup says so instead of showing someone else's rows.
      await page.goto('/account/transactions/not-a-transaction-of-mine');
      const missing = page.getByRole('dialog', { name: w.detail });
      await expect(missing.getByRole('alert')).toHaveText(w.notFound);
      await page.screenshot({ path: `test-results/screenshots/dashboard-not-found-${language}-${size.width}.png` });
      await expectNoSeriousViolations(page);
      await payee.api.dispose();
    });
  }
}

// Spanish addresses the reader as usted on the screens that used to say tú: the subscriptions list
// and the checkout popup ("Su pedido", no longer "Tu pedido"). A new shopper sees both, in English and Spanish, at 390 px
// and 1280 px; screenshots: test-results/screenshots/usted-*.png. Every text is also scanned by
// web/src/i18n/usted.unit.spec.ts; this shows the rendered screens.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { usePreferences } from './contentPages.js';
import { apiUser, checkoutUrl, loginByApi, registerByApi, uniqueUser } from './users.js';

const TEXTS = {
  en: { noSubscriptions: 'You have no subscriptions yet.', order: 'Your order' },
  es: { noSubscriptions: 'Todavía no tiene suscripciones.', order: 'Su pedido' },
} as const;

const VIEWPORTS = [
  { name: '390', width: 390, height: 844 },
  { name: '1280', width: 1280, height: 900 },
] as const;

/** Serious and critical axe findings on the page, as "rule: help". */
async function blockingViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

for (const language of ['en', 'es'] as const) {
  for (const viewport of VIEWPORTS) {
    test(`subscriptions and the checkout popup address the reader politely (${language}, ${viewport.name} px)`, async ({ browser }) => {
      const { user: merchant, api: merchantApi } = await apiUser();
      const context = await browser.newContext({ viewport: viewport, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await usePreferences(page, { language });
      try {
        const shopper = uniqueUser();
        await registerByApi(context.request, shopper);
        await loginByApi(context.request, shopper);

        await page.goto('/subscriptions/all');
        await expect(page.getByText(TEXTS[language].noSubscriptions)).toBeVisible();
        await page.screenshot({ path: `test-results/screenshots/usted-subscriptions-${language}-${viewport.name}.png`, fullPage: true });
        expect(await blockingViolations(page)).toEqual([]);

        await page.goto(checkoutUrl(merchant.userName, `usted-${language}`));
        await expect(page.getByRole('table', { name: TEXTS[language].order })).toBeVisible();
        await page.screenshot({ path: `test-results/screenshots/usted-checkout-${language}-${viewport.name}.png`, fullPage: true });
        expect(await blockingViolations(page)).toEqual([]);
      } finally {
        await context.close();
        await merchantApi.dispose();
      }
    });
  }
}

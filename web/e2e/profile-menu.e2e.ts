// Proves a merchant finds Payments, Developers and Subscription plans in the profile menu, in
// English and Spanish, at 1280 px and 390 px (where the links fold into the Menu button): each
// entry is there with the menu open (axe finds nothing serious) and leads to its page.
// Screenshots: test-results/screenshots/profile-menu-*.png.
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { loginByApi, registerByApi, uniqueUser } from './users.js';

const texts = {
  en: {
    menu: 'Menu',
    account: 'Account menu',
    entries: [
      { link: 'Payments', path: /\/payments$/, heading: 'Payments' },
      { link: 'Developers', path: /\/developers$/, heading: 'Take payments on your own site' },
      { link: 'Subscription plans', path: /\/subscription-plans\/all$/, heading: 'Subscription plans' },
    ],
  },
  es: {
    menu: 'Menú',
    account: 'Menú de la cuenta',
    entries: [
      { link: 'Pagos', path: /\/payments$/, heading: 'Pagos' },
      { link: 'Desarrolladores', path: /\/developers$/, heading: 'Cobre en su propio sitio' },
      { link: 'Planes de suscripción', path: /\/subscription-plans\/all$/, heading: 'Planes de suscripción' },
    ],
  },
} as const;

const seriousViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);

for (const language of ['en', 'es'] as const) {
  for (const width of [1280, 390] as const) {
    test(`the profile menu leads to Payments, Developers and Subscription plans (${language}, ${width} px)`, async ({ page }) => {
      const t = texts[language];
      await page.setViewportSize({ width, height: 900 });
      await page.context().addCookies([{ name: 'quern.language', value: language, url: process.env.QUERN_E2E_BASE_URL ?? '' }]);
      const user = uniqueUser();
      await registerByApi(page.request, user);
      await loginByApi(page.request, user);

      /** Opens the profile dropdown; on a phone the Menu button unfolds the links first. */
      const openMenu = async () => {
        if (width < 768) await page.getByRole('button', { name: t.menu, exact: true }).click();
        await page.getByRole('button', { name: `${t.account}: ${user.userName}` }).click();
      };

      await page.goto('/account');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await openMenu();
      for (const entry of t.entries) await expect(page.getByRole('link', { name: entry.link, exact: true })).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/profile-menu-open-${language}-${width}.png` });
      expect(await seriousViolations(page)).toEqual([]);

      for (const entry of t.entries) {
        await page.goto('/account');
        await openMenu();
        await page.getByRole('link', { name: entry.link, exact: true }).click();
        await expect(page).toHaveURL(entry.path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(entry.heading);
      }
    });
  }
}

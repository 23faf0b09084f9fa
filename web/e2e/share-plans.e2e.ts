// Proves the shareable plans link in a real browser against a real Quern: the merchant's plans
// list and plan page show <origin>/user/<username> with Copy, which puts it on the clipboard and
// says 'Copied'; a signed-out visitor opening it is sent to sign-in, which says why ('Sign in to
// see <merchant>'s plans'), and after signing in lands on the merchant's plans; the same for
// /contact; a crafted return path to another site ('//evil.example', 'https://evil.example')
// lands on the app's own /account. English and Spanish, 390 and 1280 px, axe on the sign-in page
// with its reason. Screenshots: test-results/screenshots/share-plans-*.png.
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type Page, expect, test } from '@playwright/test';
import { apiUser, type TestUser, trpcMutation } from './users.js';

const baseUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';

const seriousViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);

const texts = {
  en: {
    copy: 'Copy link',
    copied: 'Copied',
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    plansReason: (name: string) => `Sign in to see ${name}'s plans`,
    contactReason: 'Sign in to contact us',
    contactTitle: 'Contact Us',
  },
  es: {
    copy: 'Copiar enlace',
    copied: 'Copiado',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
    plansReason: (name: string) => `Inicie sesión para ver los planes de ${name}`,
    contactReason: 'Inicie sesión para contactarnos',
    contactTitle: null,
  },
} as const;

type Language = keyof typeof texts;

async function pageIn(browser: Browser, language: Language, width: number): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'quern.language', value: language, url: baseUrl() }]);
  return context.newPage();
}

async function signInByForm(page: Page, language: Language, user: TestUser): Promise<void> {
  const t = texts[language];
  await page.getByLabel(t.email).fill(user.email);
  await page.getByLabel(t.password, { exact: true }).fill(user.password);
  await page.locator('form').getByRole('button', { name: t.signIn }).click();
}

for (const language of ['en', 'es'] as const) {
  for (const width of [390, 1280] as const) {
    const shot = (name: string) => `test-results/screenshots/share-plans-${name}-${language}-${width}.png`;

    test(`the merchant copies the public link; a signed-out visitor signs in and lands on the plans (${language}, ${width} px)`, async ({
      browser,
    }) => {
      const t = texts[language];
      const merchant = await apiUser();
      const planName = `Gold ${merchant.user.userName}`;
      const { id: planId } = await trpcMutation<{ id: string }>(merchant.api, 'plans.create', {
        name: planName,
        description: 'Every article, every month.',
        price: 1500,
        currency: 'mlx',
        duration: 'monthly',
      });
      const publicUrl = `${new URL(baseUrl()).origin}/user/${merchant.user.userName}`;

      const merchantPage = await pageIn(browser, language, width);
      await merchantPage.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await merchantPage.request.post('/api/user/login', { data: { email: merchant.user.email, password: merchant.user.password } });
      await merchantPage.goto(`/subscription-plans/${planId}`);
      await expect(merchantPage.getByTestId('public-link')).toHaveText(publicUrl);
      await merchantPage.goto('/subscription-plans/all');
      await expect(merchantPage.getByTestId('public-link')).toHaveText(publicUrl);
      await merchantPage.getByRole('button', { name: t.copy }).click();
      await expect(merchantPage.locator('.plans-share [role="status"]')).toHaveText(t.copied);
      await expect(merchantPage.locator('.plans-share').getByRole('button', { name: t.copied })).toBeVisible();
      expect(await merchantPage.evaluate(() => navigator.clipboard.readText())).toBe(publicUrl);
      await merchantPage.screenshot({ path: shot('list'), fullPage: true });
      expect(await seriousViolations(merchantPage)).toEqual([]);
      // Nothing may push a phone screen sideways, however long the link.
      expect(await merchantPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      const visitor = await apiUser();
      const visitorPage = await pageIn(browser, language, width);
      await visitorPage.goto(publicUrl);
      await expect(visitorPage).toHaveURL(/\/login\?next=%2Fuser%2F/);
      await expect(visitorPage.locator('.auth-reason')).toHaveText(t.plansReason(merchant.user.userName));
      await visitorPage.screenshot({ path: shot('sign-in-reason'), fullPage: true });
      expect(await seriousViolations(visitorPage)).toEqual([]);
      await signInByForm(visitorPage, language, visitor.user);
      await expect(visitorPage).toHaveURL(publicUrl);
      await expect(visitorPage.getByText(planName)).toBeVisible();
      await visitorPage.screenshot({ path: shot('landed'), fullPage: true });
    });

    test(`a signed-out visitor opening /contact is told why sign-in is needed and returns there (${language}, ${width} px)`, async ({
      browser,
    }) => {
      const t = texts[language];
      const visitor = await apiUser();
      const page = await pageIn(browser, language, width);
      await page.goto('/contact');
      await expect(page).toHaveURL(/\/login\?next=%2Fcontact$/);
      await expect(page.locator('.auth-reason')).toHaveText(t.contactReason);
      await page.screenshot({ path: shot('contact-reason'), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await signInByForm(page, language, visitor.user);
      await expect(page).toHaveURL(/\/contact$/);
      if (t.contactTitle) await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.contactTitle);
    });
  }

  for (const crafted of ['//evil.example', 'https://evil.example']) {
    test(`a crafted return path ${crafted} lands on the app's own page after sign-in (${language})`, async ({ browser }) => {
      const visitor = await apiUser();
      const page = await pageIn(browser, language, 1280);
      await page.goto(`/login?next=${encodeURIComponent(crafted)}`);
      await expect(page.locator('.auth-reason')).toHaveCount(0);
      await signInByForm(page, language, visitor.user);
      await expect(page).toHaveURL(`${new URL(baseUrl()).origin}/account`);
    });
  }
}

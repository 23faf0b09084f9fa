// Proves payment links in a real browser against a real Quern (ADR 084): a merchant creates a
// fixed link on the Payments page and sees it listed with its URL; a visitor (another browser, not
// signed in) opens /pay/{slug}, sees the merchant, description and amount, and "Continue to pay"
// takes them to a fresh invoice's page /i/in_…; an open link takes the visitor's amount; a link
// turned off says so. Amounts are written in the page's one number format (ADR 058), MLX and USD,
// English and Spanish, and MLX typed grouped is read. The section's form fits a 390 px phone and a
// 1280 px desktop. Screenshots: test-results/screenshots/pay-link-*.png, payment-links-*.png.
import { expect, type Page, test } from '@playwright/test';
import { type Language, usePreferences } from './contentPages.js';
import { loginByApi, registerByApi, uniqueUser } from './users.js';

test.use({ reducedMotion: 'reduce' });

test('a merchant creates a payment link and a visitor continues from it to a fresh invoice', async ({ page, browser }) => {
  const merchant = uniqueUser();
  await registerByApi(page.request, merchant);
  await loginByApi(page.request, merchant);

  await page.goto('/payments');
  const section = page.getByRole('region', { name: 'Payment links' });
  await section.getByLabel('Amount', { exact: true }).fill('2500');
  await section.getByLabel('Description (optional)').fill('Espresso');
  await section.getByRole('button', { name: 'Create link' }).click();
  await expect(section.getByText('Link created.')).toBeVisible();
  const url = section.getByTestId('payment-link-url').first();
  await expect(url).toHaveText(/\/pay\/[A-Za-z0-9_-]{12}$/);
  const slug = (await url.textContent())?.split('/pay/')[1] ?? '';
  await expect(section.getByTestId('payment-link').first().locator('strong')).toHaveText('2,500 MLX');

  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  const visit = await visitor.newPage();
  const direct = await visit.goto(`/pay/${slug}`);
  expect(direct?.status()).toBe(200);
  await expect(visit.getByRole('heading', { level: 1 })).toContainText('Pay');
  await expect(visit.getByText('Espresso')).toBeVisible();
  await expect(visit.getByTestId('pay-link-amount').locator('strong')).toHaveText('2,500 MLX');
  await visit.screenshot({ path: 'test-results/screenshots/pay-link-390.png', fullPage: true });
  await visit.getByRole('button', { name: 'Continue to pay' }).click();
  await expect(visit).toHaveURL(/\/i\/in_[0-9a-f]{32}$/);

  // Turned off, the link says so and offers no button.
  await page.getByTestId('payment-link').first().getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByTestId('payment-link').first()).toContainText('Off');
  await visit.goto(`/pay/${slug}`);
  await expect(visit.getByText('This payment link is turned off')).toBeVisible();
  await expect(visit.getByRole('button', { name: 'Continue to pay' })).toHaveCount(0);
  await visitor.close();
});

test('an open link takes the amount the visitor types, within its bounds', async ({ page, browser }) => {
  const merchant = uniqueUser();
  await registerByApi(page.request, merchant);
  await loginByApi(page.request, merchant);
  await page.goto('/payments');
  const section = page.getByRole('region', { name: 'Payment links' });
  await section.getByLabel('The visitor chooses').check();
  await section.getByLabel('Minimum (optional)').fill('100');
  // Typed grouped, as the page writes amounts: read as 50000.
  await section.getByLabel('Maximum (optional)').fill('50,000');
  await section.getByRole('button', { name: 'Create link' }).click();
  const url = section.getByTestId('payment-link-url').first();
  await expect(url).toHaveText(/\/pay\//);
  const slug = (await url.textContent())?.split('/pay/')[1] ?? '';

  const visitor = await browser.newContext();
  const visit = await visitor.newPage();
  await visit.goto(`/pay/${slug}`);
  const amount = visit.getByLabel('Amount to pay (MLX)');
  await expect(visit.locator('#pay-link-hint')).toHaveText('From 100 to 50,000 MLX.');
  await amount.fill('50');
  await visit.getByRole('button', { name: 'Continue to pay' }).click();
  await expect(visit.getByText('The amount must be at least 100 MLX.')).toBeVisible();
  await amount.fill('1,500');
  await visit.getByRole('button', { name: 'Continue to pay' }).click();
  await expect(visit).toHaveURL(/\/i\/in_[0-9a-f]{32}$/);
  await expect(visit.getByTestId('invoice-amount')).toHaveText('1,500 MLX');
  await visitor.close();
});

const PAY_PAGE_AMOUNTS = {
  en: { usd: '1,234.50 USD', mlx: '25,000 MLX' },
  es: { usd: '1234,50 USD', mlx: '25.000 MLX' },
} as const;

/** The two links' pay pages on a phone and a desktop: the amount in the language's format, no sideways scroll. */
async function expectPayPages(visit: Page, language: Language, slugs: { usd: string; mlx: string }): Promise<void> {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    await visit.setViewportSize(viewport);
    await visit.goto(`/pay/${slugs.usd}`);
    await expect(visit.getByTestId('pay-link-amount').locator('strong')).toHaveText(PAY_PAGE_AMOUNTS[language].usd);
    await expectNoSidewaysScroll(visit);
    await visit.screenshot({ path: `test-results/screenshots/pay-link-usd-${language}-${viewport.width}.png`, fullPage: true });
    await visit.goto(`/pay/${slugs.mlx}`);
    await expect(visit.getByTestId('pay-link-amount').locator('strong')).toHaveText(PAY_PAGE_AMOUNTS[language].mlx);
  }
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

test("link amounts are written in the page's number format, MLX and USD, in English and Spanish, on a phone and a desktop", async ({
  page,
  browser,
}) => {
  const merchant = uniqueUser();
  await registerByApi(page.request, merchant);
  await loginByApi(page.request, merchant);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/payments');
  const section = page.getByRole('region', { name: 'Payment links' });
  // After the payments and the invoices, not between them.
  await expect(section).toBeVisible();
  await expect(page.getByTestId('invoices-section')).toBeVisible();
  expect(
    await page.evaluate(() => {
      const links = document.querySelector('.payment-links');
      const invoices = document.querySelector('[data-testid="invoices-section"]');
      return invoices !== null && links !== null && (invoices.compareDocumentPosition(links) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    }),
  ).toBe(true);
  await section.getByLabel('Currency').selectOption('USD');
  await section.getByLabel('Amount', { exact: true }).fill('1234.50');
  await section.getByLabel('Description (optional)').fill('Catering for twelve');
  await section.getByRole('button', { name: 'Create link' }).click();
  await expect(section.getByText('Link created.')).toBeVisible();
  await section.getByLabel('Currency').selectOption('MLX');
  await section.getByLabel('Amount', { exact: true }).fill('25000');
  await section.getByLabel('Description (optional)').fill('Coffee beans, 1 kg');
  await section.getByRole('button', { name: 'Create link' }).click();
  const links = section.getByTestId('payment-link');
  await expect(links).toHaveCount(2);
  await expect(links.nth(0).locator('strong')).toHaveText('25,000 MLX');
  await expect(links.nth(1).locator('strong')).toHaveText('1,234.50 USD');
  const slugOf = async (index: number) =>
    ((await links.nth(index).getByTestId('payment-link-url').textContent()) ?? '').split('/pay/')[1] ?? '';
  const mlxSlug = await slugOf(0);
  const usdSlug = await slugOf(1);
  await expectNoSidewaysScroll(page);
  await section.screenshot({ path: 'test-results/screenshots/payment-links-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await section.screenshot({ path: 'test-results/screenshots/payment-links-390.png' });

  // Visitors, not signed in, in each language.
  const english = await browser.newContext({ reducedMotion: 'reduce' });
  const spanish = await browser.newContext({ reducedMotion: 'reduce' });
  const englishPage = await english.newPage();
  const spanishPage = await spanish.newPage();
  await usePreferences(englishPage, { language: 'en' });
  await usePreferences(spanishPage, { language: 'es' });
  await expectPayPages(englishPage, 'en', { usd: usdSlug, mlx: mlxSlug });
  await expectPayPages(spanishPage, 'es', { usd: usdSlug, mlx: mlxSlug });
  await english.close();
  await spanish.close();
});

// Proves payment links in a real browser against a real Quern (ADR 084): a merchant creates a
// fixed link on the Payments page and sees it listed with its URL; a visitor (another browser, not
// signed in) opens /pay/{slug}, sees the merchant, description and amount, and "Continue to pay"
// takes them to a fresh invoice's page /i/in_…; an open link takes the visitor's amount; a link
// turned off says so. Screenshot: test-results/screenshots/pay-link-390.png.
import { expect, test } from '@playwright/test';
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
  await expect(section.getByTestId('payment-link').first()).toContainText('2500 MLX');

  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  const visit = await visitor.newPage();
  const direct = await visit.goto(`/pay/${slug}`);
  expect(direct?.status()).toBe(200);
  await expect(visit.getByRole('heading', { level: 1 })).toContainText('Pay');
  await expect(visit.getByText('Espresso')).toBeVisible();
  await expect(visit.getByTestId('pay-link-amount')).toContainText('2500 MLX');
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
  await section.getByRole('button', { name: 'Create link' }).click();
  const url = section.getByTestId('payment-link-url').first();
  await expect(url).toHaveText(/\/pay\//);
  const slug = (await url.textContent())?.split('/pay/')[1] ?? '';

  const visitor = await browser.newContext();
  const visit = await visitor.newPage();
  await visit.goto(`/pay/${slug}`);
  const amount = visit.getByLabel('Amount to pay (MLX)');
  await amount.fill('50');
  await visit.getByRole('button', { name: 'Continue to pay' }).click();
  await expect(visit.getByText('The amount must be at least 100 MLX.')).toBeVisible();
  await amount.fill('150');
  await visit.getByRole('button', { name: 'Continue to pay' }).click();
  await expect(visit).toHaveURL(/\/i\/in_[0-9a-f]{32}$/);
  await visitor.close();
});

// Proves the signed-in pages fit a 390 px phone: no page scrolls sideways, and on API Direct no
// element is wider than the screen; the API reference wraps its long paths without breaking
// words letter by letter. At 1280 px the delivery log shows its Redeliver column without
// scrolling; the support form's Details box has padding, the captcha checkbox is a square, and
// a missing captcha names the widget in use (ALTCHA), in English and Spanish.
// Screenshots: test-results/screenshots/layout-*.png; axe passes on the support form with its message.
import AxeBuilder from '@axe-core/playwright';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { type Language, usePreferences } from './contentPages.js';
import { apiUser, faucet, loginByApi, registerByApi, trpcMutation, trpcQuery, uniqueUser } from './users.js';

const PHONE = { width: 390, height: 844 };

async function expectNoSidewaysScroll(page: Page, path: string): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll, `${path} scrolls sideways`).toBeLessThanOrEqual(widths.inner);
}

for (const language of ['en', 'es'] as const satisfies readonly Language[]) {
  test(`every signed-in page fits a 390 px screen (${language})`, async ({ page }) => {
    test.setTimeout(180_000);
    await usePreferences(page, { language });
    const user = uniqueUser();
    await registerByApi(page.request, user);
    await loginByApi(page.request, user);
    await page.setViewportSize(PHONE);
    // A plan of the user's own and a subscription to another merchant's, both with long names,
    // so their pages are measured with what a real merchant types.
    const longName = `Premium ${'wholesale-coffee-'.repeat(3)}tier`;
    const terms = { name: longName, description: `Every ${'single-origin-'.repeat(5)}bag, monthly.`, currency: 'mlx', duration: 'monthly' };
    const { id: ownPlanId } = await trpcMutation<{ id: string }>(page.request, 'plans.create', { ...terms, price: 1500 });
    const merchant = await apiUser();
    const { id: merchantPlanId } = await trpcMutation<{ id: string }>(merchant.api, 'plans.create', { ...terms, price: 1000 });
    await faucet(user.userName, 10_000);
    await expect
      .poll(async () => (await trpcQuery<{ stable: string }>(page.request, 'wallet.balance')).stable, { timeout: 60_000 })
      .toBe('10000');
    const { content: subscription } = await trpcMutation<{ content: { id: string } }>(page.request, 'subscriptions.create', {
      subscription_plan_id: merchantPlanId,
      expected_price: 1000,
    });
    await merchant.api.dispose();
    const paths = [
      '/account',
      '/millix/send',
      '/millix/buy',
      '/millix/sell',
      '/profile',
      '/api-direct',
      '/payments',
      '/developers',
      '/developers/api',
      '/subscription-plans/all',
      '/subscription-plans/create',
      '/subscriptions/all',
      `/subscription-plans/${ownPlanId}`,
      `/subscriptions/${subscription.id}`,
      '/support',
      '/contact',
      `/user/${user.userName}`,
    ];
    for (const path of paths) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      if (path === '/developers/api') await expect(page.locator('.api-viewer .opblock').first()).toBeVisible({ timeout: 20_000 });
      await expectNoSidewaysScroll(page, path);
    }

    // API Direct with a key and a webhook endpoint: nothing wider than the screen.
    await page.goto('/api-direct');
    await page
      .getByLabel(language === 'en' ? 'Endpoint URL' : 'URL del endpoint')
      .fill(`https://hooks.example.com/${'quern-very-long-path-'.repeat(4)}`);
    await page.getByRole('button', { name: language === 'en' ? 'Add endpoint' : 'Añadir endpoint' }).click();
    await expect(page.getByTestId('webhook-secret')).toBeVisible();
    await expectNoSidewaysScroll(page, '/api-direct with an endpoint');
    const wide = await page.evaluate(() =>
      Array.from(document.querySelectorAll('body *'))
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
        // Inside a box that scrolls on its own (the delivery log), wide is fine.
        .filter((element) => !element.closest('.webhook-log-scroll, .visually-hidden'))
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
    );
    expect(wide).toEqual([]);
    await page.screenshot({ path: `test-results/screenshots/layout-api-direct-390-${language}.png`, fullPage: true });

    // The API reference: words are not broken letter by letter.
    await page.goto('/developers/api');
    const firstPath = page.locator('.api-viewer .opblock-summary-path').first();
    await expect(firstPath).toBeVisible({ timeout: 20_000 });
    const breaks = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.api-viewer *'))
        .map((element) => getComputedStyle(element).wordBreak)
        .filter((value) => value === 'break-all'),
    );
    expect(breaks).toEqual([]);
    await expectNoSidewaysScroll(page, '/developers/api');
    await page.screenshot({ path: `test-results/screenshots/layout-api-reference-390-${language}.png`, fullPage: true });
    // The operations with the longest paths (Webhooks), close up: paths and summaries in whole words.
    await page
      .locator('.api-viewer .opblock-tag-section')
      .last()
      .screenshot({ path: `test-results/screenshots/layout-api-reference-operations-390-${language}.png` });

    await page.goto('/support');
    await expect(page.locator('altcha-widget input[type="checkbox"]')).toBeVisible();
    await page.screenshot({ path: `test-results/screenshots/layout-support-390-${language}.png`, fullPage: true });
  });

  test(`the support form: padded Details, a square captcha checkbox, a missing captcha names ALTCHA (${language})`, async ({ page }) => {
    await usePreferences(page, { language });
    const user = uniqueUser();
    await registerByApi(page.request, user);
    await loginByApi(page.request, user);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/support');
    const details = page.locator('#contact-details');
    await expect(details).toBeVisible();
    const padding = await details.evaluate((element) => Number.parseFloat(getComputedStyle(element).paddingLeft));
    expect(padding).toBeGreaterThanOrEqual(4);
    const checkbox = page.locator('altcha-widget input[type="checkbox"]');
    await expect(checkbox).toBeVisible();
    const box = await checkbox.boundingBox();
    expect(box).not.toBeNull();
    expect(Math.abs((box?.width ?? 0) - (box?.height ?? 0))).toBeLessThanOrEqual(2);
    expect(box?.width ?? 0).toBeLessThanOrEqual(32);

    await page.getByLabel(language === 'en' ? 'Subject' : 'Asunto').fill('Stuck send');
    await page.getByLabel(language === 'en' ? 'Details' : 'Detalles').fill('My send has been pending for an hour.');
    await page.getByRole('button', { name: language === 'en' ? 'Send' : 'Enviar' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('ALTCHA');
    await expect(alert).not.toContainText('reCAPTCHA');
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: `test-results/screenshots/layout-support-1280-${language}.png`, fullPage: true });
  });
}

let receiver: Server;
let receiverUrl = '';
test.beforeAll(async () => {
  receiver = createServer((_req, res) => {
    _req.resume();
    _req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/quern-hooks`;
});
test.afterAll(async () => {
  await new Promise((done) => receiver.close(done));
});

test('at 1280 px the delivery log shows its Redeliver column without scrolling', async ({ page }) => {
  test.setTimeout(90_000);
  const merchant = uniqueUser();
  await registerByApi(page.request, merchant);
  await loginByApi(page.request, merchant);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('/api-direct');
  await page.getByLabel('Endpoint URL').fill(receiverUrl);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByRole('button', { name: 'Done' }).click();

  const { user: shopper, api: shopperApi } = await apiUser();
  await faucet(shopper.userName, 300_000);
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(shopperApi, 'wallet.balance')).stable, { timeout: 30_000 })
    .toBe('300000');
  const paid = await shopperApi.post('/api/quern/checkout', {
    data: { cart: [{ name: 'Green tea', price: '50000', quantity: 2 }], price: '100000', currency: 'MLX', to: merchant.userName },
  });
  expect(paid.ok()).toBe(true);
  await shopperApi.dispose();

  await page.getByTestId('webhook-endpoint').getByRole('button', { name: 'Delivery log' }).click();
  const log = page.getByTestId('webhook-log');
  await expect(log).toContainText('Order paid', { timeout: 20_000 });
  const redeliver = log.getByRole('button', { name: 'Redeliver' });
  await expect(redeliver).toBeVisible();
  const button = await redeliver.boundingBox();
  const scroller = await page.locator('.webhook-log-scroll').boundingBox();
  expect(button && scroller && button.x + button.width <= scroller.x + scroller.width).toBe(true);
  expect(await page.locator('.webhook-log-scroll').evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await page.screenshot({ path: 'test-results/screenshots/layout-delivery-log-1280-en.png', fullPage: true });
});

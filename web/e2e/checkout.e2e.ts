// Proves the checkout popup in a real browser against a real Quern, opened by a shop page served
// from a second origin (http://localhost:<port>, Quern being http://127.0.0.1:<port>): the shopper
// signs in inside the popup (a wrong password shows the server's message), pays, and the shop
// receives the spec's message from Quern's origin with a token and order; with too little MLX the
// popup offers three top-ups, one goes through the local PayPal server ('Approve payment' in its
// popup, credited by the capture worker), and 'Complete order' pays. The popup's document keeps
// its opener and cannot be framed. Screenshots (test-results/screenshots/checkout-*.png) at 1280
// and 375 px in both themes, each checked by axe.
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import {
  apiUser,
  checkoutUrl,
  faucet,
  openCheckoutFromShop,
  registerByApi,
  shopMessages,
  shopForTheseTests,
  type TestUser,
  trpcQuery,
  uniqueUser,
} from './users.js';

const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';
/** The capture waits for the capture worker (CAPTURE_WAIT_MS, 20 s by default) before it answers. */
const CAPTURE_TIMEOUT_MS = 30_000;
const SETTLE_TIMEOUT_MS = 30_000;

type Theme = 'light' | 'dark';
const viewports = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'mobile', width: 375, height: 812 },
] as const;
const themes: Theme[] = ['light', 'dark'];

const shopFixture = shopForTheseTests();
const { openContexts, openRequests } = shopFixture;

/** A registered user with an API session of its own (the browser is not signed in by it), disposed after the test. */
async function trackedApiUser(): Promise<{ user: TestUser; api: APIRequestContext }> {
  const created = await apiUser();
  openRequests.push(created.api);
  return created;
}

const balanceOf = (api: APIRequestContext) =>
  trpcQuery<{ stable: string; unstable: string }>(api, 'wallet.balance').then(({ stable, unstable }) => ({ stable, unstable }));

async function browserContext(browser: Browser, options: { width?: number; height?: number; theme?: Theme } = {}) {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    reducedMotion: 'reduce',
  });
  openContexts.push(context);
  await context.addInitScript((value) => localStorage.setItem('quern.darkMode', value), options.theme === 'dark' ? '1' : '0');
  return context;
}

async function signInInPopup(popup: Page, user: TestUser, password = user.password): Promise<void> {
  await popup.getByLabel('E-mail').fill(user.email);
  await popup.getByLabel('Password').fill(password);
  await popup.getByRole('button', { name: 'Login', exact: true }).click();
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a shop on another origin opens the popup; the shopper signs in inside it, pays once, and the shop gets Quern’s message with the token', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { user: merchant, api: merchantApi } = await trackedApiUser();
  const { user: shopper, api: shopperApi } = await trackedApiUser();
  await faucet(shopper.userName, 300_000);
  await expect.poll(() => balanceOf(shopperApi), { timeout: SETTLE_TIMEOUT_MS }).toEqual({ stable: '300000', unstable: '0' });

  const context = await browserContext(browser);
  const { shopPage, popup } = await openCheckoutFromShop(
    context,
    shopFixture.shop,
    checkoutUrl(merchant.userName, 'pay', { redirect: `${shopFixture.shop.url}/thanks` }),
  );
  const document = await popup.request.get(popup.url());
  expect(document.headers()['cross-origin-opener-policy']).toBe('unsafe-none');
  expect(document.headers()['x-frame-options']).toBe('DENY');
  expect(document.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  await expect(popup.getByRole('table')).toContainText('Green tea pay');
  await expect(popup.getByRole('table')).toContainText('100,000 MLX');

  await signInInPopup(popup, shopper, 'not the password at all');
  await expect(popup.locator('.form-alert-error')).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  await signInInPopup(popup, shopper);
  const pay = popup.getByRole('button', { name: 'Pay now' });
  await expect(pay).toBeVisible();
  expect(new URL(popup.url()).searchParams.get('to')).toBe(merchant.userName);

  const closed = popup.waitForEvent('close');
  await pay.dblclick();
  await closed;
  await expect.poll(() => shopMessages(shopPage)).toHaveLength(1);
  const [message] = await shopMessages(shopPage);
  expect(message?.origin).toBe(new URL(quernUrl()).origin);
  expect(message?.data).toMatchObject({
    origin: new URL(quernUrl()).origin,
    target: 'checkout_window',
    event: 'checkout',
    success: true,
    token: expect.stringMatching(/\S/),
    order: expect.stringMatching(/\S/),
    timestamp: expect.any(Number),
  });
  expect(String(message?.data.url)).toContain('/checkout?');
  // Paid once, double click notwithstanding.
  expect(await balanceOf(shopperApi)).toEqual({ stable: '200000', unstable: '0' });
  await expect.poll(() => balanceOf(merchantApi), { timeout: SETTLE_TIMEOUT_MS }).toEqual({ stable: '100000', unstable: '0' });
});

test('short of MLX, the popup tops up through the local PayPal server and Complete order pays; the shop gets the message', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { user: merchant } = await trackedApiUser();
  const { user: shopper, api: shopperApi } = await trackedApiUser();
  const context = await browserContext(browser);
  const { shopPage, popup } = await openCheckoutFromShop(context, shopFixture.shop, checkoutUrl(merchant.userName, 'topup'));
  await signInInPopup(popup, shopper);
  await popup.getByRole('button', { name: 'Pay now' }).click();
  await expect(
    popup.getByText(
      'You don’t have enough millix in Quern to complete this purchase. An additional 100,000 (mlx) is needed to complete this purchase.',
    ),
  ).toBeVisible();
  // 100,000 MLX at 0.000012 USD is 1.20 USD: the minimum is 5 USD, then 10 and 15.
  const options = popup.locator('.checkout-topup-options button');
  await expect(options).toHaveText(['Add 5.00 USD · 416,666 MLX', 'Add 10.00 USD · 833,333 MLX', 'Add 15.00 USD · 1,250,000 MLX']);
  await popup.getByRole('button', { name: 'Add 5.00 USD' }).click();
  const [paypal] = await Promise.all([popup.waitForEvent('popup'), popup.getByRole('button', { name: 'PayPal', exact: true }).click()]);
  await paypal.waitForURL(/\/paypal-local\/checkoutnow\?token=/);
  await paypal.getByRole('button', { name: 'Approve payment' }).click();
  await expect(popup.getByText('Millix added successfully! Please proceed to complete your order.')).toBeVisible({
    timeout: CAPTURE_TIMEOUT_MS,
  });
  // 5 USD buys 416,666 MLX at the e2e rate.
  expect(await balanceOf(shopperApi)).toEqual({ stable: '416666', unstable: '0' });

  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Complete order' }).click();
  await closed;
  await expect.poll(() => shopMessages(shopPage)).toHaveLength(1);
  const [message] = await shopMessages(shopPage);
  expect(message?.origin).toBe(new URL(quernUrl()).origin);
  expect(message?.data).toMatchObject({ event: 'checkout', success: true, token: expect.stringMatching(/\S/) });
  expect(await balanceOf(shopperApi)).toEqual({ stable: '316666', unstable: '0' });
});

for (const viewport of viewports) {
  for (const theme of themes) {
    test(`checkout popup states, ${viewport.name} ${theme}: screenshots and axe`, async ({ browser }) => {
      test.setTimeout(60_000);
      const shot = (name: string) => `test-results/screenshots/checkout-${name}-${viewport.name}-${theme}.png`;
      const { user: merchant } = await trackedApiUser();
      const shopper = uniqueUser();
      const context = await browserContext(browser, { width: viewport.width, height: viewport.height, theme });
      await registerByApi(context.request, shopper);
      const page = await context.newPage();

      await page.goto(checkoutUrl(merchant.userName, 'bad', { redirect: 'javascript:alert(1)' }));
      await expect(page.getByRole('heading', { name: 'This checkout cannot be completed' })).toBeVisible();
      await page.screenshot({ path: shot('invalid'), fullPage: true });
      await expectNoSeriousViolations(page);

      await page.goto(checkoutUrl(merchant.userName, 'shots'));
      await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
      await page.screenshot({ path: shot('signin'), fullPage: true });
      await expectNoSeriousViolations(page);

      await signInInPopup(page, shopper);
      await expect(page.getByRole('button', { name: 'Pay now' })).toBeVisible();
      await page.screenshot({ path: shot('pay'), fullPage: true });
      await expectNoSeriousViolations(page);

      await page.getByRole('button', { name: 'Pay now' }).click();
      await expect(page.getByRole('button', { name: 'Add 5.00 USD' })).toBeVisible();
      await page.screenshot({ path: shot('short'), fullPage: true });
      await expectNoSeriousViolations(page);

      await page.getByRole('button', { name: 'Add 5.00 USD' }).click();
      await expect(page.getByRole('button', { name: 'PayPal', exact: true })).toBeVisible();
      await page.screenshot({ path: shot('paypal'), fullPage: true });
    });
  }
}

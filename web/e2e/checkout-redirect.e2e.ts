// Proves, in a real browser signed in as the victim, that a checkout's redirect cannot steal MLX:
// following a link to Quern's own send call from a Quern page (the popup's "Back to shop" as it
// was offered for `redirect=<quern>/api/millix/send?...`), or loading it as an image, is refused
// (403) and moves nothing, while a script of Quern's page that asks with X-Requested-With still
// sends; and the popup refuses such a redirect with its invalid-redirect message and no Pay button.
// Also: the popup names the merchant by name and unique username (English and Spanish, screenshots
// at the shop's popup size, test-results/screenshots/checkout-merchant-*.png), and the shop's order
// reference in its query is bound to the paid order its server verifies.
import { expect, type Page, test } from '@playwright/test';
import { usePreferences } from './contentPages.js';
import { recordSecret } from './secrets-record.js';
import {
  apiUser,
  checkoutUrl,
  faucet,
  loginByApi,
  openCheckoutFromShop,
  registerByApi,
  SHOP_POPUP_SIZE,
  shopForTheseTests,
  shopMessages,
  trpcQuery,
  uniqueUser,
} from './users.js';

const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';
const SETTLE_TIMEOUT_MS = 30_000;
const shopFixture = shopForTheseTests();
const { openContexts, openRequests } = shopFixture;

/** Adds a link to `href` on the page, as the popup's Done screen rendered "Back to shop", and follows it. */
async function followLinkOnPage(page: Page, href: string): Promise<number> {
  await page.evaluate((target) => {
    const link = document.createElement('a');
    link.href = target;
    link.id = 'back-to-shop';
    link.textContent = 'Back to shop';
    document.body.append(link);
  }, href);
  const answered = page.waitForResponse((response) => response.url() === href);
  await page.locator('#back-to-shop').click();
  return (await answered).status();
}

test('a link or an image to Quern’s send call on a Quern page moves no MLX of the signed-in victim; the popup refuses that redirect', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { user: mallory, api: malloryApi } = await apiUser();
  const { user: merchant, api: merchantApi } = await apiUser();
  openRequests.push(malloryApi, merchantApi);
  const victim = uniqueUser();
  const context = await browser.newContext({ viewport: { width: 480, height: 760 } });
  openContexts.push(context);
  await registerByApi(context.request, victim);
  await loginByApi(context.request, victim);
  const balanceOf = (api = context.request) =>
    trpcQuery<{ stable: string; unstable: string }>(api, 'wallet.balance').then(({ stable, unstable }) => ({ stable, unstable }));
  await faucet(victim.userName, 300_000);
  await expect.poll(() => balanceOf(), { timeout: SETTLE_TIMEOUT_MS }).toEqual({ stable: '300000', unstable: '0' });

  const sendUrl = `${quernUrl()}/api/millix/send?${new URLSearchParams({ to: mallory.userName, amount: '100000', fee: '1000' })}`;
  const page = await context.newPage();
  await page.goto(checkoutUrl(merchant.userName, 'theft', { redirect: sendUrl }));

  // The click: a top-level navigation from a Quern page (Sec-Fetch-Site: same-origin, mode navigate).
  expect(await followLinkOnPage(page, sendUrl)).toBe(403);
  await page.goBack();
  // An image of a Quern page (mode no-cors, destination image).
  const imageAnswered = page.waitForResponse((response) => response.url() === sendUrl);
  await page.evaluate((src) => {
    const image = new Image();
    image.src = src;
    document.body.append(image);
  }, sendUrl);
  expect((await imageAnswered).status()).toBe(403);
  expect(await balanceOf()).toEqual({ stable: '300000', unstable: '0' });
  expect(await balanceOf(malloryApi)).toEqual({ stable: '0', unstable: '0' });

  // The popup offers no such link: the redirect is refused before anything can be paid.
  await page.goto(checkoutUrl(merchant.userName, 'theft', { redirect: sendUrl }));
  await expect(page.getByRole('heading', { name: 'This checkout cannot be completed' })).toBeVisible();
  await expect(page.getByText("The shop's return address is not a valid web address.")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  await expect(page.locator(`a[href^="${quernUrl()}/api/"]`)).toHaveCount(0);

  // A script of Quern's own page, asking as the documentation says, still sends.
  const scripted = await page.evaluate(
    async (url) => {
      const response = await fetch(url, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      return response.status;
    },
    `${quernUrl()}/api/millix/send?${new URLSearchParams({ to: mallory.userName, amount: '2000', fee: '1000' })}`,
  );
  expect(scripted).toBe(200);
  await expect.poll(() => balanceOf(malloryApi), { timeout: SETTLE_TIMEOUT_MS }).toEqual({ stable: '2000', unstable: '0' });
  await expect.poll(() => balanceOf(), { timeout: SETTLE_TIMEOUT_MS }).toEqual({ stable: '297000', unstable: '0' });
});

for (const language of ['en', 'es'] as const) {
  test(`the popup names the merchant by name and username (${language}), at the shop's popup size`, async ({ browser }) => {
    const { user: merchant, api: merchantApi } = await apiUser();
    openRequests.push(merchantApi);
    const context = await browser.newContext({ viewport: SHOP_POPUP_SIZE, reducedMotion: 'reduce' });
    openContexts.push(context);
    const shopper = uniqueUser();
    await registerByApi(context.request, shopper);
    await loginByApi(context.request, shopper);
    const page = await context.newPage();
    await usePreferences(page, { language });
    await page.goto(checkoutUrl(merchant.userName, `name-${language}`));
    const username = language === 'en' ? `Quern username: @${merchant.userName}` : `Usuario de Quern: @${merchant.userName}`;
    await expect(page.getByText(username)).toBeVisible();
    // The merchant's free-text name could be any shop's: the username beside it is unique.
    await expect(page.locator('.checkout-merchant')).toContainText(`${language === 'en' ? 'Paying' : 'Pagando a'} Ada Lovelace`);
    await page.screenshot({ path: `test-results/screenshots/checkout-merchant-${language}.png`, fullPage: true });
  });
}

test('the shop’s order reference in the popup’s query is bound to the order its server verifies', async ({ browser }) => {
  test.setTimeout(90_000);
  const { user: merchant, api: merchantApi } = await apiUser();
  const { user: shopper, api: shopperApi } = await apiUser();
  openRequests.push(merchantApi, shopperApi);
  await faucet(shopper.userName, 150_000);
  await expect
    .poll(() => trpcQuery(shopperApi, 'wallet.balance'), { timeout: SETTLE_TIMEOUT_MS })
    .toMatchObject({ stable: '150000', unstable: '0' });
  const context = await browser.newContext({ viewport: SHOP_POPUP_SIZE });
  openContexts.push(context);
  await loginByApi(context.request, shopper);
  const { shopPage, popup } = await openCheckoutFromShop(
    context,
    shopFixture.shop,
    checkoutUrl(merchant.userName, 'reference', { reference: 'order-1001' }),
  );
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Pay now' }).click();
  await closed;
  await expect.poll(() => shopMessages(shopPage)).toHaveLength(1);
  const [message] = await shopMessages(shopPage);
  const generated = await merchantApi.post('/api/direct/key-generate');
  const key = ((await generated.json()) as { content: { api_key: string } }).content.api_key;
  recordSecret('API key', key);
  const verify = (reference: string) =>
    merchantApi.post('/api/v1/orders/verify', {
      data: { token: message?.data.token, reference },
      headers: { authorization: `Bearer ${key}` },
    });
  const verified = await verify('order-1001');
  expect(verified.status()).toBe(200);
  expect(await verified.json()).toMatchObject({ id: message?.data.order, amount: '100000', reference: 'order-1001' });
  expect((await verify('order-1002')).status()).toBe(404);
});

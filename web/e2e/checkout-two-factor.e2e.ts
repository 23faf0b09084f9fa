// Proves the checkout popup's two-factor step in a real browser against a real Quern (ADR 040): a
// shop on another origin opens the popup, the shopper's account has two-factor on, so after the
// e-mail and the password the popup asks for a code. A wrong code shows the server's message and
// pays nothing (no Pay button, no message to the shop, the balance unchanged); the right code from
// the authenticator's secret signs in, and paying closes the popup with Quern's message to the
// shop. A recovery code signs in the same way. Screenshots of the code step at the popup's size
// (test-results/screenshots/checkout-two-factor-*.png).
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  apiUser,
  awayFromStepEnd,
  checkoutUrl,
  enableTwoFactorByApi,
  faucet,
  openCheckoutFromShop,
  shopMessages,
  shopForTheseTests,
  type TestUser,
  totpCode,
  trpcQuery,
} from './users.js';

const SETTLE_TIMEOUT_MS = 30_000;
const quernOrigin = () => new URL(process.env.QUERN_E2E_BASE_URL ?? '').origin;

const shopFixture = shopForTheseTests();
const { openContexts, openRequests } = shopFixture;

const balanceOf = (api: APIRequestContext) =>
  trpcQuery<{ stable: string; unstable: string }>(api, 'wallet.balance').then(({ stable, unstable }) => ({ stable, unstable }));

/** A merchant, and a shopper with 300,000 MLX settled and two-factor on. */
async function merchantAndTwoFactorShopper() {
  const merchant = await apiUser();
  const shopper = await apiUser();
  openRequests.push(merchant.api, shopper.api);
  await faucet(shopper.user.userName, 300_000);
  await expect.poll(() => balanceOf(shopper.api), { timeout: SETTLE_TIMEOUT_MS }).toEqual({ stable: '300000', unstable: '0' });
  const twoFactor = await enableTwoFactorByApi(shopper.api);
  return { merchant, shopper, ...twoFactor };
}

async function passwordStepInPopup(popup: Page, user: TestUser): Promise<void> {
  await popup.getByLabel('E-mail').fill(user.email);
  await popup.getByLabel('Password').fill(user.password);
  await popup.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(popup.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
}

/** Pays in the popup: it closes, and the shop gets exactly one success message from Quern's origin. */
async function payAndExpectMessage(popup: Page, shopPage: Page): Promise<void> {
  const pay = popup.getByRole('button', { name: 'Pay now' });
  await expect(pay).toBeVisible();
  const closed = popup.waitForEvent('close');
  await pay.click();
  await closed;
  await expect.poll(() => shopMessages(shopPage)).toHaveLength(1);
  const [message] = await shopMessages(shopPage);
  expect(message?.origin).toBe(quernOrigin());
  expect(message?.data).toMatchObject({
    origin: quernOrigin(),
    target: 'checkout_window',
    event: 'checkout',
    success: true,
    token: expect.stringMatching(/\S/),
    order: expect.stringMatching(/\S/),
  });
}

test('with two-factor on, the popup asks for the code: a wrong one is refused and pays nothing, the right one signs in and the payment completes', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { merchant, shopper, secret } = await merchantAndTwoFactorShopper();
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  openContexts.push(context);
  const { shopPage, popup } = await openCheckoutFromShop(context, shopFixture.shop, checkoutUrl(merchant.user.userName, '2fa'));

  await passwordStepInPopup(popup, shopper.user);
  const code = popup.getByLabel('Code', { exact: true });
  await expect(code).toBeVisible();
  await expect(popup.getByRole('table')).toContainText('100,000 MLX');
  await expect(popup.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  await popup.screenshot({ path: 'test-results/screenshots/checkout-two-factor-code.png', fullPage: true });

  // Four and a half minutes ahead: outside any window the server accepts.
  await code.fill(totpCode(secret, 9));
  await popup.getByRole('button', { name: 'Verify' }).click();
  await expect(popup.getByRole('alert')).toHaveText('That code is not valid. Enter the current code from your authenticator app.');
  await popup.screenshot({ path: 'test-results/screenshots/checkout-two-factor-wrong-code.png', fullPage: true });
  await expect(popup.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  expect(await shopMessages(shopPage)).toEqual([]);
  expect(await balanceOf(shopper.api)).toEqual({ stable: '300000', unstable: '0' });
  expect(popup.isClosed()).toBe(false);

  await awayFromStepEnd();
  await code.fill(totpCode(secret));
  await popup.getByRole('button', { name: 'Verify' }).click();
  // Signed in inside the popup, which keeps its order: the query is the shop's.
  expect(new URL(popup.url()).searchParams.get('to')).toBe(merchant.user.userName);
  await payAndExpectMessage(popup, shopPage);
  expect(await balanceOf(shopper.api)).toEqual({ stable: '200000', unstable: '0' });
  await expect.poll(() => balanceOf(merchant.api), { timeout: SETTLE_TIMEOUT_MS }).toEqual({ stable: '100000', unstable: '0' });
});

test('with two-factor on, a recovery code signs in inside the popup and the payment completes', async ({ browser }) => {
  test.setTimeout(120_000);
  const { merchant, shopper, recoveryCodes } = await merchantAndTwoFactorShopper();
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  openContexts.push(context);
  const { shopPage, popup } = await openCheckoutFromShop(context, shopFixture.shop, checkoutUrl(merchant.user.userName, 'recovery'));

  await passwordStepInPopup(popup, shopper.user);
  await popup.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await popup.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
  await popup.screenshot({ path: 'test-results/screenshots/checkout-two-factor-recovery.png', fullPage: true });
  await popup.getByRole('button', { name: 'Verify' }).click();
  await payAndExpectMessage(popup, shopPage);
  expect(await balanceOf(shopper.api)).toEqual({ stable: '200000', unstable: '0' });
  expect(await trpcQuery<{ enabled: boolean; recoveryCodesLeft: number }>(shopper.api, 'identity.twoFactorStatus')).toEqual({
    enabled: true,
    recoveryCodesLeft: 9,
  });
});

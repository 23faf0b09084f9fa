// Proves that one browser tab never shows a previous user's data to the next: A signs in and
// sees their address, balance and history; then A signs out (or A's session ends on the server
// while the dashboard is open) and B signs in in the same tab, and at no moment, loading included,
// does the page contain A's address or balance (screenshots in
// test-results/screenshots/session-switch-*.png).
import { expect, test, type Page } from '@playwright/test';
import { faucet, registerByApi, type TestUser, uniqueUser } from './users.js';

/** A's balance: an amount no other part of B's dashboard can show. */
const A_FUNDS_MLX = 12_345;
const A_FUNDS_TEXT = '12,345';

async function signInWithForm(page: Page, user: TestUser): Promise<void> {
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
}

const addressShown = (page: Page) => page.locator('.account-address-value');

/** A signed in on the dashboard, funded, with the deposit in the history; returns A's address. */
async function aOnDashboard(page: Page, a: TestUser): Promise<string> {
  await page.goto('/login');
  await signInWithForm(page, a);
  await expect(page.locator('.balance-current .balance-mlx')).toHaveText(`${A_FUNDS_TEXT} MLX`, { timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Transactions', exact: true }).locator('tbody tr')).toHaveCount(1);
  const address = (await addressShown(page).textContent()) ?? '';
  expect(address.length).toBeGreaterThan(20);
  return address;
}

/**
 * Watches every change of the page from now on and records any moment its text contains one of
 * A's values; a mark on window shows the tab was never reloaded (which would reset the watch).
 */
async function watchForLeaks(page: Page, secrets: string[]): Promise<void> {
  await page.evaluate((values) => {
    const w = window as unknown as { __leaks: string[]; __sameTab: boolean };
    w.__leaks = [];
    w.__sameTab = true;
    const check = () => {
      const text = document.body.textContent ?? '';
      for (const value of values) if (text.includes(value)) w.__leaks.push(value);
    };
    check();
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, secrets);
}

const leaksSeen = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __leaks?: string[]; __sameTab?: boolean };
    return { sameTab: w.__sameTab === true, leaks: w.__leaks ?? [] };
  });

/** B's dashboard, fully loaded: B's own address and an empty history. */
async function expectBsDashboard(page: Page, addressA: string): Promise<void> {
  await expect(page.locator('.balance-current .balance-mlx')).toHaveText('0 MLX');
  await expect(page.getByText('No transaction data available to display')).toBeVisible();
  await expect(addressShown(page)).not.toHaveText(addressA);
  await expect(addressShown(page)).toHaveText(/^[1mn]\w{20,}/);
}

test.describe('switching users in one tab', () => {
  test.setTimeout(120_000);

  test('A signs out, B signs in: B never sees A’s address, balance or history', async ({ page }) => {
    const a = uniqueUser();
    const b = uniqueUser();
    await registerByApi(page.request, a);
    await registerByApi(page.request, b);
    await faucet(a.userName, A_FUNDS_MLX);
    const addressA = await aOnDashboard(page, a);

    await page.getByRole('button', { name: `Account menu: ${a.userName}` }).click();
    await page.getByRole('link', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await watchForLeaks(page, [addressA, A_FUNDS_TEXT, a.userName]);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
    await signInWithForm(page, b);
    await expectBsDashboard(page, addressA);
    await page.screenshot({ path: 'test-results/screenshots/session-switch-signout.png', fullPage: true });
    expect(await leaksSeen(page)).toEqual({ sameTab: true, leaks: [] });
  });

  test('A’s session ends on the server while the dashboard is open, B signs in: B never sees A’s values', async ({ page }) => {
    const a = uniqueUser();
    const b = uniqueUser();
    await registerByApi(page.request, a);
    await registerByApi(page.request, b);
    await faucet(a.userName, A_FUNDS_MLX);
    const addressA = await aOnDashboard(page, a);

    // The session ends elsewhere (expiry, a reset, sign-out on another device); the open
    // dashboard finds out on its next poll (a 401) and goes to the sign-in page.
    const ended = await page.request.post('/api/user/logout');
    expect(ended.status()).toBe(200);
    await expect(page).toHaveURL(/\/login$/, { timeout: 30_000 });
    await watchForLeaks(page, [addressA, A_FUNDS_TEXT, a.userName]);

    await signInWithForm(page, b);
    await expectBsDashboard(page, addressA);
    await page.screenshot({ path: 'test-results/screenshots/session-switch-expired.png', fullPage: true });
    expect(await leaksSeen(page)).toEqual({ sameTab: true, leaks: [] });
  });
});

// Proves the wallet in a real browser against a real Quern with the simulated millix network: a
// user funded by the faucet sends to another by username, e-mail and address, and both dashboards
// show each send pending, then completed, with the right balances and without a reload; a
// refused send shows 'Transaction failed'; a history of 22 transactions pages as the spec says;
// the detail popup opens, closes on Escape and the backdrop and gives focus back; phones get
// cards; and the dashboard and send page have no serious or critical axe violation in either
// theme at 1280 and 375 px (screenshots in test-results/screenshots/wallet-*.png).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { faucet, loginByApi, registerByApi, type TestUser, trpcQuery, uniqueUser, verifyEmailByLink } from './users.js';

const MINUS = '\u2212';
const FEE = 1000;
/** Longest wait for a transaction to complete: the e2e server settles sends after 8 s (global-setup.ts). */
const SETTLE_TIMEOUT_MS = 30_000;

type Theme = 'light' | 'dark';
const viewports = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'mobile', width: 375, height: 812 },
] as const;
const themes: Theme[] = ['light', 'dark'];

const mlx = (amount: number) => `${amount.toLocaleString('en-US')} MLX`;

/** The spec's two figures (the answer also carries ADR 062's pending sums, which dashboard.e2e.ts checks). */
const balanceOf = async (request: APIRequestContext) => {
  const { stable, unstable } = await trpcQuery<{ stable: string; unstable: string }>(request, 'wallet.balance');
  return { stable, unstable };
};
const addressOf = async (request: APIRequestContext) => (await trpcQuery<{ address: string }>(request, 'wallet.address')).address;

async function waitForBalance(request: APIRequestContext, expected: { stable: string; unstable: string }): Promise<void> {
  await expect.poll(() => balanceOf(request), { timeout: SETTLE_TIMEOUT_MS }).toEqual(expected);
}

/** A page in its own browser context, signed in as a newly registered user. */
async function signedInPage(browser: Browser, options: { width?: number; height?: number; theme?: Theme } = {}) {
  const user = uniqueUser();
  const context = await browser.newContext({
    baseURL: process.env.QUERN_E2E_BASE_URL,
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    reducedMotion: 'reduce',
  });
  await context.addInitScript((value) => localStorage.setItem('quern.darkMode', value), options.theme === 'dark' ? '1' : '0');
  await registerByApi(context.request, user);
  await loginByApi(context.request, user);
  // Sends below name users by e-mail too, which pays only a proven address (ADR 046).
  await verifyEmailByLink(context.request, user);
  return { user, page: await context.newPage() };
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const hero = (page: Page, kind: 'current' | 'pending') => page.locator(`.balance-${kind} .balance-mlx`);
const pendingTable = (page: Page) => page.getByRole('table', { name: 'Pending transactions', exact: true });
const transactionsTable = (page: Page) => page.getByRole('table', { name: 'Transactions', exact: true });
const firstBodyRow = (table: ReturnType<typeof pendingTable>) => table.locator('tbody tr').first();

async function sendFromForm(page: Page, to: string, amountMlx: number): Promise<void> {
  await page.goto('/millix/send');
  await page.getByLabel('To', { exact: true }).fill(to);
  await page.getByLabel('Amount', { exact: true }).pressSequentially(String(amountMlx));
  await expect(page.getByLabel('Amount', { exact: true })).toHaveValue(amountMlx.toLocaleString('en-US'));
  await expect(page.getByLabel('Fee', { exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

test('A sends to B by username, e-mail and address; both dashboards show pending, then completed, without a reload', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { user: a, page: pageA } = await signedInPage(browser);
  const { user: b, page: pageB } = await signedInPage(browser);
  await faucet(a.userName, 100_000);
  await waitForBalance(pageA.request, { stable: '100000', unstable: '0' });
  const addressB = await addressOf(pageB.request);

  let balanceA = 100_000;
  let balanceB = 0;
  const sends = [
    { how: 'username', to: b.userName, amount: 1_500 },
    { how: 'e-mail', to: b.email, amount: 2_500 },
    { how: 'address', to: addressB, amount: 3_000 },
  ];
  for (const { how, to, amount } of sends) {
    await test.step(`send ${mlx(amount)} by ${how}`, async () => {
      // The send call is held until the progress dialog has been seen: on a quiet machine the
      // answer comes back before a check could catch the dialog.
      let answer: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        answer = resolve;
      });
      const isSend = (url: URL) => url.pathname.startsWith('/trpc/') && url.pathname.includes('wallet.send');
      await pageA.route(isSend, async (route) => {
        await held;
        await route.continue();
      });
      await sendFromForm(pageA, to, amount);
      await expect(pageA.getByRole('dialog', { name: 'Transaction in progress' })).toBeVisible();
      answer();
      await expect(pageA.getByRole('alertdialog', { name: 'Transaction successful' })).toBeVisible({ timeout: 15_000 });
      await pageA.unroute(isSend);
      balanceA -= amount + FEE;
      balanceB += amount;

      // A's Ok is an in-app navigation, B's a page load: the quicker first, both inside the 8 s
      // settlement delay (global-setup.ts). Everything after happens without a reload.
      await pageA.getByRole('button', { name: 'Ok', exact: true }).click();
      await expect(pageA).toHaveURL(/\/account$/);
      await expect(firstBodyRow(pendingTable(pageA))).toContainText(`${b.userName}${MINUS}${mlx(amount)}`);
      await expect(hero(pageA, 'current')).toHaveText(mlx(balanceA));
      await pageB.goto('/account');
      await expect(firstBodyRow(pendingTable(pageB))).toContainText(`${a.userName}+${mlx(amount)}`);

      for (const [page, sign, balance] of [
        [pageA, MINUS, balanceA],
        [pageB, '+', balanceB],
      ] as const) {
        await expect(pendingTable(page)).toBeHidden({ timeout: SETTLE_TIMEOUT_MS });
        const row = firstBodyRow(transactionsTable(page));
        await expect(row).toContainText(`${sign}${mlx(amount)}`);
        await expect(row.locator('td').last()).toHaveText(mlx(balance));
        await expect(hero(page, 'current')).toHaveText(mlx(balance));
        await expect(hero(page, 'pending')).toHaveText(mlx(0));
      }
    });
  }
  await expect(transactionsTable(pageB).locator('tbody tr')).toHaveCount(3);

  await test.step('a send beyond the balance fails with the server message', async () => {
    await sendFromForm(pageA, b.userName, 1_000_000);
    const failed = pageA.getByRole('alertdialog', { name: 'Transaction failed' });
    await expect(failed).toBeVisible({ timeout: 15_000 });
    await expect(failed).toContainText(`this send needs ${mlx(1_000_000 + FEE)} including the fee, and ${mlx(balanceA)} is available.`);
    await expect(pageA.getByRole('button', { name: 'Try again', exact: true })).toBeFocused();
    await pageA.getByRole('button', { name: 'Try again', exact: true }).click();
    await expect(failed).toBeHidden();
    await expect(pageA.getByLabel('Amount', { exact: true })).toHaveValue('1,000,000');
    await pageA.getByRole('button', { name: 'Send', exact: true }).click();
    await pageA.getByRole('button', { name: 'Go to account', exact: true }).click();
    await expect(pageA).toHaveURL(/\/account$/);
    await expect(hero(pageA, 'current')).toHaveText(mlx(balanceA));
  });
});

test.describe('a history of 22 transactions', () => {
  test.describe.configure({ mode: 'serial' });
  let receiver: TestUser;
  let senderName: string;
  let senderAddress: string;
  const count = 22;
  const amountOf = (index: number) => (index + 1) * 10;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    const sender = await signedInPage(browser);
    const target = await signedInPage(browser);
    receiver = target.user;
    senderName = sender.user.userName;
    senderAddress = await addressOf(sender.page.request);
    await faucet(senderName, 100_000);
    await waitForBalance(sender.page.request, { stable: '100000', unstable: '0' });
    for (let index = 0; index < count; index += 1) {
      const response = await sender.page.request.post('/api/millix/send', {
        data: { to: receiver.userName, amount: String(amountOf(index)), fee: String(FEE) },
      });
      expect(response.ok(), await response.text()).toBe(true);
    }
    await expect
      .poll(async () => (await trpcQuery<{ total: number }>(target.page.request, 'wallet.transactions', { page: 0 })).total, {
        timeout: SETTLE_TIMEOUT_MS,
      })
      .toBe(count);
    await sender.page.context().close();
    await target.page.context().close();
  });

  async function receiverPage(browser: Browser, options: { width?: number; height?: number; theme?: Theme } = {}) {
    const context = await browser.newContext({
      baseURL: process.env.QUERN_E2E_BASE_URL,
      viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
      reducedMotion: 'reduce',
    });
    await context.addInitScript((value) => localStorage.setItem('quern.darkMode', value), options.theme === 'dark' ? '1' : '0');
    await loginByApi(context.request, receiver);
    const page = await context.newPage();
    await page.goto('/account');
    return page;
  }

  test('pagination: 3 pages, First and Prev disabled on the first, Next and Last on the last', async ({ browser }) => {
    const page = await receiverPage(browser);
    const nav = page.getByRole('navigation', { name: 'Transaction pages' });
    const button = (name: string) => nav.getByRole('button', { name, exact: true });
    const rows = transactionsTable(page).locator('tbody tr');
    // Settlements may complete in any order, so the pages are checked to hold every amount once.
    const amountsShown = async () => rows.locator('.tx-amount').allTextContents();
    await expect(rows).toHaveCount(10);
    await expect(nav.getByRole('button', { name: /^Page \d+$/ })).toHaveText(['1', '2', '3']);
    await expect(button('Page 1')).toHaveAttribute('aria-current', 'page');
    await expect(button('Page 1')).toBeDisabled();
    await expect(button('First')).toBeDisabled();
    await expect(button('Prev')).toBeDisabled();
    await expect(button('Next')).toBeEnabled();
    await expect(button('Last')).toBeEnabled();
    await expect(nav).toContainText('Page 1 of 3');
    const seen = await amountsShown();

    await button('Next').click();
    await expect(button('Page 2')).toHaveAttribute('aria-current', 'page');
    await expect(nav).toContainText('Page 2 of 3');
    await expect(button('Prev')).toBeEnabled();
    await expect(rows.first().locator('.tx-amount')).not.toHaveText(seen[0] ?? '');
    seen.push(...(await amountsShown()));
    await button('Last').click();
    await expect(rows).toHaveCount(2);
    await expect(button('Next')).toBeDisabled();
    await expect(button('Last')).toBeDisabled();
    // Last became disabled under the keyboard focus and kept it.
    await expect(button('Last')).toBeFocused();
    await expect(nav).toContainText('Page 3 of 3');
    seen.push(...(await amountsShown()));
    expect(seen.sort()).toEqual(Array.from({ length: count }, (_, index) => `+${mlx(amountOf(index))}`).sort());

    await button('Prev').click();
    await expect(button('Page 2')).toHaveAttribute('aria-current', 'page');
    await button('First').click();
    await expect(rows).toHaveCount(10);
    await expect(button('Page 1')).toHaveAttribute('aria-current', 'page');
    await page.screenshot({ path: 'test-results/screenshots/wallet-pagination-desktop-light.png', fullPage: true });
  });

  test('the detail popup opens from a row by click and by keyboard, and closes on Escape and the backdrop', async ({ browser }) => {
    const page = await receiverPage(browser);
    const row = firstBodyRow(transactionsTable(page));
    await row.locator('td').nth(2).click();
    const dialog = page.getByRole('dialog', { name: 'Transaction details' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('RECEIVED');
    await expect(dialog).toContainText(senderAddress);
    await expect(dialog).toContainText(senderName);
    const amount = dialog.locator('.tx-amount');
    await expect(amount).toHaveText((await row.locator('.tx-amount').textContent()) ?? 'no amount in the row');
    await expect(amount).toHaveText(/^\+\d+ MLX$/);
    await expect(amount).toHaveAttribute('data-direction', 'credit');
    await expect(dialog).toContainText(/Date\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [ap]m/);
    await page.screenshot({ path: 'test-results/screenshots/wallet-history-popup-desktop-light.png' });
    // A click on the backdrop, outside the dialog box.
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();

    const open = row.getByRole('button');
    await open.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close', exact: true })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();
  });

  test('on a 375 px phone the transactions are cards that open the popup', async ({ browser }) => {
    const page = await receiverPage(browser, { width: 375, height: 812 });
    await expect(page.getByRole('table')).toHaveCount(0);
    const cards = page.locator('.tx-card');
    await expect(cards).toHaveCount(10);
    await expect(cards.first()).toContainText(new RegExp(`^Received from ${senderName}\\+\\d+ MLX`));
    await expect(cards.first()).toContainText(/\d{2}\/\d{2}\/\d{4}Balance/);
    await cards.first().click();
    await expect(page.getByRole('dialog', { name: 'Transaction details' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/wallet-history-popup-mobile-light.png' });
  });
});

for (const viewport of viewports) {
  for (const theme of themes) {
    test(`dashboard and send page, ${viewport.name} ${theme}: screenshots and axe`, async ({ browser }) => {
      test.setTimeout(120_000);
      const options = { width: viewport.width, height: viewport.height, theme };
      const { page: payer } = await signedInPage(browser, options);
      const { user: payee } = await signedInPage(browser, options);
      await faucet(await addressOf(payer.request), 1_234_567);
      await waitForBalance(payer.request, { stable: '1234567', unstable: '0' });
      const sent = await payer.request.post('/api/millix/send', { data: { to: payee.userName, amount: '4500', fee: '1000' } });
      expect(sent.ok(), await sent.text()).toBe(true);

      await payer.goto('/account');
      await expect(payer.getByRole('heading', { name: 'Pending transactions' })).toBeVisible();
      await expect(payer.getByRole('heading', { name: 'Transactions', exact: true })).toBeVisible();
      await expect(payer.locator('.account-username')).toBeVisible();
      await payer.screenshot({ path: `test-results/screenshots/wallet-dashboard-${viewport.name}-${theme}.png`, fullPage: true });
      await expectNoSeriousViolations(payer);

      await payer.getByRole('button', { name: 'Copy address', exact: true }).click();
      await expect(payer.locator('.account-address [role="status"]')).toHaveText(/Copied|The address could not be copied/);

      await (viewport.name === 'mobile'
        ? payer.locator('.tx-card').first()
        : firstBodyRow(transactionsTable(payer)).getByRole('button')
      ).click();
      await expect(payer.getByRole('dialog', { name: 'Transaction details' })).toBeVisible();
      await payer.screenshot({ path: `test-results/screenshots/wallet-popup-${viewport.name}-${theme}.png` });
      await expectNoSeriousViolations(payer);
      await payer.keyboard.press('Escape');

      await payer.goto('/millix/send');
      await expect(payer.getByRole('heading', { level: 1 })).toHaveText('Send millix');
      await payer.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(payer.getByText('All fields are required')).toBeVisible();
      await payer.getByLabel('Amount', { exact: true }).pressSequentially('2500000');
      await payer.screenshot({ path: `test-results/screenshots/wallet-send-${viewport.name}-${theme}.png`, fullPage: true });
      await expectNoSeriousViolations(payer);

      await payer.getByLabel('To', { exact: true }).fill(payee.email);
      await payer.getByRole('button', { name: 'Send', exact: true }).click();
      const failed = payer.getByRole('alertdialog', { name: 'Transaction failed' });
      await expect(failed).toBeVisible({ timeout: 15_000 });
      // The dialog sits in the middle of the screen, not pushed to an edge by the page's styles.
      const box = await failed.boundingBox();
      expect(Math.abs((box?.y ?? 0) + (box?.height ?? 0) / 2 - viewport.height / 2)).toBeLessThan(2);
      await payer.screenshot({ path: `test-results/screenshots/wallet-send-failed-${viewport.name}-${theme}.png` });
      await expectNoSeriousViolations(payer);
    });
  }
}

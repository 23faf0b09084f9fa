// Proves that every public page (the developers guide included), the sign-in and registration pages, the sell page and the plan and subscription screens and the profile (its account deletion open), a payment link's page and a refund claim link's page have no
// serious or critical axe violation, in light and dark mode, at 375 px and 1280 px.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { contentPages, signIn, themes, usePreferences, viewports } from './contentPages.js';
import { apiUser, faucet, trpcMutation, trpcQuery } from './users.js';

const pages = [
  { name: 'home', path: '/', signedIn: false },
  ...contentPages.map(({ name, path, signedIn }) => ({ name, path, signedIn })),
  { name: 'checkout-buttons', path: '/checkout-buttons', signedIn: false },
  { name: 'developers', path: '/developers', signedIn: false },
  // A merchant's payment link (ADR 084): its path is made when the page is first checked (payLinkPath).
  { name: 'pay-link', path: '/pay/{slug}', signedIn: false },
  // A payer's refund claim link (ADR 087), its form open: made when the page is first checked (refundClaimPath).
  { name: 'refund-claim', path: '/refund/{id}', signedIn: false },
  { name: 'login', path: '/login', signedIn: false },
  { name: 'register', path: '/register', signedIn: false },
  { name: 'plans', path: '/subscription-plans/all', signedIn: true },
  { name: 'plan-create', path: '/subscription-plans/create', signedIn: true },
  { name: 'subscriptions', path: '/subscriptions/all', signedIn: true },
  // With the account deletion's confirmation open, so its danger button and fields are checked.
  { name: 'profile', path: '/profile', signedIn: true },
  { name: 'pos', path: '/pos', signedIn: true },
];

const blocking = new Set(['serious', 'critical']);

/**
 * Runs every axe rule on the page named `name`; serious and critical findings fail (softly, so the
 * pages after it are still checked), lesser ones are attached for review.
 */
async function expectNoSeriousViolations(page: Page, name: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const describe = (list: typeof violations) =>
    list.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  const minor = violations.filter((v) => !blocking.has(v.impact ?? ''));
  if (minor.length > 0)
    test.info().annotations.push({ type: `axe (moderate or minor) on ${name}`, description: describe(minor).join('\n') });
  expect.soft(describe(violations.filter((v) => blocking.has(v.impact ?? ''))), `serious or critical axe findings on ${name}`).toEqual([]);
}

let payLink: Promise<string> | undefined;
/** The path of an open-amount payment link of a new merchant, made once per worker. */
function payLinkPath(): Promise<string> {
  payLink ??= apiUser().then(async ({ api }) => {
    const link = await trpcMutation<{ slug: string }>(api, 'paymentLinks.create', {
      currency: 'MLX',
      min_amount: '10',
      description: 'Axe check',
      idempotencyKey: `a11y-${Date.now()}-${Math.random()}`,
    });
    await api.dispose();
    return `/pay/${link.slug}`;
  });
  return payLink;
}

let refundClaim: Promise<string> | undefined;
/** The claim link (path and token) of a refund awaiting its claim, on an invoice paid from outside Quern, made once per worker. */
function refundClaimPath(): Promise<string> {
  refundClaim ??= apiUser().then(async ({ api }) => {
    const invoice = await trpcMutation<{ id: string; address: string }>(api, 'invoices.create', {
      amount: '3000',
      reference: 'a11y-order',
      description: 'Axe check',
      idempotencyKey: `a11y-invoice-${Date.now()}-${Math.random()}`,
    });
    await faucet(invoice.address, 3000, { confirmDelayMs: 200 });
    await expect
      .poll(async () => (await trpcQuery<{ status: string }>(api, 'invoices.get', { id: invoice.id })).status, { timeout: 60_000 })
      .toBe('paid');
    const refund = await trpcMutation<{ claim_url: string }>(api, 'invoices.refund', {
      id: invoice.id,
      idempotencyKey: `a11y-refund-${Date.now()}-${Math.random()}`,
    });
    await api.dispose();
    const url = new URL(refund.claim_url);
    return `${url.pathname}${url.hash}`;
  });
  return refundClaim;
}

const pathOf = (target: (typeof pages)[number]): string | Promise<string> =>
  target.name === 'pay-link' ? payLinkPath() : target.name === 'refund-claim' ? refundClaimPath() : target.path;

/** Opens the page as a visitor reads it (every FAQ answer open, the account deletion confirmation open), then scans it. */
async function checkPage(page: Page, target: (typeof pages)[number]): Promise<void> {
  await page.goto(await pathOf(target));
  await expect(page.locator('main h1, main button').first()).toBeVisible();
  // Open every FAQ answer so their text and links are checked too.
  if (target.name === 'faqs') {
    await page.locator('details').evaluateAll((all) => {
      for (const details of all) details.setAttribute('open', '');
    });
  }

  if (target.name === 'profile') {
    const deletion = page.getByRole('region', { name: 'Delete account' });
    await deletion.getByRole('button', { name: 'Delete account' }).click();
    await expect(deletion.getByLabel('Password', { exact: true })).toBeFocused();
  }

  await expectNoSeriousViolations(page, target.name);
}

// One test per viewport, theme and sign-in state, each page a step of it: one browser page and
// one signed-in user scan them all, instead of a fresh browser context, app load and account per
// page (ADR 070).
for (const viewport of viewports) {
  for (const theme of themes) {
    test.describe(`axe ${viewport.name} ${theme}`, () => {
      // Axe measures contrast at one instant; slogans caught mid-fade would read as faint text.
      test.use({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: 'reduce' });

      for (const signedIn of [false, true]) {
        const group = pages.filter((target) => target.signedIn === signedIn);
        test(`${signedIn ? 'signed-in' : 'public'} pages: ${group.map((target) => target.name).join(', ')}`, async ({ page }) => {
          // About 15 s a page on a loaded 2-core machine.
          test.setTimeout(group.length * 30_000);
          await usePreferences(page, { theme });
          if (signedIn) await signIn(page);
          for (const target of group) await test.step(target.name, () => checkPage(page, target));
        });
      }
    });
  }
}

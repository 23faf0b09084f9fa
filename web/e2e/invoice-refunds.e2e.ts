// Proves refunds of invoices in a real browser against a real Quern (issue 27, ADR 087): an
// invoice paid from outside Quern (the faucet through the simulated network) offers Refund on the
// payments page; the merchant refunds part of it (the maximum shown) and is shown the claim link
// with Copy and "Send this link to the payer"; the payer opens the link signed out at 390 px, sees
// who refunds how much for what, is told at the field when the address is not one or is the
// merchant's, claims with a double click that sends one claim, and sees the refund on its way,
// then sent, without a reload; the link reloaded shows it as claimed and where it went; a second
// payer who had the form open is told it is already claimed; a wrong or missing token reads as the
// not-valid message; the page has the hosted invoice page's headers; a refund the merchant cancels
// reads as canceled, and one the merchant's balance cannot pay is refused with the link still
// usable; Spanish on a Spanish page. Screenshots: test-results/screenshots/refund-*.png.
import { randomUUID } from 'node:crypto';
import { createAddress, parseAddress } from '@quern/core/wallet';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { type Language, usePreferences } from './contentPages.js';
import { apiUser, faucet, loginByApi, trpcMutation, trpcQuery } from './users.js';

interface Invoice {
  id: string;
  address: string;
  status: string;
}
interface Refund {
  id: string;
  status: string;
  claim_url: string | null;
}

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** The claim link's path and fragment, as this test's server serves them. */
const linkPath = (claimUrl: string): string => {
  const url = new URL(claimUrl);
  return `${url.pathname}${url.hash}`;
};

async function openAs(browser: Browser, viewport: { width: number; height: number }, language: Language = 'en'): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  // biome-ignore lint/correctness/useHookAtTopLevel: a Playwright helper named like a hook, not a React hook
  await usePreferences(page, { language });
  return page;
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

test('a merchant refunds part of a paid invoice and the payer claims it on the link, signed out', async ({ browser }) => {
  test.setTimeout(180_000);
  const merchant = await apiUser();
  const invoice = await trpcMutation<Invoice>(merchant.api, 'invoices.create', {
    amount: '5000',
    reference: 'order-1187',
    description: 'A blue teapot',
    idempotencyKey: randomUUID(),
  });
  await faucet(invoice.address, 5000, { confirmDelayMs: 200 });
  await expect
    .poll(async () => (await trpcQuery<Invoice>(merchant.api, 'invoices.get', { id: invoice.id })).status, { timeout: 60_000 })
    .toBe('paid');
  const parsed = parseAddress(invoice.address);
  if (!parsed.ok) throw new Error(`The invoice's address does not parse: ${invoice.address}`);
  /** An address of a wallet outside Quern, on the network this Quern runs on. */
  const outside = (seed: number) => createAddress(new Uint8Array(20).fill(seed), parsed.network);

  // The merchant refunds 2,000 of the 5,000 MLX on the payments page.
  const shop = await openAs(browser, DESKTOP);
  await loginByApi(shop.request, merchant.user);
  await shop.goto('/payments');
  const row = shop.getByTestId('invoices-section').getByTestId('invoice').first();
  await expect(row).toContainText('order-1187');
  await row.getByRole('button', { name: 'Refund', exact: true }).click();
  const form = row.getByTestId('invoice-refund-form');
  await expect(form).toContainText('At most 5,000 MLX');
  await expect(form.getByRole('button', { name: 'Refund 5,000 MLX' })).toBeVisible();
  await form.getByLabel('Amount to refund (MLX)').fill('6000');
  await form.getByRole('button', { name: 'Refund 6,000 MLX' }).click();
  await expect(form.getByRole('alert')).toHaveText('This is more than the invoice can refund: at most 5,000 MLX.');
  await form.getByLabel('Amount to refund (MLX)').fill('2000');
  await row.scrollIntoViewIfNeeded();
  await shop.screenshot({ path: 'test-results/screenshots/refund-form-desktop.png', fullPage: true });
  await form.getByRole('button', { name: 'Refund 2,000 MLX' }).click();
  const created = row.getByTestId('invoice-refund-created');
  await expect(created).toContainText('Refund of 2,000 MLX created.');
  await expect(created).toContainText('Send this link to the payer');
  await expect(created.getByRole('button', { name: 'Copy: Refund claim link' })).toBeVisible();
  const claimUrl = (await created.getByTestId('invoice-refund-claim-url').textContent()) ?? '';
  expect(claimUrl).toMatch(/\/refund\/ir_[0-9a-f]{32}#[A-Za-z0-9_-]{43}$/);
  const link = linkPath(claimUrl);
  const [refundPath, token = ''] = link.split('#');
  const refunds = row.getByTestId('invoice-refund');
  await expect(refunds).toHaveCount(1);
  await expect(refunds.first().getByTestId('invoice-refund-status')).toHaveText('Waiting for the payer');
  await expect(refunds.first().getByRole('button', { name: 'Cancel refund' })).toBeVisible();
  await shop.screenshot({ path: 'test-results/screenshots/refund-created-desktop.png', fullPage: true });

  // The claim page is served with the hosted invoice page's locked-down headers.
  const [claimPage, invoicePage] = await Promise.all([shop.request.get(refundPath ?? ''), shop.request.get(`/i/${invoice.id}`)]);
  expect(claimPage.status()).toBe(200);
  for (const header of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'cross-origin-opener-policy'])
    expect(claimPage.headers()[header], header).toBe(invoicePage.headers()[header]);

  // Two payers open the link, signed out, on phones; the second keeps the form open.
  const payer = await openAs(browser, PHONE);
  const latecomer = await openAs(browser, PHONE);
  await latecomer.goto(link);
  await expect(latecomer.getByRole('button', { name: 'Claim refund' })).toBeVisible();
  await payer.goto(link);
  await expect(payer.getByRole('heading', { name: '2,000 MLX' })).toBeVisible();
  await expect(payer.getByText(`@${merchant.user.userName}`)).toBeVisible();
  await expect(payer.getByText('A blue teapot')).toBeVisible();
  await expect(payer.getByText('Reference: order-1187')).toBeVisible();
  await expectNoSidewaysScroll(payer);
  await payer.screenshot({ path: 'test-results/screenshots/refund-claim-mobile-en.png', fullPage: true });

  const address = payer.getByLabel('Your millix address');
  const claim = payer.getByRole('button', { name: 'Claim refund' });
  await claim.click();
  await expect(payer.getByText('Enter the address of your millix wallet.')).toBeVisible();
  await address.fill('not-an-address');
  await claim.click();
  await expect(payer.getByText('Invalid address', { exact: true })).toBeVisible();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await address.fill(invoice.address);
  await claim.click();
  await expect(payer.getByText('This address belongs to the merchant. Enter the address of your own millix wallet.')).toBeVisible();
  await payer.screenshot({ path: 'test-results/screenshots/refund-claim-mobile-field-error.png', fullPage: true });

  // A double click sends one claim.
  const to = outside(61);
  await address.fill(to);
  const claims: string[] = [];
  payer.on('request', (request) => {
    if (request.url().includes('/trpc/invoices.claimRefund')) claims.push(request.url());
  });
  await claim.dblclick();
  await expect(payer.getByTestId('refund-status')).toHaveText(/^(Refund on its way|Refund sent)$/);
  await expect(payer.getByTestId('refund-to-address')).toHaveText(to);
  await expect(payer.getByTestId('refund-already-claimed')).toHaveCount(0);
  expect(claims).toHaveLength(1);
  // The payout reaches the network: the page turns to sent without a reload.
  await expect(payer.getByTestId('refund-status')).toHaveText('Refund sent', { timeout: 60_000 });
  await expectNoSidewaysScroll(payer);
  // The double click's second click selected the text that replaced the form.
  await payer.evaluate(() => window.getSelection()?.removeAllRanges());
  await payer.screenshot({ path: 'test-results/screenshots/refund-claim-mobile-sent.png', fullPage: true });

  // The link again: claimed, and where it went.
  await payer.reload();
  await expect(payer.getByTestId('refund-already-claimed')).toContainText('This refund has already been claimed.');
  await expect(payer.getByTestId('refund-to-address')).toHaveText(to);
  await expect(payer.getByRole('button', { name: 'Claim refund' })).toHaveCount(0);

  // The second payer, whose form was still open, tries another address: already claimed.
  await latecomer.getByLabel('Your millix address').fill(outside(62));
  await latecomer.getByRole('button', { name: 'Claim refund' }).click();
  await expect(latecomer.getByTestId('refund-already-claimed')).toContainText('This refund has already been claimed.');
  await expect(latecomer.getByTestId('refund-to-address')).toHaveText(to);

  // A wrong token, or none, reads as a link that is not valid.
  const stranger = await openAs(browser, PHONE);
  await stranger.goto(`${refundPath}#${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`);
  await expect(stranger.getByRole('alert')).toHaveText(
    'This refund link is not valid. Check that you copied all of it, or ask the merchant for a new one.',
  );
  await stranger.goto(refundPath ?? '');
  await expect(stranger.getByTestId('refund-claim-error')).toContainText('This refund link is not valid.');
  await stranger.screenshot({ path: 'test-results/screenshots/refund-claim-mobile-invalid.png', fullPage: true });

  // The merchant sees the refund sent; a second refund, of the rest, is canceled from the list.
  await shop.reload();
  await expect(refunds.first().getByTestId('invoice-refund-status')).toHaveText('Sent');
  const rest = await trpcMutation<Refund>(merchant.api, 'invoices.refund', { id: invoice.id, idempotencyKey: randomUUID() });
  expect(rest.status).toBe('awaiting_claim');
  const restLink = linkPath(rest.claim_url ?? '');

  // The claim page in Spanish and at 1280 px, before the merchant cancels it.
  for (const [language, viewport, name] of [
    ['en', DESKTOP, 'desktop-en'],
    ['es', PHONE, 'mobile-es'],
    ['es', DESKTOP, 'desktop-es'],
  ] as const) {
    const visitor = await openAs(browser, viewport, language);
    await visitor.goto(restLink);
    await expect(visitor.getByRole('heading', { name: language === 'en' ? '3,000 MLX' : /^3\.?000 MLX$/ })).toBeVisible();
    await expect(visitor.getByRole('button', { name: language === 'en' ? 'Claim refund' : 'Reclamar reembolso' })).toBeVisible();
    if (language === 'es') await expect(visitor.getByLabel('Su dirección millix')).toBeVisible();
    await expectNoSidewaysScroll(visitor);
    await visitor.screenshot({ path: `test-results/screenshots/refund-claim-${name}.png`, fullPage: true });
    if (language === 'es' && viewport === PHONE) {
      await visitor.goto(link);
      await expect(visitor.getByTestId('refund-already-claimed')).toContainText('Este reembolso ya se ha reclamado.');
      await expect(visitor.getByTestId('refund-status')).toHaveText('Reembolso enviado');
      await visitor.screenshot({ path: 'test-results/screenshots/refund-claim-mobile-es-claimed.png', fullPage: true });
    }
    await visitor.context().close();
  }

  // The merchant's balance (2,000 MLX left) cannot pay 3,000 MLX and the fee: the payer is told, the link stays usable.
  await stranger.goto(restLink);
  await stranger.getByLabel('Your millix address').fill(outside(63));
  await stranger.getByRole('button', { name: 'Claim refund' }).click();
  await expect(stranger.getByRole('alert')).toHaveText(
    'The merchant cannot send this refund right now. Your link still works: try again later or contact the merchant.',
  );
  await expect(stranger.getByRole('button', { name: 'Claim refund' })).toBeEnabled();

  await shop.reload();
  await expect(refunds).toHaveCount(2);
  await expect(refunds.nth(1).getByTestId('invoice-refund-status')).toHaveText('Waiting for the payer');
  await refunds.nth(1).getByRole('button', { name: 'Cancel refund' }).click();
  await expect(refunds.nth(1).getByTestId('invoice-refund-status')).toHaveText('Canceled');
  await expect(row.getByRole('button', { name: 'Refund', exact: true })).toBeVisible();
  // The same link again (a navigation to the same URL and fragment would not load the page anew).
  await stranger.reload();
  await expect(stranger.getByTestId('refund-status')).toHaveText(
    'The merchant canceled this refund. Contact them if you think this is a mistake.',
  );

  for (const page of [shop, payer, latecomer, stranger]) await page.context().close();
  await merchant.api.dispose();
});

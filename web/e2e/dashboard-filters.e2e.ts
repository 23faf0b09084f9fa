// Proves the dashboard's history filter (issue 25) in a real browser against a real Quern, in
// English and Spanish, at 1280 px then 390 px in the same test: counterparty, kind and dates narrow
// the Transactions table, the filter lives in the URL (reload keeps it), the chosen days show in
// the page's language, a reversed range is refused with its message, no match says so, Clear
// brings every row back, nothing scrolls sideways on a phone, and axe finds nothing serious with
// the filter open (screenshots in test-results/screenshots/dashboard-filters-*.png).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type Language, usePreferences } from './contentPages.js';
import { apiUser, faucet, loginByApi, registerByApi, trpcMutation, trpcQuery, uniqueUser } from './users.js';

const words = {
  en: {
    filter: 'Filter',
    counterparty: 'Counterparty',
    kind: 'Kind',
    from: 'From',
    to: 'To',
    apply: 'Apply',
    clear: 'Clear',
    received: 'Received',
    sentTo: 'Sent to',
    noMatches: 'No transactions match these filters',
    range: 'The end date must be on or after the start date.',
  },
  es: {
    filter: 'Filtrar',
    counterparty: 'Contraparte',
    kind: 'Tipo',
    from: 'Desde',
    to: 'Hasta',
    apply: 'Aplicar',
    clear: 'Borrar',
    received: 'Recibido',
    sentTo: 'Enviado a',
    noMatches: 'Ninguna transacción coincide con estos filtros',
    range: 'La fecha final debe ser igual o posterior a la fecha de inicio.',
  },
} as const;

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const shot = (page: Page, name: string, language: Language, width: number) =>
  page.screenshot({ path: `test-results/screenshots/dashboard-filters-${name}-${language}-${width}.png`, fullPage: true });

for (const language of ['en', 'es'] as const satisfies readonly Language[]) {
  test(`dashboard history filters, ${language}, 1280 then 390 px`, async ({ page }) => {
    test.setTimeout(120_000);
    const w = words[language];
    await page.setViewportSize({ width: 1280, height: 900 });
    await usePreferences(page, { language });
    const user = uniqueUser();
    await registerByApi(page.request, user);
    await loginByApi(page.request, user);
    const { address } = await trpcQuery<{ address: string }>(page.request, 'wallet.address');
    await faucet(address, 100_000);
    await expect
      .poll(async () => (await trpcQuery<{ stable: string }>(page.request, 'wallet.balance')).stable, { timeout: 30_000 })
      .toBe('100000');
    // Two sends to one person, one to another: settled at once between Quern wallets (ADR 019).
    const alice = await apiUser();
    const bob = await apiUser();
    const addressOf = async (api: typeof alice.api) => (await trpcQuery<{ address: string }>(api, 'wallet.address')).address;
    const [aliceAddress, bobAddress] = [await addressOf(alice.api), await addressOf(bob.api)];
    await trpcMutation(page.request, 'wallet.send', { to: aliceAddress, amount: '2000', fee: '1000' });
    await trpcMutation(page.request, 'wallet.send', { to: aliceAddress, amount: '3000', fee: '1000' });
    await trpcMutation(page.request, 'wallet.send', { to: bobAddress, amount: '4000', fee: '1000' });
    await expect
      .poll(async () => (await trpcQuery<{ total: number }>(page.request, 'wallet.transactions', { page: 0 })).total, { timeout: 30_000 })
      .toBe(4);

    await page.goto('/account');
    const table = page.getByRole('region', { name: language === 'en' ? 'Transactions' : 'Transacciones' }).locator('tbody tr');
    await expect(table).toHaveCount(4);

    // Counterparty (any case) and a one-day range: only the sends to alice, today.
    await page.getByText(w.filter, { exact: true }).click();
    await page.getByLabel(w.counterparty).fill(alice.user.userName.toUpperCase());
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel(w.from, { exact: true }).fill(today);
    await page.getByLabel(w.to, { exact: true }).fill(today);
    // The chosen day in the page's own format (both languages write day/month/year), not the ISO text.
    const [year, month, day] = today.split('-');
    await expect(page.locator('.history-filter-day').first()).toHaveText(`${day}/${month}/${year}`);
    await page.getByRole('button', { name: w.apply }).click();
    await expect(page).toHaveURL(new RegExp(`counterparty=${alice.user.userName.toUpperCase()}`));
    await expect(table).toHaveCount(2);
    await expect(table.filter({ hasText: `${w.sentTo} ${alice.user.userName}` })).toHaveCount(2);
    await shot(page, 'counterparty', language, 1280);
    await expectNoSeriousViolations(page);

    // The filter is in the URL: a reload keeps it.
    await page.reload();
    await expect(table).toHaveCount(2);
    await expect(page.getByLabel(w.counterparty)).toHaveValue(alice.user.userName.toUpperCase());

    // Kind received with alice: nothing matches, and the page says so.
    await page.getByLabel(w.kind).selectOption({ label: w.received });
    await page.getByRole('button', { name: w.apply }).click();
    await expect(page.getByText(w.noMatches)).toBeVisible();
    await expect(page).toHaveURL(/kind=received/);

    // A reversed range is refused at the field, with its message; the URL keeps the last good filter.
    await page.getByLabel(w.from, { exact: true }).fill('2026-02-02');
    await page.getByLabel(w.to, { exact: true }).fill('2026-02-01');
    await page.getByRole('button', { name: w.apply }).click();
    await expect(page.getByRole('alert').filter({ hasText: w.range })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`from=${today}`));
    await shot(page, 'refused', language, 1280);
    await expectNoSeriousViolations(page);

    // Only the kind: the reserve's deposit is the one received row.
    await page.getByRole('button', { name: w.clear }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(table).toHaveCount(4);
    await page.getByLabel(w.kind).selectOption({ label: w.received });
    await page.getByRole('button', { name: w.apply }).click();
    await expect(table).toHaveCount(1);

    // The phone: the same filter, nothing sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const cards = page.locator('.tx-card');
    await expect(cards).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'kind', language, 390);
    await expectNoSeriousViolations(page);
    await alice.api.dispose();
    await bob.api.dispose();
  });
}

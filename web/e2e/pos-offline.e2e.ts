// Proves the point of sale's offline shell (ADR 085) in a real browser against a real Quern: after
// one visit its service worker is active, controls /pos and keeps the page and the files it loaded;
// offline, a reload of /pos shows the keypad (not the sign-in page nor 'This page could not be
// loaded'), and Charge says, in words, that charging needs a connection, at once, with nothing
// made; back online, the same keypad charges and the sale's code shows. In Spanish, the message is
// Spanish. Screenshot: test-results/screenshots/pos-offline-390.png.
import { expect, type Page, test } from '@playwright/test';
import { usePreferences } from './contentPages.js';
import { loginByApi, registerByApi, trpcQuery, uniqueUser } from './users.js';

const OFFLINE_EN = 'You are offline. Charging needs a connection: connect to the internet, then charge again.';
const OFFLINE_ES = 'No hay conexión. Para cobrar hace falta internet: conéctese y vuelva a cobrar.';

test.use({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });

/** Until the worker controls the page and keeps every app file the page loaded (it caches them after the page hands it their list). */
async function waitForOfflineShell(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  });
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const cache = await caches.open('quern-pos-v1');
          const files = performance
            .getEntriesByType('resource')
            .map((entry) => new URL(entry.name))
            .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
            .map((url) => url.pathname);
          const kept = await Promise.all(files.map((file) => cache.match(file)));
          return files.length > 0 && kept.every(Boolean) && (await cache.match('/pos')) !== undefined;
        }),
      { timeout: 20_000 },
    )
    .toBe(true);
}

async function typeAmount(page: Page, keys: string[]): Promise<void> {
  const keypad = page.getByRole('group', { name: /^(Keypad|Teclado)$/ });
  for (const key of keys) await keypad.getByRole('button', { name: key, exact: true }).click();
}

test('offline, the point of sale opens its keypad and says charging needs a connection; back online, it charges', async ({
  page,
  context,
}) => {
  const user = uniqueUser();
  await registerByApi(page.request, user);
  await loginByApi(page.request, user);
  await page.goto('/pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Point of sale' })).toBeVisible();
  await waitForOfflineShell(page);

  await context.setOffline(true);
  await page.reload();
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Point of sale' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Keypad' })).toBeVisible();
  await typeAmount(page, ['2', '5', '00']);
  await expect(page.getByTestId('pos-amount')).toHaveText('2,500 MLX');
  await page.getByRole('button', { name: 'Charge' }).click();
  await expect(page.getByRole('alert')).toHaveText(OFFLINE_EN);
  // Not waiting on a request that cannot go: the button is ready again and no sale is shown.
  await expect(page.getByRole('button', { name: 'Charge' })).toBeEnabled();
  await expect(page.getByTestId('pos-sale')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/pos-offline-390.png', fullPage: true });

  await context.setOffline(false);
  await page.getByRole('button', { name: 'Charge' }).click();
  await expect(page.getByTestId('pos-qr')).toBeVisible();
  await expect(page.getByTestId('pos-sale-amount')).toHaveText('2,500 MLX');
  const { data } = await trpcQuery<{ data: { amount_mlx: string }[] }>(page.request, 'invoices.list', { limit: 20 });
  expect(data.map((invoice) => invoice.amount_mlx)).toEqual(['2500']);
});

test('offline, charging says so in Spanish', async ({ page, context }) => {
  await usePreferences(page, { language: 'es' });
  const user = uniqueUser();
  await registerByApi(page.request, user);
  await loginByApi(page.request, user);
  await page.goto('/pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Punto de venta' })).toBeVisible();
  await typeAmount(page, ['7', '5']);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Cobrar' }).click();
  await expect(page.getByRole('alert')).toHaveText(OFFLINE_ES);
  await expect(page.getByRole('button', { name: 'Cobrar' })).toBeEnabled();
  await context.setOffline(false);
});

// Proves the dashboard's Receive (issue 27, ADR 079) in a real browser against a real Quern: the
// dialog's QR code, decoded from a screenshot with a QR decoder, is the wallet's millix payment URI,
// first bare and then with the amount typed; an amount past the supply is refused with Send's
// message and no code; Escape closes it and gives focus back to Receive; the words are Spanish on a
// Spanish page; axe finds nothing serious. Screenshots: test-results/screenshots/receive-*.png.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { usePreferences } from './contentPages.js';
import { loginByApi, registerByApi, trpcQuery, uniqueUser } from './users.js';

/** What the QR code on screen says, read from its pixels as a phone's camera would. */
async function decodeQr(image: Locator): Promise<string | null> {
  const png = PNG.sync.read(await image.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

async function expectNoSeriousViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const viewport of [
  { name: 'mobile', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const) {
  test.describe(viewport.name, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: 'reduce' });

    test(`Receive shows the address as a scannable payment request, with the amount asked for (${viewport.name})`, async ({ page }) => {
      const user = uniqueUser();
      await registerByApi(page.request, user);
      await loginByApi(page.request, user);
      const { address } = await trpcQuery<{ address: string }>(page.request, 'wallet.address');

      await page.goto('/account');
      const open = page.getByRole('button', { name: 'Receive', exact: true });
      await open.click();
      const dialog = page.getByRole('dialog', { name: 'Receive MLX' });
      await expect(dialog).toBeVisible();
      const qr = dialog.getByTestId('receive-qr');
      await expect(qr).toBeVisible();
      await expect(dialog.getByTestId('receive-uri')).toHaveText(`millix:${address}`);
      await expect.poll(() => decodeQr(qr)).toBe(`millix:${address}`);
      await expectNoSeriousViolations(page);

      await dialog.getByLabel('Amount to ask for (optional)').fill('12500');
      await expect(dialog.getByTestId('receive-uri')).toHaveText(`millix:${address}?amount=12500`);
      await expect.poll(() => decodeQr(qr)).toBe(`millix:${address}?amount=12500`);
      await page.screenshot({ path: `test-results/screenshots/receive-${viewport.name}.png`, fullPage: true });

      // More than the supply (the field takes at most 16 digits): the server refuses it with Send's message.
      await dialog.getByLabel('Amount to ask for (optional)').fill('9999999999999999');
      await expect(dialog).toContainText('The amount is larger than the total millix supply.');
      await expect(dialog.getByTestId('receive-qr')).toHaveCount(0);

      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(open).toBeFocused();

      await usePreferences(page, { language: 'es' });
      await page.goto('/account');
      await page.getByRole('button', { name: 'Recibir', exact: true }).click();
      const spanish = page.getByRole('dialog', { name: 'Recibir MLX' });
      await expect(spanish.getByLabel('Importe a pedir (opcional)')).toBeVisible();
      await expect.poll(() => decodeQr(spanish.getByTestId('receive-qr'))).toBe(`millix:${address}`);
    });
  });
}

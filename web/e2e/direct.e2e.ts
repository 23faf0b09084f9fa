// Proves the API Direct page in a real browser against a real Quern: with no key it shows the
// 'No data' card and 'No key available. Please generate one.'; Generate shows the full key once
// (with Copy) and the key authenticates GET /api/v1/me; a reload shows it masked (prefix … last
// four); Delete brings back 'No key available. Please generate one.' and the key answers 401.
// The page passes axe without serious violations. With a key in place, Generate and Delete ask
// first in a dialog that says integrations using the key stop at once: Cancel keeps the key,
// confirming replaces or deletes it; in English and Spanish at 390 and 1280 px, axe on the dialog.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { recordSecret } from './secrets-record.js';
import { loginByApi, registerByApi, uniqueUser } from './users.js';

test('generate a key, see it once, reload shows it masked, delete shows no key', async ({ page, request }) => {
  const user = uniqueUser();
  await registerByApi(page.request, user);
  await loginByApi(page.request, user);

  await page.goto('/api-direct');
  await expect(page.getByRole('heading', { level: 1, name: 'API Direct' })).toBeVisible();
  await expect(page.getByText('No key available. Please generate one.')).toBeVisible();
  await expect(page.getByTestId('direct-no-data')).toContainText('No data');
  await expect(page.getByText('Generating a new key invalidates the previous one at once.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeDisabled();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await page.getByRole('button', { name: 'Generate' }).click();
  const keyBox = page.getByTestId('direct-key');
  await expect(keyBox).toHaveText(/^qk_test_[A-Za-z0-9_-]{43}$/);
  const apiKey = (await keyBox.textContent()) ?? '';
  recordSecret('API key', apiKey);
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();

  // The key works for an integrator (a context without the browser's cookies).
  const me = await request.get('/api/v1/me', { headers: { authorization: `Bearer ${apiKey}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).username).toBe(user.userName);

  await page.reload();
  await expect(keyBox).toHaveText(`qk_test_…${apiKey.slice(-4)}`);
  await expect(page.getByRole('button', { name: 'Copy' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete key' }).click();
  await expect(page.getByText('No key available. Please generate one.')).toBeVisible();
  await expect(keyBox).toHaveCount(0);
  expect((await request.get('/api/v1/me', { headers: { authorization: `Bearer ${apiKey}` } })).status()).toBe(401);
});

const confirmTexts = {
  en: {
    generate: 'Generate',
    delete: 'Delete',
    replaceTitle: 'Replace your API key?',
    deleteTitle: 'Delete your API key?',
    text: 'Integrations using the current key stop working at once.',
    replace: 'Replace key',
    deleteKey: 'Delete key',
    cancel: 'Cancel',
    noKey: 'No key available. Please generate one.',
  },
  es: {
    generate: 'Generar',
    delete: 'Eliminar',
    replaceTitle: '¿Reemplazar su clave de API?',
    deleteTitle: '¿Eliminar su clave de API?',
    text: 'Las integraciones que usan la clave actual dejan de funcionar de inmediato.',
    replace: 'Reemplazar clave',
    deleteKey: 'Eliminar clave',
    cancel: 'Cancelar',
    noKey: 'No hay ninguna clave disponible. Por favor, genere una.',
  },
} as const;

const bearer = (apiKey: string) => ({ headers: { authorization: `Bearer ${apiKey}` } });

for (const language of ['en', 'es'] as const) {
  for (const width of [390, 1280] as const) {
    test(`replacing or deleting a key asks first (${language}, ${width} px)`, async ({ page, request }) => {
      const texts = confirmTexts[language];
      const user = uniqueUser();
      await registerByApi(page.request, user);
      await loginByApi(page.request, user);
      await page.context().addCookies([{ name: 'quern.language', value: language, url: process.env.QUERN_E2E_BASE_URL ?? '' }]);
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/api-direct');
      await expect(page.getByText(texts.noKey)).toBeVisible();

      // The first key replaces nothing: no question.
      await page.getByRole('button', { name: texts.generate, exact: true }).click();
      const keyBox = page.getByTestId('direct-key');
      await expect(keyBox).toHaveText(/^qk_test_/);
      const first = (await keyBox.textContent()) ?? '';
      recordSecret('API key', first);
      await expect(page.getByRole('alertdialog')).toHaveCount(0);

      // Generate again asks; Cancel keeps the key working.
      await page.getByRole('button', { name: texts.generate, exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: texts.replaceTitle });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(texts.text);
      await page.screenshot({ path: `test-results/screenshots/direct-key-replace-confirm-${language}-${width}.png` });
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await dialog.getByRole('button', { name: texts.cancel }).click();
      await expect(dialog).toHaveCount(0);
      await expect(keyBox).toHaveText(first);
      expect((await request.get('/api/v1/me', bearer(first))).status()).toBe(200);

      // Confirming replaces it: the old key stops working.
      await page.getByRole('button', { name: texts.generate, exact: true }).click();
      await dialog.getByRole('button', { name: texts.replace }).click();
      await expect(dialog).toHaveCount(0);
      await expect(keyBox).toHaveText(/^qk_test_/);
      await expect(keyBox).not.toHaveText(first);
      const second = (await keyBox.textContent()) ?? '';
      recordSecret('API key', second);
      expect((await request.get('/api/v1/me', bearer(first))).status()).toBe(401);
      expect((await request.get('/api/v1/me', bearer(second))).status()).toBe(200);

      // Delete asks too; Cancel keeps it, confirming deletes it.
      await page.getByRole('button', { name: texts.delete, exact: true }).click();
      const deleteDialog = page.getByRole('alertdialog', { name: texts.deleteTitle });
      await expect(deleteDialog).toContainText(texts.text);
      await page.screenshot({ path: `test-results/screenshots/direct-key-delete-confirm-${language}-${width}.png` });
      const deleteAxe = await new AxeBuilder({ page }).analyze();
      expect(deleteAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      await deleteDialog.getByRole('button', { name: texts.cancel }).click();
      await expect(keyBox).toHaveText(second);
      expect((await request.get('/api/v1/me', bearer(second))).status()).toBe(200);
      await page.getByRole('button', { name: texts.delete, exact: true }).click();
      await deleteDialog.getByRole('button', { name: texts.deleteKey }).click();
      await expect(page.getByText(texts.noKey)).toBeVisible();
      expect((await request.get('/api/v1/me', bearer(second))).status()).toBe(401);
    });
  }
}

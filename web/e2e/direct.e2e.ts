// Proves the API Direct page in a real browser against a real Quern: with no key it shows the
// 'No data' card and 'No key available. Please generate one.'; Generate shows the full key once
// (with Copy) and the key authenticates GET /api/v1/me; a reload shows it masked (prefix … last
// four); Delete brings back 'No key available. Please generate one.' and the key answers 401.
// The page passes axe without serious violations.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
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
  await expect(keyBox).toHaveText(/^qk_live_[A-Za-z0-9_-]{43}$/);
  const apiKey = (await keyBox.textContent()) ?? '';
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();

  // The key works for an integrator (a context without the browser's cookies).
  const me = await request.get('/api/v1/me', { headers: { authorization: `Bearer ${apiKey}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).username).toBe(user.userName);

  await page.reload();
  await expect(keyBox).toHaveText(`qk_live_…${apiKey.slice(-4)}`);
  await expect(page.getByRole('button', { name: 'Copy' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No key available. Please generate one.')).toBeVisible();
  await expect(keyBox).toHaveCount(0);
  expect((await request.get('/api/v1/me', { headers: { authorization: `Bearer ${apiKey}` } })).status()).toBe(401);
});

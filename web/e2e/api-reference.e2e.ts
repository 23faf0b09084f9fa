// Proves, in Chromium against the built app, that /developers/api shows its own texts in English
// and Spanish and the operations of /api/v1/openapi.json drawn by the viewer (getOrder among them),
// that everything it loads comes from Quern's origin with no CSP violation or console error, that
// /developers links to it, and saves a screenshot of each language for review.
import { expect, test } from '@playwright/test';
import { readLocale, usePreferences } from './contentPages.js';

const screenshotDir = 'test-results/screenshots';

interface ApiReferenceTexts {
  heading: string;
  sections: Record<string, { heading: string }>;
  viewer: { heading: string };
}

for (const language of ['en', 'es'] as const) {
  test(`/developers/api in ${language}: its texts and the operations from the OpenAPI document`, async ({ page, baseURL }) => {
    const texts = readLocale<ApiReferenceTexts>(language, 'apiReference');
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.origin !== new URL(baseURL as string).origin) foreign.push(request.url());
    });
    await usePreferences(page, { language });

    await page.goto('/developers/api');

    // The page's own h1 comes first; Swagger UI adds its document title as a second h1 once loaded.
    await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(texts.heading);
    for (const section of Object.values(texts.sections))
      await expect(page.getByRole('heading', { level: 2, name: section.heading })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: texts.viewer.heading })).toBeVisible();
    // Swagger UI shows each operation with its id (displayOperationId).
    const getOrder = page.locator('.opblock').filter({ hasText: 'getOrder' });
    await expect(getOrder).toBeVisible();
    await expect(getOrder).toContainText('/orders/{order}');
    await expect(page.locator('.opblock').filter({ hasText: 'verifyOrderToken' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `${screenshotDir}/api-reference-${language}.png`, fullPage: true });
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('/developers links to the API reference', async ({ page }) => {
  await usePreferences(page, { language: 'en' });
  await page.goto('/developers');
  await page.getByRole('link', { name: 'Merchant API reference (every operation)' }).click();
  await expect(page).toHaveURL(/\/developers\/api$/);
  await expect(page.locator('.opblock').filter({ hasText: 'getOrder' })).toBeVisible();
});

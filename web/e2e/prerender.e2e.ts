// Proves the fast first load (ADR 023) in Chromium against the built app: each public page comes
// prerendered in the visitor's language (cookie, else Accept-Language, else English), compressed
// as negotiated and with the right caching; hydration changes nothing that shows (no React
// hydration error, no stylesheet arriving late, the same text once the app is live); dark mode is
// on before the first paint; and the CSP allows the inline script while refusing any other.
import { expect, test, type Page } from '@playwright/test';

const prerenderedPaths = [
  '/',
  '/login',
  '/register',
  '/password-reset',
  '/faqs',
  '/about',
  '/terms-of-service',
  '/privacy-policy',
  '/wordpress',
];
const languages = ['en', 'es'] as const;

/** The page as the server sent it, before any script ran. */
async function serverHtml(page: Page, path: string, headers: Record<string, string>) {
  const response = await page.request.get(path, { headers });
  return { response, html: await response.text() };
}

const rootText = (html: string) =>
  (html.match(/<div id="root">([\s\S]*)<\/div>\s*<\/body>/)?.[1] ?? '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();

for (const language of languages) {
  for (const path of prerenderedPaths) {
    test(`${path} in ${language}: prerendered, then hydrated without a visible change`, async ({ page }) => {
      const { response, html } = await serverHtml(page, path, { cookie: `quern.language=${language}` });
      expect(response.status()).toBe(200);
      expect(response.headers()['content-language']).toBe(language);
      expect(html).toContain(`<html lang="${language}">`);
      const prerenderedText = rootText(html);
      expect(prerenderedText.length).toBeGreaterThan(20);

      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.context().addCookies([{ name: 'quern.language', value: language, url: process.env.QUERN_E2E_BASE_URL as string }]);
      await page.goto(path);
      const sheetsAtLoad = await page.evaluate(() => Array.from(document.styleSheets, (sheet) => sheet.href));
      // Live: the session check has answered (the visitor links are no longer pending).
      await expect(page.locator('.nav-links-pending')).toHaveCount(0);
      await page.waitForLoadState('networkidle');
      const sheetsLater = await page.evaluate(() => Array.from(document.styleSheets, (sheet) => sheet.href));
      expect(sheetsLater, 'a stylesheet arrived after the page loaded (scripts/prerender.mjs misses a module)').toEqual(sheetsAtLoad);
      const liveText = await page.evaluate(() => (document.getElementById('root')?.innerText ?? '').replace(/\s+/g, ' ').trim());
      // innerText skips what CSS hides (the small-screen menu); every word shown must be the server's.
      const serverCompact = prerenderedText.replace(/\s+/g, '');
      for (const word of liveText.split(' ')) expect(serverCompact).toContain(word);
      expect(problems).toEqual([]);
    });
  }
}

test('the language: cookie beats Accept-Language, which beats the default', async ({ page }) => {
  const lang = async (headers: Record<string, string>) => (await serverHtml(page, '/faqs', headers)).html.match(/<html lang="(\w+)">/)?.[1];
  expect(await lang({ 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' })).toBe('es');
  expect(await lang({ 'accept-language': 'fr-FR' })).toBe('en');
  expect(await lang({ 'accept-language': 'es', cookie: 'quern.language=en' })).toBe('en');
  expect(await lang({ 'accept-language': 'en', cookie: 'quern.language=es' })).toBe('es');
});

test('an unknown path is the prerendered 404 page with status 404; an app route gets the shell', async ({ page }) => {
  const missing = await serverHtml(page, '/no-such-page', { cookie: 'quern.language=es' });
  expect(missing.response.status()).toBe(404);
  expect(missing.html).toContain('<html lang="es">');
  expect(rootText(missing.html).length).toBeGreaterThan(0);
  const shell = await serverHtml(page, '/millix/send', {});
  expect(shell.response.status()).toBe(200);
  expect(rootText(shell.html)).toBe('');
});

test('compression is negotiated and cached as it should be', async ({ page }) => {
  for (const [encoding, expected] of [
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
  ] as const) {
    const html = await page.request.get('/', { headers: { 'accept-encoding': encoding } });
    expect(html.headers()['content-encoding']).toBe(expected);
    expect(html.headers().vary).toMatch(/Accept-Encoding/i);
    expect(html.headers()['cache-control']).toBe('no-cache');
  }
  const home = await page.request.get('/');
  const script = (await home.text()).match(/<script type="module" crossorigin src="([^"]+)"/)?.[1] as string;
  const asset = await page.request.get(script, { headers: { 'accept-encoding': 'br' } });
  expect(asset.status()).toBe(200);
  expect(asset.headers()['content-encoding']).toBe('br');
  expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('dark mode is applied before the first paint, and the CSP refuses inline scripts other than ours', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('quern.darkMode', '1'));
  await page.goto('/about', { waitUntil: 'commit' });
  // The body carries the class before any external script could run.
  await expect(page.locator('body')).toHaveClass(/dark-mode/);
  const csp = (await page.request.get('/about')).headers()['content-security-policy'] ?? '';
  const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src ')) ?? '';
  expect(scriptSrc).toMatch(/^script-src 'self' 'sha256-[A-Za-z0-9+/=]+'$/);
  const injected = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true';
    document.body.append(script);
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(injected).toBe(false);
});

/** Holds the app's entry script back until the returned function is called: the page stays as prerendered. */
async function holdAppScript(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('what a visitor types into a prerendered form before the app has loaded is kept, and submits through the app', async ({ page }) => {
  // Hold the app's entry script back until the form has been filled.
  const release = await holdAppScript(page);
  // Module scripts run before DOMContentLoaded, so wait only for the prerendered form itself.
  await page.goto('/login', { waitUntil: 'commit' });
  await page.locator('#email').fill('nobody@example.com');
  await page.locator('#password').fill('wrong password');
  // Not yet hydrated: the button cannot submit the form natively (fields in the URL).
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
  release();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid e-mail or password.');
  expect(page.url()).not.toContain('password');
  await expect(page.locator('#email')).toHaveValue('nobody@example.com');
});

test('on a prerendered register page, Read the terms waits for the app and then opens the terms', async ({ page }) => {
  // Hold the app's entry script back: the prerendered button has no handler yet.
  const release = await holdAppScript(page);
  await page.goto('/register', { waitUntil: 'commit' });
  const readTerms = page.getByRole('button', { name: 'Read the terms' });
  // A click now would do nothing; the button says it is not ready rather than swallowing it.
  await expect(readTerms).toBeDisabled();
  release();
  await readTerms.click();
  await expect(page.getByRole('dialog', { name: 'Terms of Service in brief' })).toBeVisible();
});

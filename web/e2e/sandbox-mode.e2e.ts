// Proves the sandbox's visible signs in Chromium (ADR 050): on the e2e Quern (a sandbox) the
// banner 'Sandbox: test money only' is at the top of the home page, a signed-in page and the
// checkout popup, in English and in Spanish, named to assistive technology (role note) with its
// contrast checked by axe in light and dark, above the header and in no dialog's way; the
// embeddable button never shows it. A second Quern started in LIVE mode (against the fake millix
// node server, a stub PayPal OAuth endpoint and an SMTP stand-in, its DATA_DIR under
// .test-data/) serves the same build with no banner anywhere and refuses a sandbox key with the
// reason. Screenshots of the banner (light and dark, desktop and mobile) go to test-results/.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type FakeMillixNode, startFakeMillixNode } from '@quern/adapters/millix/fake-node-server';
import { freePort, type RedisServer, startPrivateRedis } from '@quern/test-support/redis';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { readLocale, signIn, usePreferences, viewports, themes, type Language } from './contentPages.js';
import { checkoutUrl, loginByApi, registerByApi, uniqueUser } from './users.js';
import { durableTestDataDir } from '@quern/test-support/durable-dir';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const banner = (page: Page) => page.locator('[data-quern-sandbox-banner]');
const bannerText = (language: Language) => readLocale<{ sandboxBanner: string }>(language, 'common').sandboxBanner;

/** Where an element is drawn, read in the page (Playwright's boundingBox stalled on the animated home page). */
const boxOf = (locator: Locator) =>
  locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top, bottom: rect.bottom, left: rect.left, width: rect.width, height: rect.height };
  });

/** The banner is shown, first in the page, above everything else, in `language`. */
async function expectBannerAtTop(page: Page, language: Language): Promise<void> {
  const strip = page.getByRole('note').filter({ hasText: bannerText(language) });
  await expect(strip).toBeVisible();
  await expect(strip).toHaveText(bannerText(language));
  await expect(banner(page)).toHaveCount(1);
  const box = await boxOf(strip);
  expect(box.top).toBe(0);
  // Slim: one line, not a block that pushes the page down.
  expect(box.height).toBeLessThanOrEqual(40);
}

test.describe('a sandbox Quern (the e2e server)', () => {
  // Axe reads contrast at one instant and the slogans fade; a busy 2-core machine is slow to start pages.
  test.use({ reducedMotion: 'reduce' });
  test.setTimeout(90_000);
  for (const language of ['en', 'es'] as const) {
    test(`shows the banner on the home page, above the header, in ${language}`, async ({ page }) => {
      await usePreferences(page, { language });
      await page.goto('/');
      await expectBannerAtTop(page, language);
      // The header starts below the banner: nothing covers it.
      const strip = await boxOf(banner(page));
      const header = await boxOf(page.locator('header.site-header'));
      expect(header.top).toBeGreaterThanOrEqual(strip.bottom);
      await expect(page.locator('meta[name="quern-mode"]')).toHaveAttribute('content', 'sandbox');
    });

    test(`shows the banner on a signed-in page in ${language}`, async ({ page }) => {
      await usePreferences(page, { language });
      await signIn(page);
      await page.goto('/account');
      await expect(page).toHaveURL(/\/account$/);
      await expectBannerAtTop(page, language);
      // It stays through client-side navigation and follows a language change.
      await page.goto('/millix/sell');
      await expectBannerAtTop(page, language);
    });

    test(`shows the banner on the checkout popup in ${language}`, async ({ page, request }) => {
      const merchant = uniqueUser();
      await registerByApi(request, merchant);
      await usePreferences(page, { language });
      await page.setViewportSize({ width: 480, height: 760 });
      await page.goto(checkoutUrl(merchant.userName, `banner-${language}`));
      await expect(page.locator('#checkout-title')).toBeVisible();
      await expectBannerAtTop(page, language);
      // The popup still fits its window: the banner takes its height from the page, not on top of it.
      const scroll = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      expect(scroll).toBeLessThanOrEqual(1);
    });
  }

  test('a dialog covers the banner rather than the banner covering the dialog', async ({ page }) => {
    await page.goto('/register');
    await expectBannerAtTop(page, 'en');
    await page.getByRole('button', { name: 'Read the terms' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    // Opening the dialog may have scrolled the page (the button was below the fold on a loaded
    // machine): elementFromPoint answers null for a point outside the viewport, so the banner is
    // brought back into view before its centre is probed.
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = await boxOf(banner(page));
    expect(box.top).toBe(0);
    // The point at the banner's centre belongs to the dialog's backdrop or the dialog, not the banner.
    const hit = await page.evaluate(
      ([x, y]) => {
        const element = document.elementFromPoint(x, y);
        return element === null ? 'nothing' : element.closest('[data-quern-sandbox-banner]') === null ? 'covered' : 'banner';
      },
      [box.left + box.width / 2, box.top + box.height / 2] as const,
    );
    expect(hit).toBe('covered');
  });

  for (const language of ['en', 'es'] as const) {
    test(`never shows the banner on the embeddable button, in ${language}`, async ({ page }) => {
      await usePreferences(page, { language });
      await page.goto('/checkout-buttons');
      await expect(page.getByRole('button', { name: 'Quern' })).toBeVisible();
      // The page knows it is a sandbox; the banner is left out by design, not by mode.
      await expect(page.locator('meta[name="quern-mode"]')).toHaveAttribute('content', 'sandbox');
      await expect(banner(page)).toHaveCount(0);
      await expect(page.getByText(bannerText(language))).toHaveCount(0);
    });
  }

  for (const theme of themes) {
    for (const viewport of viewports) {
      test(`the banner meets contrast in ${theme} at ${viewport.name} (axe), screenshot`, async ({ page }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await usePreferences(page, { theme, language: 'es' });
        await page.goto('/', { waitUntil: 'networkidle' });
        await expectBannerAtTop(page, 'es');
        const { violations } = await new AxeBuilder({ page }).include('[data-quern-sandbox-banner]').analyze();
        expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
        mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
        await page.screenshot({ path: join(repoRoot, 'test-results', `sandbox-banner-${theme}-${viewport.name}.png`) });
      });
    }
  }
});

/** A stand-in for PayPal's OAuth endpoint: a live Quern may ask it for a token; nothing here pays. */
async function startPayPalOAuthStub(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/v1/oauth2/token') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'stub-token', token_type: 'Bearer', expires_in: 32_400 }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"name":"RESOURCE_NOT_FOUND"}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test.describe('a live Quern', () => {
  test.describe.configure({ mode: 'serial' });
  // Starting a second Quern (tsx, its web build copy) takes a while on a busy machine.
  test.setTimeout(120_000);

  let quern: ChildProcess | undefined;
  let liveUrl = '';
  let node: FakeMillixNode | undefined;
  let paypal: { url: string; server: Server } | undefined;
  let smtp: TestSmtpServer | undefined;
  let redis: RedisServer | undefined;
  let dataDir = '';

  test.beforeAll(async () => {
    // tsx compiles the whole api on start: well over the default hook timeout on a busy machine.
    test.setTimeout(180_000);
    node = await startFakeMillixNode({ nodeId: 'e2e-live-node', nodeSignature: 'e2e-live-signature' });
    paypal = await startPayPalOAuthStub();
    smtp = await startTestSmtpServer();
    redis = await startPrivateRedis();
    const port = await freePort();
    dataDir = durableTestDataDir('live-e2e');
    mkdirSync(join(repoRoot, 'test-results'), { recursive: true });
    const logFile = join(repoRoot, 'test-results', 'quern-live-e2e.log');
    quern = spawn(process.execPath, ['--import', 'tsx', 'api/src/bin/quern.ts'], {
      cwd: repoRoot,
      stdio: ['ignore', openSync(logFile, 'w'), openSync(logFile, 'a')],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        QUERN_MODE: 'live',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: 'https://pay.quern-live.example',
        DATA_DIR: dataDir,
        REDIS_URL: redis.url,
        APP_SECRET: randomBytes(32).toString('hex'),
        PERSONAL_DATA_KEY: randomBytes(32).toString('hex'),
        MILLIX_NETWORK: 'mainnet',
        MILLIX_NODE_URL: node.url,
        MILLIX_NODE_ID: 'e2e-live-node',
        MILLIX_NODE_SIGNATURE: 'e2e-live-signature',
        PAYPAL_ENV: 'live',
        PAYPAL_API_URL: paypal.url,
        PAYPAL_CLIENT_ID: 'live-client',
        PAYPAL_CLIENT_SECRET: 'live-secret',
        PAYPAL_WEBHOOK_ID: 'WH-LIVE-E2E',
        SMTP_URL: smtp.url,
      },
    });
    liveUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 170_000;
    for (;;) {
      if (quern.exitCode !== null) throw new Error(`the live Quern exited with ${quern.exitCode}; see ${logFile}`);
      const status = await fetch(`${liveUrl}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() > deadline) throw new Error(`the live Quern did not become healthy; see ${logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  test.afterAll(async () => {
    if (quern && quern.exitCode === null) {
      const exited = new Promise((resolve) => quern?.once('exit', resolve));
      quern.kill('SIGTERM');
      await exited;
    }
    await redis?.stop();
    await smtp?.stop();
    await node?.close();
    await new Promise<void>((done) => (paypal ? paypal.server.close(() => done()) : done()));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('shows no banner on any page, in either language, light or dark', async ({ page }) => {
    for (const language of ['en', 'es'] as const) {
      await page.context().addCookies([{ name: 'quern.language', value: language, url: liveUrl }]);
      for (const path of ['/', '/login', '/faqs', '/account', '/checkout?price=1&currency=mlx&to=nobody', '/nowhere']) {
        const response = await page.goto(`${liveUrl}${path}`);
        const html = (await response?.text()) ?? '';
        expect(html, path).toContain('<meta name="quern-mode" content="live" />');
        expect(html, path).not.toContain('data-quern-sandbox-banner');
        expect(html, path).not.toContain(`>${bannerText(language)}<`);
        await expect(banner(page)).toHaveCount(0);
        await expect(page.getByText(bannerText(language))).toHaveCount(0);
      }
    }
    await page.goto(`${liveUrl}/`);
    // The page itself is there (in Spanish, the last language set), only without the banner.
    await expect(page.getByRole('heading', { name: '¡Bienvenido!' })).toBeVisible();
    await page.screenshot({ path: join(repoRoot, 'test-results', 'sandbox-banner-absent-live.png') });
  });

  test('refuses a sandbox key with a message that says why', async ({ request }) => {
    const answer = await request.get(`${liveUrl}/api/v1/me`, { headers: { authorization: `Bearer qk_test_${'A'.repeat(43)}` } });
    expect(answer.status()).toBe(401);
    const body = await answer.json();
    expect(body.error.code).toBe('sandbox_key_on_live');
    expect(body.error.message).toBe(
      "This is a sandbox key (qk_test_…); this Quern is live and moves real money. Use a live key (qk_live_…), generated on this Quern's API Direct page.",
    );
  });
});

test.describe('the sandbox e2e server, for comparison', () => {
  test('a sandbox key works there and its objects say livemode false', async ({ request }) => {
    const user = uniqueUser();
    await registerByApi(request, user);
    await loginByApi(request, user);
    const generated = await request.post('/api/direct/key-generate', { headers: { origin: process.env.QUERN_E2E_BASE_URL ?? '' } });
    const key = (await generated.json()).content.api_key as string;
    expect(key).toMatch(/^qk_test_[A-Za-z0-9_-]{43}$/);
    const me = await request.get('/api/v1/me', { headers: { authorization: `Bearer ${key}` } });
    expect(await me.json()).toMatchObject({ username: user.userName, livemode: false });
  });
});

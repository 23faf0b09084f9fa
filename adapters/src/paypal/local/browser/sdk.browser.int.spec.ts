/**
 * The local SDK and approval popup in a real (headless) Chromium: a shop page on one origin
 * loads the SDK from the local PayPal server on another, as Quern's Buy screen will. The shop
 * sends what the router's header comment says an opener must send (COOP
 * same-origin-allow-popups, a CSP allowing the SDK's origin), so these tests also prove that is
 * enough.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { build } from 'esbuild';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeLocalPayPalState } from '../../../../test/paypal/fake-state.js';
import { POPUP_TEXT } from './pages.js';
import { createLocalPayPalBrowserRoutes } from './routes.js';
import { type ServedApp, serve } from '../../../../test/paypal/test-server.js';

interface ShopEvent {
  type: string;
  [key: string]: unknown;
}
interface ShopWindow {
  shopEvents: ShopEvent[];
}

const PAYPAL_PREFIX = '/pp';
const SDK_QUERY = 'client-id=shop-client&currency=USD&intent=capture&components=buttons&enable-funding=card&disable-funding=paylater';
const paypalJsIife = join(dirname(createRequire(import.meta.url).resolve('@paypal/paypal-js')), '../iife/paypal-js.js');

const state = new FakeLocalPayPalState();
let paypalServer: ServedApp;
let shopServer: ServedApp;
let browser: Browser;
let orderCount = 0;
let reactShopBundle: string;

/** The React shop (react-paypal-js), bundled once for the page to load as one script. */
async function bundleReactShop(): Promise<string> {
  const result = await build({
    entryPoints: [new URL('./test-shop/react-shop.js', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'iife',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

function shopApp(paypalOrigin: string): express.Express {
  const app = express();
  const sdkBaseUrl = `${paypalOrigin}${PAYPAL_PREFIX}/sdk/js`;
  app.use((_req, res, next) => {
    // What Quern's pages must send for the popup flow (see routes.ts).
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
    res.setHeader('Content-Security-Policy', `default-src 'self'; script-src 'self' ${paypalOrigin}`);
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  app.get('/shop', (req, res) => {
    const loader = req.query.loader === 'paypal-js' || req.query.loader === 'react' ? req.query.loader : 'tag';
    const scripts = {
      tag: `<script src="${sdkBaseUrl}?${SDK_QUERY}"></script><script src="/shop.js"></script>`,
      'paypal-js': '<script src="/paypal-js.js"></script><script src="/shop.js"></script>',
      react: '<script src="/react-shop.js"></script>',
    }[loader];
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
<div id="shop" data-loader="${loader}" data-sdk-base-url="${sdkBaseUrl}" data-restart-declined="${req.query.restart === 'true'}"
  data-click-refuses="${req.query.refuse === 'true'}"></div>
<div id="buttons"></div>
${scripts}</body></html>`);
  });
  app.get('/shop.js', (_req, res) => {
    res.type('js').send(readFileSync(new URL('./test-shop/shop.js', import.meta.url), 'utf8'));
  });
  app.get('/react-shop.js', (_req, res) => {
    res.type('js').send(reactShopBundle);
  });
  app.get('/paypal-js.js', (_req, res) => {
    res.type('js').send(readFileSync(paypalJsIife, 'utf8'));
  });
  app.post('/create-order', (_req, res) => {
    orderCount += 1;
    const id = `LOCAL-ORDER-${orderCount}`;
    state.addOrder(id, '12.34');
    res.json({ id });
  });
  app.post('/capture', (req, res) => {
    // Stands in for the protocol server's capture: declined when the buyer chose 'Decline card'.
    const last = state.calls.filter((call) => call.id === req.query.order).at(-1);
    res.json({ declined: last?.method === 'declineCard' });
  });
  return app;
}

beforeAll(async () => {
  reactShopBundle = await bundleReactShop();
  const paypal = express();
  paypal.use(PAYPAL_PREFIX, createLocalPayPalBrowserRoutes(state));
  paypalServer = await serve(paypal);
  shopServer = await serve(shopApp(paypalServer.origin));
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await shopServer?.close();
  await paypalServer?.close();
});

beforeEach(() => {
  state.orders.clear();
  state.calls.length = 0;
});

async function openShop(query = ''): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (error) => console.error('[shop page error]', error));
  await page.goto(`${shopServer.origin}/shop?${query}`);
  await waitForEvent(page, 'rendered');
  return page;
}

async function events(page: Page): Promise<ShopEvent[]> {
  return page.evaluate(() => (globalThis as unknown as ShopWindow).shopEvents);
}

/** Waits until the shop has recorded `count` events of this type (or a start error). */
async function waitForEvent(page: Page, type: string, count = 1): Promise<void> {
  await page.waitForFunction(
    ([wanted, n]) => {
      const all = (globalThis as unknown as ShopWindow).shopEvents ?? [];
      return all.some((event) => event.type === 'startError') || all.filter((event) => event.type === wanted).length >= Number(n);
    },
    [type, count] as const,
  );
  const startError = (await events(page)).find((event) => event.type === 'startError');
  if (startError) throw new Error(`The shop page failed to start: ${String(startError.message)}`);
}

async function clickAndGetPopup(page: Page, name: string): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name, exact: true }).click()]);
  await popup.waitForURL(/\/checkoutnow\?token=/);
  return popup;
}

describe('local PayPal SDK in a browser', () => {
  it('renders a PayPal and a card button, and no Pay Later when the query disables it', async () => {
    const page = await openShop();
    const buttons = page.locator('#buttons button');
    expect(await buttons.allTextContents()).toEqual(['PayPal', 'Debit or Credit Card']);
    const funding = (await events(page)).find((event) => event.type === 'funding');
    expect(funding).toEqual({ type: 'funding', sources: ['paypal', 'card'], card: true });
    expect((await events(page)).some((event) => event.type === 'init')).toBe(true);
  });

  it("PayPal → popup → 'Approve payment' → onApprove with the order id, and the popup closes", async () => {
    const page = await openShop();
    const popup = await clickAndGetPopup(page, 'PayPal');
    await expect(popup.getByTestId('amount').textContent()).resolves.toBe('12.34 USD');
    await popup.getByRole('button', { name: POPUP_TEXT.approve }).click();
    await waitForEvent(page, 'captured');
    const approve = (await events(page)).find((event) => event.type === 'approve');
    expect(approve?.data).toEqual({
      orderID: `LOCAL-ORDER-${orderCount}`,
      payerID: 'LOCALBUYER001',
      paymentID: null,
      billingToken: null,
      facilitatorAccessToken: 'A21AA.local.shop-client',
      paymentSource: 'paypal',
    });
    expect(state.calls).toEqual([{ method: 'approveOrder', id: `LOCAL-ORDER-${orderCount}`, payer: expect.any(Object) }]);
    // The SDK closes the popup once onApprove has settled (it may already have).
    if (!popup.isClosed()) await popup.waitForEvent('close');
    expect(popup.isClosed()).toBe(true);
  });

  it("card → 'Decline card' → onApprove; actions.restart() reopens the approval for the same order", async () => {
    const page = await openShop('restart=true');
    const popup = await clickAndGetPopup(page, 'Debit or Credit Card');
    const orderID = `LOCAL-ORDER-${orderCount}`;
    await popup.getByRole('button', { name: POPUP_TEXT.decline }).click();
    await waitForEvent(page, 'restart');
    // The same popup is sent back to the approval page of the same order.
    await popup.waitForURL((url) => url.searchParams.get('token') === orderID && url.pathname.endsWith('/checkoutnow'));
    await popup.getByRole('button', { name: POPUP_TEXT.approve }).click();
    await waitForEvent(page, 'captured');
    const all = await events(page);
    const approvals = all
      .filter((event) => event.type === 'approve')
      .map((event) => event.data as { orderID: string; paymentSource: string });
    expect(approvals.map((data) => [data.orderID, data.paymentSource])).toEqual([
      [orderID, 'card'],
      [orderID, 'card'],
    ]);
    expect(all.find((event) => event.type === 'captured')).toEqual({ type: 'captured', orderID, declined: false });
    expect(state.calls.map((call) => call.method)).toEqual(['declineCard', 'approveOrder']);
    expect(all.filter((event) => event.type === 'createOrder')).toHaveLength(1);
  });

  it('closing the popup without choosing calls onCancel with the order id', async () => {
    const page = await openShop();
    const popup = await clickAndGetPopup(page, 'PayPal');
    await popup.getByRole('button', { name: POPUP_TEXT.approve }).waitFor();
    await popup.close();
    await waitForEvent(page, 'cancel');
    const cancel = (await events(page)).find((event) => event.type === 'cancel');
    expect(cancel?.data).toEqual({ orderID: `LOCAL-ORDER-${orderCount}` });
    expect((await events(page)).some((event) => event.type === 'approve')).toBe(false);
    expect(state.calls).toEqual([]);
  });

  it('onClick returning false stops the checkout: no popup, no order', async () => {
    const page = await openShop('refuse=true');
    let popups = 0;
    page.on('popup', () => {
      popups += 1;
    });
    await page.getByRole('button', { name: 'PayPal', exact: true }).click();
    await waitForEvent(page, 'click');
    // A later click's events arrive after this one's: once its onClick ran, the first had finished.
    await page.getByRole('button', { name: 'Debit or Credit Card' }).click();
    await waitForEvent(page, 'click', 2);
    expect(popups).toBe(0);
    expect((await events(page)).some((event) => event.type === 'createOrder')).toBe(false);
  });

  it("@paypal/paypal-js's loadScript loads it (sdkBaseUrl, data-namespace) and the checkout works", async () => {
    const page = await openShop('loader=paypal-js');
    const loaded = (await events(page)).find((event) => event.type === 'loaded');
    expect(loaded).toEqual({ type: 'loaded', sameAsWindow: true, version: '5.0.0-quern-local' });
    expect(await page.evaluate(() => 'paypal' in globalThis)).toBe(false);
    const popup = await clickAndGetPopup(page, 'PayPal');
    await popup.getByRole('button', { name: POPUP_TEXT.approve }).click();
    await waitForEvent(page, 'captured');
    expect(state.calls.map((call) => call.method)).toEqual(['approveOrder']);
  });

  it('@paypal/react-paypal-js (PayPalScriptProvider + PayPalButtons) renders the buttons and completes a checkout', async () => {
    const page = await openShop('loader=react');
    expect(await page.locator('#buttons button').allTextContents()).toEqual(['PayPal', 'Debit or Credit Card']);
    const script = page.locator('script[data-sdk-integration-source="react-paypal-js"]');
    expect(await script.getAttribute('src')).toMatch(/\/pp\/sdk\/js\?client-id=shop-client&/);
    const popup = await clickAndGetPopup(page, 'Debit or Credit Card');
    await popup.getByRole('button', { name: POPUP_TEXT.approve }).click();
    await waitForEvent(page, 'captured');
    const approve = (await events(page)).find((event) => event.type === 'approve');
    expect(approve?.data).toMatchObject({ orderID: `LOCAL-ORDER-${orderCount}`, paymentSource: 'card' });
    expect((await events(page)).filter((event) => event.type === 'error')).toEqual([]);
  });
});

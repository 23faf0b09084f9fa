// Proves the browser half of the local PayPal server: the SDK script, the approval page and its approve and decline calls, and that those payer routes answer nothing when the server is not the configured PayPal and refuse (403, nothing changed) a request its payer guard does not allow.
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeLocalPayPalState } from '../../../../test/paypal/fake-state.js';
import { POPUP_TEXT } from './pages.js';
import { createLocalPayPalBrowserRoutes } from './routes.js';
import { LOCAL_BUYER } from './state.js';
import { type ServedApp, serve } from '../../../../test/paypal/test-server.js';

const state = new FakeLocalPayPalState();
let server: ServedApp;
/** Mounted under a prefix, as the SDK and popup must work wherever the router is mounted. */
const PREFIX = '/paypal';

beforeAll(async () => {
  const app = express();
  // Not the configured PayPal: the payer's routes answer nothing.
  app.use('/off', createLocalPayPalBrowserRoutes(state, { controlsEnabled: false }));
  // Only the request that says it is the buyer may approve.
  app.use(
    '/guarded',
    createLocalPayPalBrowserRoutes(state, {
      payerGuard: async (request) =>
        request.get('x-payer') === 'buyer'
          ? { allowed: true }
          : { allowed: false, reason: request.get('x-payer') ? 'notBuyer' : 'signedOut' },
    }),
  );
  app.use(PREFIX, createLocalPayPalBrowserRoutes(state));
  server = await serve(app);
});
afterAll(() => server.close());
beforeEach(() => {
  state.orders.clear();
  state.calls.length = 0;
});

const get = (path: string) => fetch(`${server.origin}${PREFIX}${path}`);
const post = (path: string, body: unknown, type = 'application/json') =>
  fetch(`${server.origin}${PREFIX}${path}`, { method: 'POST', headers: { 'Content-Type': type }, body: JSON.stringify(body) });

describe('GET /sdk/js', () => {
  it('answers JavaScript that defines the namespace with the parsed configuration', async () => {
    const response = await get(
      '/sdk/js?client-id=abc&currency=USD&intent=capture&components=buttons&enable-funding=card&disable-funding=paylater',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const source = await response.text();
    expect(source).toContain('function quernLocalPayPalSdk(config, currentScript)');
    expect(source).toContain('quernLocalPayPalSdk({"clientId":"abc","currency":"USD","intent":"capture","commit":true,');
    expect(source).toContain('"eligibleFunding":["paypal","card"]');
    // The served text is a script a browser can parse.
    expect(() => new Function(source)).not.toThrow();
  });

  it('answers 400 with a script that throws why, when the query is invalid', async () => {
    const response = await get('/sdk/js?currency=USD');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await response.text()).toBe(`throw new Error("SDK Validation error: 'Expected client-id to be passed'");\n`);
  });
});

describe('GET /checkoutnow', () => {
  it('shows the order with the two buttons, a strict CSP and an opener-keeping COOP', async () => {
    state.addOrder('ORDER1', '7.50');
    const response = await get(`/checkoutnow?token=ORDER1&origin=${encodeURIComponent('http://shop.test:8080')}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).toContain('7.50 USD');
    expect(html).toContain(`>${POPUP_TEXT.approve}</button>`);
    expect(html).toContain(`>${POPUP_TEXT.decline}</button>`);
    expect(html).toContain('data-opener-origin="http://shop.test:8080"');
    expect(html).toContain('<script src="checkoutnow.js"></script>');
    expect(html).not.toMatch(/<script>/);
  });

  it('answers an error page for an unknown or missing token', async () => {
    for (const path of ['/checkoutnow?token=NOPE', '/checkoutnow']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain(POPUP_TEXT.unknownOrder);
      expect(html).not.toContain(POPUP_TEXT.approve);
    }
  });

  it('refuses an origin that is not exactly an http(s) origin', async () => {
    state.addOrder('ORDER1');
    for (const origin of ['javascript:alert(1)', 'http://shop.test/path', '*']) {
      const response = await get(`/checkoutnow?token=ORDER1&origin=${encodeURIComponent(origin)}`);
      expect(response.status).toBe(400);
    }
  });

  it('escapes what it shows', async () => {
    state.addOrder('<b>x</b>');
    const html = await (await get(`/checkoutnow?token=${encodeURIComponent('<b>x</b>')}`)).text();
    expect(html).toContain('&#60;b&#62;x&#60;/b&#62;');
    expect(html).not.toContain('<b>x</b>');
  });

  it('does not offer approval of a completed order', async () => {
    state.addOrder('DONE', '1.00', 'COMPLETED');
    const response = await get('/checkoutnow?token=DONE');
    expect(response.status).toBe(409);
    expect(await response.text()).not.toContain(POPUP_TEXT.approve);
  });

  it('serves the popup script as JavaScript', async () => {
    const response = await get('/checkoutnow.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await response.text()).toContain("const MESSAGE_SOURCE = 'quern-local-paypal'");
  });
});

describe('POST /checkoutnow/approve and /decline', () => {
  it('approve calls approveOrder with the local buyer and answers the payer id', async () => {
    state.addOrder('ORDER1');
    const response = await post('/checkoutnow/approve', { token: 'ORDER1' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ orderID: 'ORDER1', payerID: LOCAL_BUYER.payerId });
    expect(state.calls).toEqual([{ method: 'approveOrder', id: 'ORDER1', payer: { name: LOCAL_BUYER.name, email: LOCAL_BUYER.email } }]);
  });

  it('decline calls declineCard and answers like an approval', async () => {
    state.addOrder('ORDER1');
    const response = await post('/checkoutnow/decline', { token: 'ORDER1' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ orderID: 'ORDER1', payerID: LOCAL_BUYER.payerId });
    expect(state.calls).toEqual([{ method: 'declineCard', id: 'ORDER1' }]);
  });

  it('refuses unknown orders, bad bodies, non-JSON and finished orders without calling the state', async () => {
    state.addOrder('DONE', '1.00', 'COMPLETED');
    expect((await post('/checkoutnow/approve', { token: 'NOPE' })).status).toBe(404);
    expect((await post('/checkoutnow/decline', { token: 42 })).status).toBe(400);
    expect((await post('/checkoutnow/approve', {})).status).toBe(400);
    expect((await post('/checkoutnow/approve', { token: 'DONE' }, 'text/plain')).status).toBe(415);
    expect((await post('/checkoutnow/approve', { token: 'DONE' })).status).toBe(422);
    expect(state.calls).toEqual([]);
  });
});

describe('the payer routes when the server is not the configured PayPal, or the request is not the buyer', () => {
  const at = (prefix: string, path: string, init: RequestInit = {}) => fetch(`${server.origin}${prefix}${path}`, init);
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

  it('given controls off, then the approval page, approve and decline answer 404 and the state is not called', async () => {
    state.addOrder('ORDER1');
    expect((await at('/off', '/checkoutnow?token=ORDER1')).status).toBe(404);
    expect((await at('/off', '/checkoutnow/approve', json({ token: 'ORDER1' }))).status).toBe(404);
    expect((await at('/off', '/checkoutnow/decline', json({ token: 'ORDER1' }))).status).toBe(404);
    expect((await at('/off', '/sdk/js?client-id=abc')).status).toBe(200);
    expect(state.calls).toEqual([]);
  });

  it('given a guard, then only the buyer sees the page and approves; others get 403 with the reason and nothing changes', async () => {
    state.addOrder('ORDER1');
    const page = await at('/guarded', '/checkoutnow?token=ORDER1', { headers: { 'x-payer': 'mallory' } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain(POPUP_TEXT.notBuyer);
    expect((await at('/guarded', '/checkoutnow?token=ORDER1')).status).toBe(403);
    const refused = await at('/guarded', '/checkoutnow/approve', json({ token: 'ORDER1' }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'PAYER_NOT_ALLOWED', reason: 'signedOut' });
    expect(state.calls).toEqual([]);
    expect((await at('/guarded', '/checkoutnow?token=ORDER1', { headers: { 'x-payer': 'buyer' } })).status).toBe(200);
    expect((await at('/guarded', '/checkoutnow/approve', json({ token: 'ORDER1' }, { 'x-payer': 'buyer' }))).status).toBe(200);
    expect(state.calls).toHaveLength(1);
  });
});

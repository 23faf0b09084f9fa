// Proves the shop integration end to end in a real browser: a shop page on ANOTHER site (a small
// http server on localhost, while Quern is at 127.0.0.1) includes /sdk/checkout.js and calls
// Quern.button; the /checkout-buttons frame shows the Quern button; clicking it sends the spec's
// click message to the shop page and opens the /checkout popup at Quern with the order in its
// query. (The popup page itself is another part's; only its address is asserted here.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

const quernBase = (): string => {
  const base = process.env.QUERN_E2E_BASE_URL;
  if (!base) throw new Error('QUERN_E2E_BASE_URL is unset: run through the Playwright config');
  return base;
};

const order = {
  to: 'shop_owner',
  cart: [{ name: 'Tea', price: '100000', quantity: 3 }],
  price: '300000',
  redirect: 'https://shop.example/thanks',
};

function shopPage(quern: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A shop</title>
<script src="${quern}/sdk/checkout.js"></script></head>
<body><h1>A shop</h1><div id="pay"></div>
<script>
  window.received = [];
  window.addEventListener('message', (event) => window.received.push({ origin: event.origin, data: event.data }));
  Quern.button(document.getElementById('pay'), ${JSON.stringify(order)});
</script></body></html>`;
}

let shop: Server;
let shopUrl: string;

test.beforeAll(async () => {
  const html = shopPage(quernBase());
  shop = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  // localhost, not 127.0.0.1: another site than Quern's, not just another port.
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}/`;
});
test.afterAll(async () => {
  await new Promise((resolve) => shop.close(resolve));
});

test('a shop on another site shows the framed button; a click reaches the shop and opens the checkout popup', async ({ page }) => {
  const quern = new URL(quernBase()).origin;
  await page.goto(shopUrl);
  expect(await page.evaluate(() => (window as unknown as { Quern: { origin: string } }).Quern.origin)).toBe(quern);

  const frame = page.frameLocator('#pay iframe');
  const button = frame.getByRole('button', { name: 'Quern' });
  await expect(button).toBeVisible();

  const popupOpened = page.waitForEvent('popup');
  await button.click();
  const popup = await popupOpened;

  const url = new URL(popup.url());
  expect(url.origin + url.pathname).toBe(`${quern}/checkout`);
  expect(Object.fromEntries(url.searchParams)).toEqual({
    cart: JSON.stringify(order.cart),
    price: '300000',
    currency: 'MLX',
    to: 'shop_owner',
    redirect: 'https://shop.example/thanks',
  });

  const received = await page.evaluate(() => (window as unknown as { received: unknown[] }).received);
  expect(received).toEqual([
    {
      origin: quern,
      data: { origin: quern, url: `${quern}/checkout-buttons`, target: 'checkout_button', event: 'click', timestamp: expect.any(Number) },
    },
  ]);
});

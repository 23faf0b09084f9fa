// Proves the API Direct page's Webhooks section in a real browser against a real Quern: a
// merchant adds an endpoint (a loopback receiver of this test) for 'Order paid'; the signing
// secret is shown once with Copy and a warning, and is gone after Done; a shopper's payment
// reaches the receiver and the endpoint's delivery log shows it delivered with status 200;
// Redeliver sends it again with the same webhook-id; Delete asks first, and Cancel keeps it.
// Screenshots (test-results/screenshots/webhooks-*.png) in English and Spanish; axe passes.
import AxeBuilder from '@axe-core/playwright';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { apiUser, faucet, loginByApi, registerByApi, trpcQuery, uniqueUser } from './users.js';

const received: IncomingHttpHeaders[] = [];
let receiver: Server;
let receiverUrl = '';

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/quern-hooks`;
});
test.afterAll(async () => {
  await new Promise((done) => receiver.close(done));
});

test('add an endpoint, see its secret once, receive a payment, redeliver, and confirm before deleting', async ({ page }) => {
  test.setTimeout(90_000);
  const merchant = uniqueUser();
  await registerByApi(page.request, merchant);
  await loginByApi(page.request, merchant);
  await page.setViewportSize({ width: 1280, height: 1000 });

  await page.goto('/api-direct');
  await expect(page.getByRole('heading', { level: 2, name: 'Webhooks' })).toBeVisible();
  await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
  await page.getByLabel('Endpoint URL').fill(receiverUrl);
  await page.getByRole('checkbox', { name: /Order paid/ }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();

  const secret = page.getByTestId('webhook-secret');
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await expect(page.getByText('Copy this secret now: it is shown only this once.', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
  const endpoint = page.getByTestId('webhook-endpoint');
  await expect(endpoint).toContainText(receiverUrl);
  await expect(endpoint).toContainText('Order paid');
  await page.screenshot({ path: 'test-results/screenshots/webhooks-secret-en.png', fullPage: true });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(secret).toHaveCount(0);

  // A shopper pays the merchant through the checkout call; the webhook follows.
  const { user: shopper, api: shopperApi } = await apiUser();
  await faucet(shopper.userName, 300_000);
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(shopperApi, 'wallet.balance')).stable, { timeout: 30_000 })
    .toBe('300000');
  const paid = await shopperApi.post('/api/quern/checkout', {
    data: { cart: [{ name: 'Green tea', price: '50000', quantity: 2 }], price: '100000', currency: 'MLX', to: merchant.userName },
  });
  expect(paid.ok()).toBe(true);
  await shopperApi.dispose();

  await endpoint.getByRole('button', { name: 'Delivery log' }).click();
  const log = page.getByTestId('webhook-log');
  await expect(log).toContainText('Order paid', { timeout: 20_000 });
  await expect(log.getByRole('row').nth(1)).toContainText('200');
  await expect(log.getByRole('row').nth(1)).toContainText('Yes');
  expect(received).toHaveLength(1);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/webhooks-log-en.png', fullPage: true });

  await log.getByRole('button', { name: 'Redeliver' }).click();
  await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
  expect(received[1]?.['webhook-id']).toBe(received[0]?.['webhook-id']);
  await expect(log.getByRole('row').nth(1)).toContainText('2');

  await endpoint.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Delete this endpoint? No more events will be sent to it.')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(endpoint).toHaveCount(1);
  await endpoint.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
});

test('the Webhooks section in Spanish', async ({ page }) => {
  const merchant = uniqueUser();
  await registerByApi(page.request, merchant);
  await loginByApi(page.request, merchant);
  await page.addInitScript(() => localStorage.setItem('quern.language', 'es'));
  await page.goto('/api-direct');
  await page.getByLabel('URL del endpoint').fill(receiverUrl);
  await page.getByRole('button', { name: 'Añadir endpoint' }).click();
  await expect(page.getByTestId('webhook-secret')).toBeVisible();
  await expect(page.getByTestId('webhook-endpoint')).toContainText('Todos los eventos');
  await page.screenshot({ path: 'test-results/screenshots/webhooks-secret-es.png', fullPage: true });
});

// Proves the API Direct page's Webhooks section in a real browser against a real Quern: a
// merchant adds an endpoint (a loopback receiver of this test) for 'Order paid'; the signing
// secret is shown once with Copy and a warning, and is gone after Done; a shopper's payment
// reaches the receiver and the endpoint's delivery log shows it delivered with status 200;
// Redeliver sends it again with the same webhook-id; Delete asks first, and Cancel keeps it.
// Rotate secret (ADR 056) asks first, shows the new secret once, and the next payment's webhook
// verifies with the standardwebhooks library under the old secret and under the new one.
// Screenshots (test-results/screenshots/webhooks-*.png) in English and Spanish; axe passes.
import AxeBuilder from '@axe-core/playwright';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { recordSecret } from './secrets-record.js';
import { Webhook } from 'standardwebhooks';
import { apiUser, faucet, loginByApi, registerByApi, trpcQuery, uniqueUser } from './users.js';

/** What the receiver got, per path: each test sends to its own path (tests may share a worker). */
const hits: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
const received: IncomingHttpHeaders[] = [];
let receiver: Server;
let receiverBase = '';
let receiverUrl = '';

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (path === '/quern-hooks') received.push(req.headers);
      hits.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done()));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  receiverUrl = `${receiverBase}/quern-hooks`;
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
  recordSecret('webhook secret', (await secret.textContent()) ?? '');
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

test('rotate the secret: asked first, the new one shown once, and the next webhook verifies with both', async ({ page }) => {
  test.setTimeout(240_000);
  const merchant = uniqueUser();
  await registerByApi(page.request, merchant);
  await loginByApi(page.request, merchant);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('/api-direct');
  const url = `${receiverBase}/rotated-hooks`;
  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = page.getByTestId('webhook-secret');
  await expect(secret).toHaveText(/^whsec_/);
  const original = (await secret.textContent()) as string;
  await page.getByRole('button', { name: 'Done' }).click();

  const endpoint = page.getByTestId('webhook-endpoint');
  await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(page.getByText('Give this endpoint a new signing secret?', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(secret).toHaveCount(0);
  await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('button', { name: 'Yes, rotate' }).click();
  await expect(page.getByRole('heading', { name: 'New signing secret' })).toBeVisible();
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const rotated = (await secret.textContent()) as string;
  expect(rotated).not.toBe(original);
  await expect(page.getByText('For the next 24 hours each webhook carries a signature', { exact: false })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/webhooks-rotated-en.png', fullPage: true });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(secret).toHaveCount(0);

  const { user: shopper, api: shopperApi } = await apiUser();
  await faucet(shopper.userName, 300_000);
  await expect
    .poll(async () => (await trpcQuery<{ stable: string }>(shopperApi, 'wallet.balance')).stable, { timeout: 30_000 })
    .toBe('300000');
  const paid = await shopperApi.post('/api/quern/checkout', {
    data: { cart: [{ name: 'Oolong', price: '50000', quantity: 1 }], price: '50000', currency: 'MLX', to: merchant.userName },
  });
  expect(paid.ok()).toBe(true);
  await shopperApi.dispose();
  await expect.poll(() => hits.filter((h) => h.path === '/rotated-hooks').length, { timeout: 20_000 }).toBe(1);
  const hit = hits.find((h) => h.path === '/rotated-hooks') as (typeof hits)[number];
  const headers = hit.headers as Record<string, string>;
  expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
  for (const key of [original, rotated]) expect(new Webhook(key).verify(hit.body, headers)).toMatchObject({ type: 'order.paid' });
});

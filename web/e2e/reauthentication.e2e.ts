// Proves step-up re-authentication on the API Direct page in a real browser against a real Quern
// (ADR 045): when the session's password is older than 10 minutes, Generate and Add endpoint open
// a dialog asking for it again; a wrong password is refused there with its message, the right one
// closes the dialog and the call goes through (the key or the secret shows); Cancel changes
// nothing. In English and Spanish, with screenshots at 1280 and 390 px wide.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { Redis } from 'ioredis';
import { recordSecret } from './secrets-record.js';
import { loginByApi, registerByApi, uniqueUser } from './users.js';

let receiver: Server;
let receiverUrl = '';

test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/quern-hooks`;
});
test.afterAll(async () => {
  await new Promise((done) => receiver.close(done));
});

/** Makes the page's session look signed in `minutes` ago, as if the clock had moved on. */
async function ageSession(page: Page, minutes: number) {
  const token = (await page.context().cookies()).find((c) => c.name === 'quern_session')?.value ?? '';
  const redis = new Redis(process.env.QUERN_E2E_REDIS_URL ?? '');
  try {
    const key = `session:${createHash('sha256').update(token).digest('hex')}`;
    const session = JSON.parse((await redis.get(key)) ?? 'null') as Record<string, string>;
    const then = new Date(Date.now() - minutes * 60_000).toISOString();
    await redis.set(key, JSON.stringify({ ...session, createdAt: then, authenticatedAt: then }), 'KEEPTTL');
  } finally {
    redis.disconnect();
  }
}

async function signedIn(page: Page) {
  const user = uniqueUser();
  await registerByApi(page.request, user);
  await loginByApi(page.request, user);
  return user;
}

test('an old session asks for the password before generating a key, and Cancel changes nothing', async ({ page }) => {
  const user = await signedIn(page);
  await ageSession(page, 11);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/api-direct');
  await expect(page.getByText('No key available. Please generate one.')).toBeVisible();

  await page.getByRole('button', { name: 'Generate' }).click();
  const dialog = page.getByRole('dialog', { name: "Confirm it's you" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('For your safety, enter your password again to continue.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('No key available. Please generate one.')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.getByRole('button', { name: 'Generate' }).click();
  await dialog.getByLabel('Password').fill('not the password');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toContainText('current password is not correct', { ignoreCase: true });
  await page.screenshot({ path: 'test-results/screenshots/reauth-dialog-en-1280.png' });
  await dialog.getByLabel('Password').fill(user.password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('direct-key')).toHaveText(/^qk_test_[A-Za-z0-9_-]{43}$/);
  recordSecret('API key', (await page.getByTestId('direct-key').textContent()) ?? '');
});

test('an old session asks for the password before adding a webhook endpoint (Spanish, phone width)', async ({ page }) => {
  const user = await signedIn(page);
  await page.context().addCookies([{ name: 'quern.language', value: 'es', url: process.env.QUERN_E2E_BASE_URL ?? '' }]);
  await ageSession(page, 30);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/api-direct');
  await page.getByLabel('URL del endpoint').fill(receiverUrl);
  await page.getByRole('button', { name: 'Añadir endpoint' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirme que es usted' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/reauth-dialog-es-390.png' });
  await dialog.getByLabel('Contraseña').fill(user.password);
  await dialog.getByRole('button', { name: 'Confirmar' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
  recordSecret('webhook secret', (await page.getByTestId('webhook-secret').textContent()) ?? '');
});

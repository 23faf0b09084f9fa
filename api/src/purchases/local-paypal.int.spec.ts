// Proves `npm start`'s composition: with PAYPAL_ENV=local (the default) Quern serves the local
// PayPal-compatible server at /paypal-local, and Quern's own PayPal client (the code that talks to
// PayPal in sandbox and live) creates and reads an order there; with sandbox it is not mounted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPayPalClient, payPalConfigFromEnv } from '@quern/adapters/paypal';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { type RunningQuern, startQuern } from '../main.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});

async function withQuern(env: Record<string, string>, run: (url: string, quern: RunningQuern) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'quern-local-paypal-'));
  const quern = await startQuern(
    loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, REDIS_URL: redis.url, ...env }),
    { api: true, projections: false, workers: false },
  );
  try {
    await run(quern.url as string, quern);
  } finally {
    await quern.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('the local PayPal server in npm start', () => {
  it('given the default PAYPAL_ENV, when Quern starts, then its PayPal client creates and reads an order at /paypal-local', async () => {
    await withQuern({}, async (url, quern) => {
      const config = payPalConfigFromEnv({});
      const client = createPayPalClient({ baseUrl: `${url}/paypal-local`, clientId: config.clientId, clientSecret: config.clientSecret });
      const order = await client.createOrder({ usdCents: 1000, reference: 'test-order', requestId: 'req-1' });
      expect(order.status).toBe('CREATED');
      expect(order.usdCents).toBe(1000);
      expect((await client.getOrder(order.id)).id).toBe(order.id);

      // What the browser sees: the SDK script, then the approval popup, whose approval lets the capture complete.
      const sdk = await fetch(`${url}/paypal-local/sdk/js?client-id=${config.clientId}&currency=USD&enable-funding=card`);
      expect(sdk.status).toBe(200);
      expect(sdk.headers.get('content-type')).toMatch(/javascript/);
      const popup = await fetch(`${url}/paypal-local/checkoutnow?token=${order.id}`);
      expect(popup.status).toBe(403);
      expect(popup.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
      expect(await popup.text()).toContain('Sign in to Quern as the buyer');
      await expect(client.captureOrder(order.id, 'capture-1')).rejects.toMatchObject({ issue: 'ORDER_NOT_APPROVED' });
      quern.paypal.local?.state.approveOrder(order.id, { name: 'Local Buyer', email: 'buyer@example.test' });
      const captured = await client.captureOrder(order.id, 'capture-2');
      expect(captured.status).toBe('COMPLETED');
      expect(captured.capture?.usdCents).toBe(1000);
    });
  });

  it('given PAYPAL_ENV=sandbox, then nothing answers at /paypal-local', async () => {
    await withQuern({ PAYPAL_ENV: 'sandbox', PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' }, async (url) => {
      const response = await fetch(`${url}/paypal-local/v1/oauth2/token`, { method: 'POST' });
      expect(response.status).toBe(404);
    });
  });
});

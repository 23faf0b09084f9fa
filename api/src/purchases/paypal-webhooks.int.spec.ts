// Proves that a forged delivery to /api/paypal/webhooks answers 400 and changes nothing whatever it
// makes of the verify call (here PayPal cannot be reached, so the call itself fails), that missing
// or oversized signature headers and bodies that are not a JSON object answer 400 without a call,
// and that deliveries from one client address beyond PAYPAL_WEBHOOKS_PER_MINUTE answer 429.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../test/ledger.js';
import { startTestQuern, type TestQuern } from '../../test/quern.js';

let quern: TestQuern;
const LIMIT = 8;
beforeAll(async () => {
  quern = await startTestQuern({
    PAYPAL_ENV: 'sandbox',
    PAYPAL_CLIENT_ID: 'sandbox-id',
    PAYPAL_CLIENT_SECRET: 'sandbox-secret',
    PAYPAL_WEBHOOK_ID: 'WH-SANDBOX',
    PAYPAL_WEBHOOKS_PER_MINUTE: String(LIMIT),
  });
});
afterAll(async () => {
  await quern.stop();
});

const forgedHeaders = () => ({
  'PAYPAL-TRANSMISSION-ID': randomUUID(),
  'PAYPAL-TRANSMISSION-TIME': new Date().toISOString(),
  'PAYPAL-TRANSMISSION-SIG': Buffer.from('forged').toString('base64'),
  'PAYPAL-CERT-URL': 'https://attacker.example/cert.pem',
  'PAYPAL-AUTH-ALGO': 'SHA256withRSA',
});
const event = {
  id: `WH-${randomUUID()}`,
  event_type: 'PAYMENT.CAPTURE.COMPLETED',
  resource_type: 'capture',
  resource: {
    id: 'CAPFORGED1',
    status: 'COMPLETED',
    amount: { currency_code: 'USD', value: '500.00' },
    supplementary_data: { related_ids: { order_id: 'ORDERFORGED1' } },
  },
};
const post = (body: string, headers: Record<string, string>) =>
  quern.call('POST', '/api/paypal/webhooks', { body, headers: { 'content-type': 'application/json', ...headers } });

describe('POST /api/paypal/webhooks', () => {
  it('given a forged delivery whose verify call fails, then 400 (not 500) and nothing is recorded', async () => {
    const response = await post(JSON.stringify(event), forgedHeaders());
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION', messageKey: 'errors:webhookNotVerified' });
    expect(response.body.message).toBe('This notification could not be verified with PayPal.');
    expect(await quern.store.readStream('purchase-ORDERFORGED1')).toEqual([]);
    expect((await auditLog(quern.store)).violations).toEqual([]);
  });

  it('given missing or oversized signature headers, or a body that is not a JSON object, then 400', async () => {
    const { 'PAYPAL-TRANSMISSION-SIG': _sig, ...withoutSig } = forgedHeaders();
    expect((await post(JSON.stringify(event), withoutSig)).status).toBe(400);
    expect((await post(JSON.stringify(event), { ...forgedHeaders(), 'PAYPAL-TRANSMISSION-SIG': 'A'.repeat(4000) })).status).toBe(400);
    expect((await post('[1,2,3]', forgedHeaders())).status).toBe(400);
    expect((await post('"text"', forgedHeaders())).status).toBe(400);
  });

  it('given more deliveries from one address than the limit in a minute, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await post(JSON.stringify(event), forgedHeaders())).status);
    expect(statuses).toContain(429);
    expect(statuses.slice(-1)[0]).toBe(429);
    const refused = await post(JSON.stringify(event), forgedHeaders());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

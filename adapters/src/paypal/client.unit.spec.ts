// PAYPAL_* configuration: local by default with working credentials, real hosts otherwise.
import { describe, expect, it } from 'vitest';
import { LOCAL_PAYPAL_CREDENTIALS, parsePayPalEnv, payPalConfigFromEnv, paypalBaseUrl } from './client.js';

describe('PayPal configuration', () => {
  it('maps each environment to its REST base URL', () => {
    expect(paypalBaseUrl('local', 'http://127.0.0.1:8080/paypal-local/')).toBe('http://127.0.0.1:8080/paypal-local');
    expect(paypalBaseUrl('sandbox', 'unused')).toBe('https://api-m.sandbox.paypal.com');
    expect(paypalBaseUrl('live', 'unused')).toBe('https://api-m.paypal.com');
    // PAYPAL_API_URL (a proxy, a stub in tests) wins over PayPal's host, without its trailing slashes.
    expect(paypalBaseUrl('live', 'unused', 'https://paypal-proxy.internal/v//')).toBe('https://paypal-proxy.internal/v');
    expect(paypalBaseUrl('sandbox', 'unused', undefined)).toBe('https://api-m.sandbox.paypal.com');
  });

  it('defaults to local and refuses unknown environments', () => {
    expect(parsePayPalEnv(undefined)).toBe('local');
    expect(parsePayPalEnv('')).toBe('local');
    expect(() => parsePayPalEnv('production')).toThrow(/PAYPAL_ENV/);
  });

  it('needs real credentials outside local', () => {
    expect(payPalConfigFromEnv({})).toEqual({ env: 'local', ...LOCAL_PAYPAL_CREDENTIALS });
    expect(() => payPalConfigFromEnv({ PAYPAL_ENV: 'live', PAYPAL_CLIENT_ID: 'id' })).toThrow(/PAYPAL_CLIENT_SECRET/);
    expect(
      payPalConfigFromEnv({ PAYPAL_ENV: 'sandbox', PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_WEBHOOK_ID: 'WH-1' }),
    ).toEqual({
      env: 'sandbox',
      clientId: 'id',
      clientSecret: 's',
      webhookId: 'WH-1',
    });
  });
});

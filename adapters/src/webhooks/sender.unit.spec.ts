// Proves the signature against the Standard Webhooks specification's published test vector
// (secret, id, timestamp and body in, `v1,<base64>` out), and that the sender refuses a
// non-public IP literal before any connection when private networks are not allowed.
import { describe, expect, it } from 'vitest';
import { sendWebhookAttempt, signWebhook } from './sender.js';

describe('signWebhook', () => {
  it('matches the Standard Webhooks test vector', () => {
    const headers = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330_000),
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });
});

describe('sendWebhookAttempt', () => {
  const attempt = (url: string) => ({
    url,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    webhookId: 'msg_1',
    body: '{}',
    at: new Date(),
    timeoutMs: 1_000,
    allowPrivateNetworks: false,
  });

  it.each(['http://127.0.0.1:9/', 'http://[::1]:9/', 'http://169.254.169.254/latest', 'http://10.0.0.1/'])(
    'refuses %s without connecting',
    async (url) => {
      await expect(sendWebhookAttempt(attempt(url))).resolves.toEqual({ error: 'refused_address', delivered: false });
    },
  );

  it('refuses a name that resolves to loopback at connection time', async () => {
    await expect(sendWebhookAttempt(attempt('http://localhost:9/'))).resolves.toEqual({ error: 'refused_address', delivered: false });
  });
});

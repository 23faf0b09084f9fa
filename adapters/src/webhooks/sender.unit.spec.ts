// Proves the signature against the Standard Webhooks specification's published test vector
// (secret, id, timestamp and body in, `v1,<base64>` out), and that the sender refuses a
// non-public IP literal before any connection when private networks are not allowed.
import { Webhook } from 'standardwebhooks';
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

describe('signWebhook with a rotated secret', () => {
  it('carries one space-separated signature per secret, each verifying with the standardwebhooks library', () => {
    const next = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const previous = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const stranger = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const at = new Date();
    const headers = signWebhook([next, previous], 'msg_1', at, '{}');
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [next, previous]) expect(new Webhook(secret).verify('{}', headers)).toEqual({});
    expect(() => new Webhook(stranger).verify('{}', headers)).toThrow();
  });

  it('refuses to sign with no secret', () => {
    expect(() => signWebhook([], 'msg_1', new Date(), '{}')).toThrow(RangeError);
  });
});

describe('sendWebhookAttempt', () => {
  const attempt = (url: string) => ({
    url,
    secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] as [string],
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

// The signed string is PayPal's: id|time|webhookId|crc32(body) with the CRC as unsigned decimal.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bodyCrc32, signatureBaseString, signWebhook, verifyWebhookSignature } from './webhook-signature.js';

describe('webhook signature base string', () => {
  it('uses the CRC-32 of the raw body as an unsigned decimal', () => {
    // Reference values of the standard CRC-32 (IEEE 802.3), the one PayPal's SDKs use.
    expect(bodyCrc32('123456789')).toBe('3421780262'); // 0xCBF43926, above 2^31: must not turn negative
    expect(bodyCrc32('')).toBe('0');
    expect(bodyCrc32(Buffer.from('{"id":"WH-1"}'))).toBe(bodyCrc32('{"id":"WH-1"}'));
  });

  it('joins transmission id, time, webhook id and CRC with pipes', () => {
    expect(
      signatureBaseString({ transmissionId: 'tid-1', transmissionTime: '2024-05-01T10:00:00Z', webhookId: 'WH-7', rawBody: '123456789' }),
    ).toBe('tid-1|2024-05-01T10:00:00Z|WH-7|3421780262');
  });

  it('verifies its own signature and nothing else', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const base = signatureBaseString({ transmissionId: 't', transmissionTime: 'x', webhookId: 'w', rawBody: '{}' });
    const signature = signWebhook(base, privateKey);
    expect(verifyWebhookSignature(base, signature, publicKey)).toBe(true);
    expect(verifyWebhookSignature(`${base}0`, signature, publicKey)).toBe(false);
    expect(verifyWebhookSignature(base, 'bm90IGEgc2lnbmF0dXJl', publicKey)).toBe(false);
  });
});

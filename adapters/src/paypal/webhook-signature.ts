/**
 * PayPal's webhook signature scheme (the one its SDKs verify offline): the transmission
 * signature is RSA-SHA256, base64, over
 *   `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(rawBody) as unsigned decimal}`.
 * The local server signs with this and its verify endpoint recomputes it; Quern's client never
 * verifies offline, it asks the verify endpoint, as PayPal recommends.
 */
import { createSign, createVerify, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const WEBHOOK_AUTH_ALGO = 'SHA256withRSA';

/** zlib's CRC-32 is already unsigned (0..2^32-1); PayPal writes it in decimal. */
export function bodyCrc32(rawBody: string | Buffer): string {
  return crc32(rawBody).toString(10);
}

export function signatureBaseString(input: {
  transmissionId: string;
  transmissionTime: string;
  webhookId: string;
  rawBody: string | Buffer;
}): string {
  return `${input.transmissionId}|${input.transmissionTime}|${input.webhookId}|${bodyCrc32(input.rawBody)}`;
}

export function signWebhook(baseString: string, privateKey: KeyObject | string): string {
  return createSign('RSA-SHA256').update(baseString).sign(privateKey, 'base64');
}

export function verifyWebhookSignature(baseString: string, signatureBase64: string, publicKey: KeyObject | string): boolean {
  try {
    return createVerify('RSA-SHA256').update(baseString).verify(publicKey, signatureBase64, 'base64');
  } catch {
    // A malformed key or signature is a failed verification, not a server error.
    return false;
  }
}

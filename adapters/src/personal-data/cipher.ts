/** AES-256-GCM sealing of one string field (ADR 042): a fresh 96-bit nonce per value. */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SEALED_PREFIX } from '@quern/core/personal-data';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function sealBytes(key: Buffer, context: string, plaintext: Buffer): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

/** Throws when the value was altered or sealed for another context or with another key. */
export function openBytes(key: Buffer, context: string, sealed: Buffer): Buffer {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed value is too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

export const sealString = (key: Buffer, context: string, value: string): string =>
  SEALED_PREFIX + sealBytes(key, context, Buffer.from(value, 'utf8')).toString('base64url');

export const openString = (key: Buffer, context: string, sealed: string): string =>
  openBytes(key, context, Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url')).toString('utf8');

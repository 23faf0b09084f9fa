/** Identifiers in PayPal's formats, so code that parses or stores them sees what PayPal sends. */
import { randomBytes, randomInt } from 'node:crypto';

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Orders, captures and refunds: 17 upper-case alphanumerics ("5O190127TN364715T"). */
export function payPalResourceId(): string {
  let id = '';
  for (let i = 0; i < 17; i += 1) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

/** PayPal's debug ids are 13 lower-case hex digits. */
export function debugId(): string {
  return randomBytes(7).toString('hex').slice(0, 13);
}

export function webhookEventId(): string {
  return `WH-${payPalResourceId()}-${payPalResourceId()}`;
}

export function accessToken(): string {
  return `A21AA${randomBytes(48).toString('base64url')}`;
}

/**
 * Idempotency keys for sends. One key stands for one intended payment: it is kept while the same
 * details are retried after a failure the server did not explain (a lost connection: the first
 * request may have gone through, and the key makes the server answer with that transfer instead
 * of making a second one), and replaced when the details change, after a success, or after the
 * server refused (nothing was sent, so a new attempt is a new payment).
 */

/** A random UUID; crypto.randomUUID exists only on HTTPS pages and localhost, so plain HTTP builds one. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // RFC 9562 version 4 and variant bits.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface IdempotencyKeys {
  /** The key for a send of these details: the previous one when they are being retried. */
  keyFor(details: string): string;
  /** The last attempt is over for good (success, or refused by the server). */
  settle(): void;
}

export function createIdempotencyKeys(generate: () => string = newIdempotencyKey): IdempotencyKeys {
  let current: { details: string; key: string } | null = null;
  return {
    keyFor(details) {
      if (current?.details !== details) current = { details, key: generate() };
      return current.key;
    },
    settle() {
      current = null;
    },
  };
}

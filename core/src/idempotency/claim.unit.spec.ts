// Proves the idempotency record's pure parts: a request's digest does not depend on field order or absent fields but does on every value, the digest of a key is per merchant, and a repeat is accepted only for the same operation and request (else 422 idempotencyKeyReused).
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { type IdempotencyClaim, idempotencyClaimStream, idempotencyDigest, requestDigest, requireSameRequest } from './claim.js';

describe('idempotency claims', () => {
  it('given the same fields in another order or with an absent one, then the digest is the same; another value changes it', () => {
    expect(requestDigest({ order: 'o', amount: '5' })).toBe(requestDigest({ amount: '5', order: 'o' }));
    expect(requestDigest({ order: 'o', amount: undefined })).toBe(requestDigest({ order: 'o' }));
    expect(requestDigest({ order: 'o', amount: '5' })).not.toBe(requestDigest({ order: 'o', amount: '50' }));
    expect(requestDigest({ order: 'o' })).not.toBe(requestDigest({ order: 'o', amount: '5' }));
  });

  it('given one key of two merchants, then each has its own claim stream of 32 hex digits', () => {
    const a = idempotencyDigest('merchant-a', 'key');
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(idempotencyDigest('merchant-b', 'key'));
    expect(idempotencyClaimStream(a)).toBe(`idempotency-${a}`);
  });

  it('given a claim, then only the same operation with the same request passes; anything else is 422', () => {
    const digest = requestDigest({ order: 'o' });
    const claim: IdempotencyClaim = {
      merchantUserId: 'm',
      operation: 'refund',
      requestDigest: digest,
      resourceId: 're_x',
      claimedAt: 'now',
    };
    expect(() => requireSameRequest(claim, 'refund', digest)).not.toThrow();
    for (const [operation, other] of [
      ['refund', requestDigest({ order: 'p' })],
      ['payout', digest],
    ] as const) {
      const error = (() => {
        try {
          requireSameRequest(claim, operation, other);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(AppError);
      expect([(error as AppError).code, (error as AppError).messageKey]).toEqual(['UNPROCESSABLE', 'errors:idempotencyKeyReused']);
    }
  });
});

// Proves deposit-confirmation job ids are valid BullMQ ids (no ':') and keep distinct deposits apart, and that the payload refuses ids outside the wallet patterns.
import { describe, expect, it } from 'vitest';
import { depositConfirmationJobId, depositConfirmationPayload } from './payload.js';

describe('deposit-confirmation job ids', () => {
  it('given a network deposit id, when turned into a job id, then the colon becomes a dot', () => {
    expect(depositConfirmationJobId('w-1', 'abc:0')).toBe('deposit-w-1-abc.0');
  });

  it('given two outputs of one transaction, when turned into job ids, then they differ', () => {
    expect(depositConfirmationJobId('w', 'abc:0')).not.toBe(depositConfirmationJobId('w', 'abc:1'));
  });

  it('given ids that differ only in a colon, when turned into job ids, then they still differ', () => {
    expect(depositConfirmationJobId('w', 'a:b')).not.toBe(depositConfirmationJobId('w', 'a_b'));
    expect(depositConfirmationJobId('w', 'a:b')).not.toBe(depositConfirmationJobId('w', 'a-b'));
  });

  it.each([
    [{ walletId: 'w', depositId: 'a.b' }],
    [{ walletId: 'w:x', depositId: 'a:0' }],
    [{ walletId: 'w', depositId: '' }],
    [{ walletId: 'w', depositId: 'a:0', extra: 1 }],
  ])('given %j, when parsed as a payload, then it is refused', (data) => {
    expect(depositConfirmationPayload.safeParse(data).success).toBe(false);
  });
});

// Proves send back-pressure refuses only real overload: a wallet's own queue past its bound or the process past its total, with 429 RATE_LIMITED and a Retry-After, while other wallets' sends go on; counts are released whatever the send's outcome.
import { AppError } from '@quern/core';
import { describe, expect, it } from 'vitest';
import { retryAfterSeconds as retryAfterSecondsOf } from '../http/errors.js';
import { createSendAdmission } from './send-admission.js';

/** A send that stays in flight until released. */
function held() {
  let release!: () => void;
  const done = new Promise<string>((resolve) => {
    release = () => resolve('sent');
  });
  return { run: () => done, release: () => release() };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('send admission', () => {
  it('given a wallet with its bound of sends in flight, when it sends again, then 429 for it alone and other wallets still send', async () => {
    const admission = createSendAdmission({ perWalletMax: 2, totalMax: 100, retryAfterSeconds: 3 });
    const first = held();
    const second = held();
    const running = [admission.run('alice', first.run), admission.run('alice', second.run)];
    const error = await refusal(admission.run('alice', async () => 'sent'));
    expect([error.code, error.messageKey, retryAfterSecondsOf(error)]).toEqual(['RATE_LIMITED', 'errors:tooManySendsInProgress', 3]);
    await expect(admission.run('bob', async () => 'sent')).resolves.toBe('sent');
    first.release();
    second.release();
    await Promise.all(running);
    await expect(admission.run('alice', async () => 'sent')).resolves.toBe('sent');
  });

  it('given the process at its total, when any wallet sends, then 429 busy until a send finishes', async () => {
    const admission = createSendAdmission({ perWalletMax: 10, totalMax: 2, retryAfterSeconds: 1 });
    const a = held();
    const b = held();
    const running = [admission.run('alice', a.run), admission.run('bob', b.run)];
    expect(admission.inFlight()).toBe(2);
    expect((await refusal(admission.run('carol', async () => 'sent'))).messageKey).toBe('errors:busy');
    a.release();
    await running[0];
    await expect(admission.run('carol', async () => 'sent')).resolves.toBe('sent');
    b.release();
    await running[1];
    expect(admission.inFlight()).toBe(0);
  });

  it('given sends that fail, when they end, then their places are released', async () => {
    const admission = createSendAdmission({ perWalletMax: 1, totalMax: 1, retryAfterSeconds: 1 });
    for (let i = 0; i < 3; i++) await expect(admission.run('alice', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(admission.inFlight()).toBe(0);
  });

  it('given errors that are not back-pressure (or odd values), when asked for Retry-After, then only RATE_LIMITED gets one (at least 1 s)', () => {
    expect(retryAfterSecondsOf(new AppError('CONFLICT', 'errors:insufficientFunds'))).toBeUndefined();
    expect(retryAfterSecondsOf(new AppError('RATE_LIMITED', 'errors:tooManyPendingTransfers'))).toBe(1);
    expect(retryAfterSecondsOf(new AppError('RATE_LIMITED', 'errors:busy', {}, { retryAfterSeconds: -5 }))).toBe(1);
  });
});

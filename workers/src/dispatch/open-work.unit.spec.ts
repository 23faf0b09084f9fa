// Proves re-derivation finds exactly the requests without completions, in log order, and keeps memory bounded by handing out the oldest early.
import { describe, expect, it } from 'vitest';
import { OpenWork } from './open-work.js';
import { recorded } from '../../test/recorded.js';
import { dispatchRules } from './rules.js';
import { NOTICE_EMAIL_QUEUE } from '../notice-email/payload.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const registered = (n: number, position: bigint) => recorded('UserRegistered', { userId: id(n) }, position);
const welcomed = (n: number, position: bigint) => recorded('WelcomeEmailSent', { userId: id(n), messageId: '<m@x>' }, position);
const resetRequested = (n: number, position: bigint) =>
  recorded('PasswordResetRequested', { userId: id(n), requestId: id(100 + n) }, position);

describe('OpenWork', () => {
  it('given requests with and without completions, when drained, then only the open ones remain, oldest first', () => {
    const work = new OpenWork(dispatchRules, 100);
    const log = [
      registered(1, 1n),
      registered(2, 2n),
      welcomed(1, 3n),
      resetRequested(2, 4n),
      registered(3, 5n),
      recorded('UserSignedIn', { userId: id(3) }, 6n),
    ];
    for (const event of log) expect(work.observe(event)).toEqual([]);
    expect(work.drain().map((job) => job.jobId)).toEqual([
      `welcome-email-${id(2)}`,
      `password-reset-email-${id(102)}`,
      `welcome-email-${id(3)}`,
    ]);
    expect(work.size).toBe(0);
  });

  it('given atomic, old-style internal and external reservations, when re-derived, then only the unsettled ones that need a job are open', () => {
    const work = new OpenWork(dispatchRules, 100);
    const reserved = (n: number, position: bigint, data: Record<string, unknown>) =>
      recorded(
        'TransferReserved',
        {
          walletId: 'payer',
          transferId: id(n),
          fromAddress: 'a',
          toAddress: 'b',
          amountMlx: '5',
          feeMlx: '1000',
          reservedAt: '2026-01-01T00:00:00.000Z',
          ...data,
        },
        position,
      );
    const log = [
      reserved(1, 1n, { toWalletId: 'payee', settledAtOnce: true }),
      recorded('TransferPosted', { walletId: 'payer', transferId: id(1) }, 2n),
      reserved(2, 3n, { toWalletId: 'payee' }),
      reserved(3, 4n, {}),
      reserved(4, 5n, {}),
      recorded('TransferPosted', { walletId: 'payer', transferId: id(4) }, 6n),
    ];
    for (const event of log) work.observe(event);
    expect(work.drain().map((job) => job.jobId)).toEqual([`settle-${id(2)}`, `settle-${id(3)}`]);
  });

  it('given a completion for another request, when observed, then the request stays open', () => {
    const work = new OpenWork(dispatchRules, 100);
    work.observe(registered(1, 1n));
    work.observe(welcomed(2, 2n));
    expect(work.drain()).toHaveLength(1);
  });

  it('given more open requests than the bound, when observed, then the oldest half is handed out and memory stays bounded', () => {
    const work = new OpenWork(dispatchRules, 4);
    const handedOut: string[] = [];
    for (let n = 1; n <= 10; n += 1) {
      handedOut.push(...work.observe(registered(n, BigInt(n))).map((job) => job.jobId));
      expect(work.size).toBeLessThanOrEqual(4);
    }
    const all = [...handedOut, ...work.drain().map((job) => job.jobId)];
    expect(all).toEqual(Array.from({ length: 10 }, (_, i) => `welcome-email-${id(i + 1)}`));
  });

  it('given a malformed request, when observed, then it throws and other work is unaffected', () => {
    const work = new OpenWork(dispatchRules, 10);
    work.observe(registered(1, 1n));
    expect(() => work.observe(recorded('UserRegistered', {}, 2n))).toThrow();
    expect(work.drain()).toHaveLength(1);
  });

  it('given a bound below one, when created, then it is refused', () => {
    expect(() => new OpenWork(dispatchRules, 0)).toThrow(/positive/);
  });

  it('given reservations and deposits, when some end either way, then only those without any of their completions stay open', () => {
    // The money notices these events also ask for are proven in notice-email/rules.unit.spec.ts.
    const work = new OpenWork(
      dispatchRules.filter((rule) => rule.queue !== NOTICE_EMAIL_QUEUE),
      100,
    );
    const wallet = id(50);
    const reserve = (n: number, position: bigint) =>
      recorded('TransferReserved', { walletId: wallet, transferId: id(n), reservedAt: '2026-01-01T00:00:00.000Z' }, position);
    const receive = (n: number, position: bigint) => recorded('DepositReceived', { walletId: wallet, depositId: `hash${n}:0` }, position);
    const log = [
      reserve(1, 1n),
      reserve(2, 2n),
      reserve(3, 3n),
      receive(4, 4n),
      receive(5, 5n),
      receive(6, 6n),
      recorded('TransferPosted', { walletId: wallet, transferId: id(1) }, 7n),
      recorded('TransferVoided', { walletId: wallet, transferId: id(2) }, 8n),
      recorded('TransferCredited', { walletId: id(60), transferId: id(3) }, 9n),
      recorded('DepositConfirmed', { walletId: wallet, depositId: 'hash4:0' }, 10n),
      recorded('DepositRejected', { walletId: wallet, depositId: 'hash5:0' }, 11n),
    ];
    for (const event of log) work.observe(event);
    expect(work.drain().map((job) => job.jobId)).toEqual([`settle-${id(3)}`, `deposit-${wallet}-hash6.0`]);
  });
});

// Proves the atomic transfer decision (ADR 019): both streams' events at once, a retry answered with the first transfer and nothing moved, and every refusal (payee that takes no credits, unknown payee, self, funds, bad input).
import { describe, expect, it } from 'vitest';
import type { ReserveTransfer } from './commands.js';
import { OPEN_RESERVATIONS_MAX } from './decider.js';
import type { WalletEvent } from './events.js';
import { SYSTEM_WALLET_IDS } from './events.js';
import type { WalletState } from './state.js';
import { availableMlx } from './state.js';
import { alice, bob, credited, NOW, opened, testAddress } from '../../test/wallet-fixtures.js';
import { refusal } from '../../test/refusal.js';
import { decideTransfer, evolve, foldWallet } from '../../test/wallet-rules.js';

const fee = { walletId: SYSTEM_WALLET_IDS.fee, address: testAddress(4) };
const at = NOW.toISOString();

const send = (data: Partial<ReserveTransfer['data']> = {}): ReserveTransfer => ({
  type: 'ReserveTransfer',
  data: { transferId: 't1', toAddress: bob.address, toWalletId: bob.walletId, amountMlx: 5000n, feeMlx: 1000n, ...data },
});
const fold = (state: WalletState, events: WalletEvent[]) => events.reduce(evolve, state);

describe('decideTransfer', () => {
  it('given a funded payer and a user payee, when sent, then the payer reserves and posts and the payee is credited, balances stamped', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    const payee = foldWallet([opened(bob)]);
    const decision = decideTransfer(send(), payer, payee, NOW);
    expect(decision.transferId).toBe('t1');
    expect(decision.payerEvents.map((e) => e.type)).toEqual(['TransferReserved', 'TransferPosted']);
    expect(decision.payerEvents[0]?.data).toMatchObject({ settledAtOnce: true, toWalletId: bob.walletId, amountMlx: '5000' });
    expect(decision.payerEvents[1]?.data).toMatchObject({ balanceAfter: { postedMlx: '4000', heldMlx: '0', pendingCreditMlx: '0' } });
    expect(decision.payeeEvents).toEqual([
      {
        type: 'TransferCredited',
        data: {
          walletId: bob.walletId,
          transferId: 't1',
          fromWalletId: alice.walletId,
          fromAddress: alice.address,
          toAddress: bob.address,
          amountMlx: '5000',
          settledAtOnce: true,
          creditedAt: at,
          balanceAfter: { postedMlx: '5000', heldMlx: '0', pendingCreditMlx: '0' },
        },
      },
    ]);
    const after = fold(foldWallet([opened(alice), credited(10_000n, 'fund')]), decision.payerEvents);
    expect([after.postedBalanceMlx, after.pendingDebitsMlx, after.openReservationCount]).toEqual([4000n, 0n, 0]);
  });

  it('given the send applied, when retried with the same idempotency key, then the first transfer is answered and nothing moves', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    const payee = foldWallet([opened(bob)]);
    const first = decideTransfer(send({ idempotencyKey: 'k1' }), payer, payee, NOW);
    const payerAfter = fold(payer, first.payerEvents);
    const payeeAfter = fold(payee, first.payeeEvents);
    // The retry carries a new server-made transfer id; the key finds the first one, even with funds gone.
    const retry = decideTransfer(send({ idempotencyKey: 'k1', transferId: 't2' }), payerAfter, payeeAfter, NOW);
    expect(retry).toEqual({ payerEvents: [], payeeEvents: [], transferId: 't1' });
    expect(availableMlx(payerAfter)).toBe(4000n);
  });

  it('given a key already used for another amount, when retried, then CONFLICT and nothing is decided', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    const payee = foldWallet([opened(bob)]);
    const first = decideTransfer(send({ idempotencyKey: 'k1' }), payer, payee, NOW);
    const payerAfter = fold(payer, first.payerEvents);
    const error = refusal(() => decideTransfer(send({ idempotencyKey: 'k1', transferId: 't2', amountMlx: 6000n }), payerAfter, payee, NOW));
    expect([error.code, error.messageKey]).toEqual(['CONFLICT', 'errors:idempotencyConflict']);
  });

  it('given a payee that takes no credits (the fee account), when sent, then refused at once with a clear error', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    const payee = foldWallet([opened(fee, 'fee')]);
    const error = refusal(() => decideTransfer(send({ toAddress: fee.address, toWalletId: fee.walletId }), payer, payee, NOW));
    expect([error.code, error.messageKey, error.fields]).toEqual([
      'VALIDATION',
      'errors:recipientCannotReceive',
      { to: 'errors:recipientCannotReceive' },
    ]);
  });

  it('given a payee wallet that was never opened, when sent, then NOT_FOUND unknownRecipient', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    const error = refusal(() => decideTransfer(send(), payer, foldWallet([]), NOW));
    expect([error.code, error.messageKey]).toEqual(['NOT_FOUND', 'errors:unknownRecipient']);
  });

  it('given a send to oneself (by wallet id or by address), when decided, then refused', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    for (const data of [
      { toWalletId: alice.walletId, toAddress: alice.address },
      { toWalletId: bob.walletId, toAddress: alice.address },
    ]) {
      const error = refusal(() => decideTransfer(send(data), payer, payer, NOW));
      expect(error.messageKey).toBe('errors:cannotSendToSelf');
    }
  });

  it('given an address that is not the payee wallet, when sent, then refused as an invalid request', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    const error = refusal(() => decideTransfer(send({ toAddress: testAddress(7) }), payer, foldWallet([opened(bob)]), NOW));
    expect([error.code, error.messageKey]).toEqual(['VALIDATION', 'errors:invalidRequest']);
  });

  it('given amount + fee above the available balance, when sent, then insufficient funds and nothing decided', () => {
    const payer = foldWallet([opened(alice), credited(5999n, 'fund')]);
    const error = refusal(() => decideTransfer(send(), payer, foldWallet([opened(bob)]), NOW));
    expect([error.code, error.messageKey, error.params]).toEqual([
      'CONFLICT',
      'errors:insufficientFunds',
      { requiredMlx: '6000', availableMlx: '5999' },
    ]);
  });

  it('given invalid input (zero, negative, wrong fee, malformed ids), when sent, then VALIDATION', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    const payee = foldWallet([opened(bob)]);
    for (const data of [{ amountMlx: 0n }, { amountMlx: -1n }, { feeMlx: 999n }, { transferId: '' }, { toWalletId: 'bad id!' }]) {
      expect(refusal(() => decideTransfer(send(data), payer, payee, NOW)).code).toBe('VALIDATION');
    }
  });

  it(`given ${OPEN_RESERVATIONS_MAX} open external reservations, when an internal send is decided, then it is not capped (it holds nothing open)`, () => {
    const events: WalletEvent[] = [opened(alice), credited(10_000_000n, 'fund')];
    for (let i = 0; i < OPEN_RESERVATIONS_MAX; i++) {
      events.push({
        type: 'TransferReserved',
        data: {
          walletId: alice.walletId,
          transferId: `x${i}`,
          fromAddress: alice.address,
          toAddress: testAddress(3),
          amountMlx: '1',
          feeMlx: '1000',
          reservedAt: at,
        },
      });
    }
    const decision = decideTransfer(send(), foldWallet(events), foldWallet([opened(bob)]), NOW);
    expect(decision.payerEvents).toHaveLength(2);
  });

  it('given the decision, when decided, then neither state given is changed', () => {
    const payer = foldWallet([opened(alice), credited(10_000n, 'fund')]);
    const payee = foldWallet([opened(bob)]);
    decideTransfer(send(), payer, payee, NOW);
    expect([payer.transfers.has('t1'), payee.transfers.has('t1'), payer.eventCount, payee.eventCount]).toEqual([false, false, 2, 1]);
  });
});

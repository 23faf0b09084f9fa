// Proves the wallet decider's rules for a merchant's payout and refund transfers (ADR 033): a payout is a send (fee 1000, never overdrawn, not to oneself) that may wait for the network, and its reference rides on the reservation, the post (also when the settlement worker posts it later) and the credit; a checkout refund carries no fee, goes to a user and is settled at once only.
import { describe, expect, it } from 'vitest';
import type { ReserveTransfer } from './commands.js';
import type { WalletEvent } from './events.js';
import type { TransferReference } from './transfer-reference.js';
import { SYSTEM_WALLET_IDS } from './events.js';
import type { WalletState } from './state.js';
import { alice, bob, credited, NOW, opened, testAddress } from '../../test/wallet-fixtures.js';
import { refusal } from '../../test/refusal.js';
import { decide, decideTransfer, evolve, foldWallet } from '../../test/wallet-rules.js';

const payoutRef: TransferReference = { kind: 'payout', payoutId: `po_${'1'.repeat(32)}` };
const refundRef: TransferReference = { kind: 'checkoutRefund', orderId: `${'a'.repeat(32)}-1`, refundId: `re_${'2'.repeat(32)}` };
const command = (data: Partial<ReserveTransfer['data']>): ReserveTransfer => ({
  type: 'ReserveTransfer',
  data: { transferId: 't1', toAddress: bob.address, toWalletId: bob.walletId, amountMlx: 5000n, feeMlx: 1000n, ...data },
});
const fold = (state: WalletState, events: WalletEvent[]) => events.reduce(evolve, state);

const funded = () => foldWallet([opened(alice), credited(10_000n, 'fund')]);
const payee = () => foldWallet([opened(bob)]);

describe('payout transfers', () => {
  it('given a payout to a Quern wallet, then it is settled at once with the send fee and every event names the payout', () => {
    const decision = decideTransfer(command({ reference: payoutRef }), funded(), payee(), NOW);
    expect(decision.payerEvents.map((e) => e.data)).toEqual([
      expect.objectContaining({ feeMlx: '1000', reference: payoutRef }),
      expect.objectContaining({ feeMlx: '1000', reference: payoutRef }),
    ]);
    expect(decision.payeeEvents[0]?.data).toMatchObject({ reference: payoutRef });
  });

  it('given a payout without the send fee, above the balance, or to oneself, then it is refused like a send', () => {
    expect(refusal(() => decideTransfer(command({ reference: payoutRef, feeMlx: 0n }), funded(), payee(), NOW)).messageKey).toBe(
      'errors:invalidFee',
    );
    expect(refusal(() => decideTransfer(command({ reference: payoutRef, amountMlx: 9001n }), funded(), payee(), NOW)).messageKey).toBe(
      'errors:insufficientFunds',
    );
    const self = command({ reference: payoutRef, toAddress: alice.address, toWalletId: alice.walletId });
    expect(refusal(() => decideTransfer(self, funded(), funded(), NOW)).messageKey).toBe('errors:cannotSendToSelf');
  });

  it('given a payout to an external address, then it is reserved with its reference and the later post repeats it', () => {
    const external = testAddress(444);
    const reserved = decide(command({ reference: payoutRef, toAddress: external, toWalletId: undefined }), funded(), NOW);
    expect(reserved.events[0]?.data).toMatchObject({ reference: payoutRef, feeMlx: '1000' });
    const posted = decide(
      { type: 'PostTransfer', data: { transferId: 't1', networkTransactionHash: 'abc' } },
      fold(funded(), reserved.events),
      NOW,
    );
    expect(posted.events[0]).toMatchObject({ type: 'TransferPosted', data: { reference: payoutRef, networkTransactionHash: 'abc' } });
  });
});

describe('checkout refund transfers', () => {
  it('given a refund to a user, then it is settled at once with no fee and names the order and the refund', () => {
    const decision = decideTransfer(command({ reference: refundRef, feeMlx: 0n }), funded(), payee(), NOW);
    expect(decision.payerEvents[1]?.data).toMatchObject({ feeMlx: '0', reference: refundRef });
    expect(decision.payeeEvents[0]?.data).toMatchObject({ reference: refundRef });
  });

  it('given a refund with a fee, to a system account, or as a reservation waiting for settlement, then it is refused', () => {
    expect(refusal(() => decideTransfer(command({ reference: refundRef }), funded(), payee(), NOW)).messageKey).toBe('errors:invalidFee');
    const reserve = foldWallet([opened({ walletId: SYSTEM_WALLET_IDS.reserve, address: testAddress(9) }, 'reserve')]);
    const toReserve = command({ reference: refundRef, feeMlx: 0n, toAddress: testAddress(9), toWalletId: SYSTEM_WALLET_IDS.reserve });
    expect(refusal(() => decideTransfer(toReserve, funded(), reserve, NOW)).code).toBe('FORBIDDEN');
    expect(refusal(() => decide(command({ reference: refundRef, feeMlx: 0n }), funded(), NOW)).code).toBe('VALIDATION');
  });
});

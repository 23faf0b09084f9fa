// Proves the wallet decider's hold on bought MLX (ADR 047): while a purchase credit's hold lasts, a send or payout (two-phase or at once) may use only what is available beyond the held MLX and is refused with the typed PurchaseHoldRefusal naming the held MLX, the end of the hold and what can be sent; a checkout payment and a subscription charge may use it; a reversal lowers the hold; after the hold everything can be sent; the hold survives a snapshot; only a purchase credit may carry a hold.
import { describe, expect, it } from 'vitest';
import { refusal } from '../../test/refusal.js';
import type { ReserveTransfer } from './commands.js';
import { PurchaseHoldRefusal } from './decider.js';
import type { WalletEvent } from './events.js';
import type { TransferReference } from './transfer-reference.js';
import { SYSTEM_WALLET_IDS } from './events.js';
import { fromWalletSnapshot, toWalletSnapshot } from './snapshot.js';
import { heldPurchasedMlx, type WalletState } from './state.js';
import { alice, bob, credited, NOW, opened } from '../../test/wallet-fixtures.js';
import { decide, decideTransfer, evolve, foldWallet } from '../../test/wallet-rules.js';

const HOLD_UNTIL = new Date(NOW.getTime() + 72 * 3_600_000);
const purchaseRef: TransferReference = { kind: 'purchase', orderId: 'ORDER1', captureId: 'CAPTURE1' };

/** Alice: 10,000 MLX of her own, then 50,000 bought and held until HOLD_UNTIL. */
function aliceWithPurchase(): WalletState {
  const bought: WalletEvent = {
    type: 'TransferCredited',
    data: {
      walletId: alice.walletId,
      transferId: 'purchase-CAPTURE1',
      fromWalletId: SYSTEM_WALLET_IDS.reserve,
      fromAddress: bob.address,
      toAddress: alice.address,
      amountMlx: '50000',
      settledAtOnce: true,
      reference: purchaseRef,
      holdUntil: HOLD_UNTIL.toISOString(),
      creditedAt: NOW.toISOString(),
    },
  };
  return foldWallet([opened(alice), credited(10_000n, 'own'), bought]);
}
const payee = () => foldWallet([opened(bob)]);
const send = (data: Partial<ReserveTransfer['data']>): ReserveTransfer => ({
  type: 'ReserveTransfer',
  data: { transferId: 't1', toAddress: bob.address, toWalletId: bob.walletId, amountMlx: 5000n, feeMlx: 1000n, ...data },
});
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('the hold on bought MLX', () => {
  it('given MLX just bought, when a send or payout needs more than the MLX not held, then PurchaseHoldRefusal names the hold; within it, it goes through', () => {
    const state = aliceWithPurchase();
    expect(heldPurchasedMlx(state, later(1000))).toEqual({ heldMlx: 50_000n, holdUntil: HOLD_UNTIL.toISOString() });
    const tooMuch = refusal(() => decideTransfer(send({ amountMlx: 9_001n }), state, payee(), later(1000)));
    expect(tooMuch).toBeInstanceOf(PurchaseHoldRefusal);
    expect(tooMuch).toMatchObject({ code: 'CONFLICT', messageKey: 'errors:purchasedMlxHeld', heldMlx: 50_000n, sendableMlx: 10_000n });
    expect(tooMuch.params).toEqual({
      heldMlx: '50000',
      // The instant itself: each message writes it in its reader's language (i18n/format.ts).
      holdUntil: HOLD_UNTIL.toISOString(),
      sendableMlx: '10000',
    });
    const payout = send({ amountMlx: 9_001n, reference: { kind: 'payout', payoutId: `po_${'1'.repeat(32)}` } });
    expect(refusal(() => decideTransfer(payout, state, payee(), later(1000)))).toBeInstanceOf(PurchaseHoldRefusal);
    // Two-phase (an external address or a settlement delay): the same rule.
    expect(refusal(() => decide(send({ amountMlx: 9_001n }), state, later(1000)))).toBeInstanceOf(PurchaseHoldRefusal);
    expect(decideTransfer(send({ amountMlx: 9_000n }), state, payee(), later(1000)).payerEvents).toHaveLength(2);
  });

  it('given MLX just bought, when it pays a checkout or a subscription, then it may use all of it at once', () => {
    const state = aliceWithPurchase();
    const checkout = send({ amountMlx: 60_000n, feeMlx: 0n, reference: { kind: 'checkout', orderId: `${'a'.repeat(32)}-1` } });
    expect(decideTransfer(checkout, state, payee(), later(1000)).payerEvents).toHaveLength(2);
    const charge = send({ amountMlx: 60_000n, feeMlx: 0n, reference: { kind: 'subscriptionCharge', subscriptionId: 'sub_1', period: 1 } });
    expect(decideTransfer(charge, state, payee(), later(1000)).payerEvents).toHaveLength(2);
  });

  it('given bought MLX spent on a checkout, when MLX arrives afterwards, then what arrived can be sent at once', () => {
    const checkout = send({ amountMlx: 55_000n, feeMlx: 0n, reference: { kind: 'checkout', orderId: `${'a'.repeat(32)}-1` } });
    const paid = decideTransfer(checkout, aliceWithPurchase(), payee(), later(1000)).payerEvents.reduce(evolve, aliceWithPurchase());
    // 55,000 spent: the 50,000 bought first, then 5,000 of her own; nothing bought is left to hold.
    expect(heldPurchasedMlx(paid, later(2000))).toEqual({ heldMlx: 0n });
    const received = evolve(paid, credited(20_000n, 'gift'));
    expect(decideTransfer(send({ transferId: 't2', amountMlx: 24_000n }), received, payee(), later(3000)).payerEvents).toHaveLength(2);
  });

  it('given part of the bought MLX spent on a subscription, then only the rest stays held', () => {
    const charge = send({ amountMlx: 30_000n, feeMlx: 0n, reference: { kind: 'subscriptionCharge', subscriptionId: 'sub_1', period: 1 } });
    const paid = decideTransfer(charge, aliceWithPurchase(), payee(), later(1000)).payerEvents.reduce(evolve, aliceWithPurchase());
    expect(heldPurchasedMlx(paid, later(2000))).toEqual({ heldMlx: 20_000n, holdUntil: HOLD_UNTIL.toISOString() });
    expect(refusal(() => decideTransfer(send({ transferId: 't2', amountMlx: 9_001n }), paid, payee(), later(2000)))).toBeInstanceOf(
      PurchaseHoldRefusal,
    );
  });

  it('given the hold over, then all of it can be sent; given a reversal, then what it took back is no longer held', () => {
    const state = aliceWithPurchase();
    expect(heldPurchasedMlx(state, HOLD_UNTIL)).toEqual({ heldMlx: 0n });
    expect(decideTransfer(send({ amountMlx: 59_000n }), state, payee(), HOLD_UNTIL).payerEvents).toHaveLength(2);

    const reserve = foldWallet([opened({ walletId: SYSTEM_WALLET_IDS.reserve, address: bob.address }, 'reserve')]);
    const reversal = send({
      transferId: 'purchase-reversal-R1',
      toWalletId: SYSTEM_WALLET_IDS.reserve,
      amountMlx: 20_000n,
      feeMlx: 0n,
      reference: { kind: 'purchaseReversal', orderId: 'ORDER1', captureId: 'CAPTURE1', refundId: 'R1' },
    });
    const taken = decideTransfer(reversal, state, reserve, later(2000));
    const after = taken.payerEvents.reduce(evolve, aliceWithPurchase());
    expect(heldPurchasedMlx(after, later(3000)).heldMlx).toBe(30_000n);
  });

  it('given a wallet with a hold, when snapshotted and restored, then the hold is the same', () => {
    const restored = fromWalletSnapshot(JSON.parse(JSON.stringify(toWalletSnapshot(aliceWithPurchase()))));
    expect(restored && heldPurchasedMlx(restored.state, later(1000))).toEqual(heldPurchasedMlx(aliceWithPurchase(), later(1000)));
  });

  it('given a hold time on anything but a purchase credit, or not a time, then the request is refused', () => {
    const holdOnSend = send({ holdUntil: HOLD_UNTIL.toISOString() });
    expect(refusal(() => decideTransfer(holdOnSend, aliceWithPurchase(), payee(), later(1000))).messageKey).toBe('errors:invalidRequest');
    const reserve = foldWallet([
      opened({ walletId: SYSTEM_WALLET_IDS.reserve, address: bob.address }, 'reserve'),
      credited(100_000n, 'f', { walletId: SYSTEM_WALLET_IDS.reserve, address: bob.address }),
    ]);
    const notATime = send({ toAddress: alice.address, toWalletId: alice.walletId, feeMlx: 0n, reference: purchaseRef, holdUntil: 'soon' });
    expect(refusal(() => decideTransfer(notATime, reserve, aliceWithPurchase(), later(1000))).messageKey).toBe('errors:invalidRequest');
  });
});

// Proves closing a wallet (ADR 042): refused unless posted, held and pending are all zero, a second close is answered with nothing, and a closed wallet is neither paid by a Quern wallet (atomic or settled later, voided `recipientClosed`) nor able to send, while network deposits to it are still recorded.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { auditLedger } from '../audit/ledger.js';
import type { ReserveTransfer, WalletCommand } from './commands.js';
import type { WalletEvent } from './events.js';
import { SYSTEM_WALLET_IDS } from './events.js';
import { voidReasonOf } from './handlers.js';
import { WALLET_SNAPSHOT_VERSION, fromWalletSnapshot, toWalletSnapshot } from './snapshot.js';
import type { WalletState } from './state.js';
import { isWalletClosed } from './state.js';
import { MemoryLedger, NOW, alice, bob, credited, expectOk, opened, testAddress } from '../../test/wallet-fixtures.js';
import { refusal, refusalSummary } from '../../test/refusal.js';
import { decide, decideTransfer, foldWallet } from '../../test/wallet-rules.js';

const at = NOW.toISOString();
const close: WalletCommand = { type: 'CloseWallet', data: { reason: 'accountDeleted' } };
const closedEvent = (w = alice): WalletEvent => ({
  type: 'WalletClosed',
  data: { walletId: w.walletId, reason: 'accountDeleted', closedAt: at },
});
const given = (...events: WalletEvent[]): WalletState => foldWallet(events);

/** Alice's 6,000 MLX sent out: 5,000 to an outside address plus the 1,000 fee. */
const spentOut = (transferId = 'out'): WalletEvent[] => [
  {
    type: 'TransferReserved',
    data: {
      walletId: alice.walletId,
      transferId,
      fromAddress: alice.address,
      toAddress: testAddress(3),
      amountMlx: '5000',
      feeMlx: '1000',
      idempotencyKey: `key-${transferId}`,
      reservedAt: at,
    },
  },
  {
    type: 'TransferPosted',
    data: {
      walletId: alice.walletId,
      transferId,
      toAddress: testAddress(3),
      amountMlx: '5000',
      feeMlx: '1000',
      networkTransactionHash: 'tx1',
      postedAt: at,
    },
  },
];
/** Alice funded with 6,000, spent to zero, then closed. */
const closedAlice = () => given(opened(alice), credited(6000n, 'in'), ...spentOut(), closedEvent());

const deposit: WalletCommand = {
  type: 'ReceiveDeposit',
  data: { depositId: 'dep1:0', networkTransactionHash: 'dep1', fromAddress: testAddress(7), amountMlx: 2500n },
};
const send = (data: Partial<ReserveTransfer['data']> = {}): ReserveTransfer => ({
  type: 'ReserveTransfer',
  data: { transferId: 't1', toAddress: bob.address, toWalletId: bob.walletId, amountMlx: 5000n, feeMlx: 1000n, ...data },
});

const summary = refusalSummary;

describe('CloseWallet', () => {
  it('given an opened user wallet that never held anything, when closed, then WalletClosed records the reason and time, without a balance', () => {
    const events = decide(close, given(opened(alice)), NOW).events;
    expect(events).toEqual([{ type: 'WalletClosed', data: { walletId: alice.walletId, reason: 'accountDeleted', closedAt: at } }]);
    const after = given(opened(alice), ...events);
    expect([isWalletClosed(after), after.closedAt]).toEqual([true, at]);
  });

  it('given a wallet funded then spent to zero with nothing pending, when closed, then it closes', () => {
    const state = given(opened(alice), credited(6000n, 'in'), ...spentOut());
    expect(decide(close, state, NOW).events.map((e) => e.type)).toEqual(['WalletClosed']);
  });

  it.each<[string, WalletEvent[]]>([
    ['a posted balance', [credited(1n, 'in')]],
    // Everything posted is held by an open reservation: available is 0, yet the send may still be voided and refunded.
    ['a hold (an open reservation)', [credited(6000n, 'in'), ...spentOut().slice(0, 1)]],
    [
      'a pending deposit credit',
      [
        {
          type: 'DepositReceived',
          data: {
            walletId: alice.walletId,
            depositId: 'd:0',
            networkTransactionHash: 'd',
            fromAddress: testAddress(7),
            toAddress: alice.address,
            amountMlx: '1',
            receivedAt: at,
          },
        },
      ],
    ],
  ])('given a wallet with %s, when closed, then CONFLICT errors:accountNotEmpty and nothing is recorded', (_label, events) => {
    const state = given(opened(alice), ...events);
    expect(summary(refusal(() => decide(close, state, NOW)))).toEqual({
      code: 'CONFLICT',
      messageKey: 'errors:accountNotEmpty',
      fields: {},
    });
  });

  it('given a closed wallet, when closed again, then nothing is recorded, even after a deposit arrived since', () => {
    expect(decide(close, closedAlice(), NOW).events).toEqual([]);
    const withDeposit = [...decide(deposit, closedAlice(), NOW).events];
    expect(
      decide(close, foldWallet([opened(alice), credited(6000n, 'in'), ...spentOut(), closedEvent(), ...withDeposit]), NOW).events,
    ).toEqual([]);
  });

  it('given a system account, no wallet, or an unknown reason, when closed, then FORBIDDEN, NOT_FOUND, invalid request', () => {
    const reserve = { walletId: SYSTEM_WALLET_IDS.reserve, address: testAddress(9) };
    expect(refusal(() => decide(close, given(opened(reserve, 'reserve')), NOW)).code).toBe('FORBIDDEN');
    expect(refusal(() => decide(close, given(), NOW)).code).toBe('NOT_FOUND');
    const unknown = { type: 'CloseWallet', data: { reason: 'tired' } } as unknown as WalletCommand;
    expect(refusal(() => decide(unknown, given(opened(alice)), NOW)).messageKey).toBe('errors:invalidRequest');
  });
});

describe('a closed wallet as payee', () => {
  const funded = () => given(opened(alice), credited(10_000n, 'fund'));

  it('given bob closed, when alice pays him in one append (send, checkout, refund, charge, payout), then VALIDATION errors:recipientClosed on `to`', () => {
    const closedBob = given(opened(bob), closedEvent(bob));
    expect(summary(refusal(() => decideTransfer(send(), funded(), closedBob, NOW)))).toEqual({
      code: 'VALIDATION',
      messageKey: 'errors:recipientClosed',
      fields: { to: 'errors:recipientClosed' },
    });
    const references: ReserveTransfer['data'][] = [
      send({ feeMlx: 0n, reference: { kind: 'checkout', orderId: 'o1' } }).data,
      send({ feeMlx: 0n, reference: { kind: 'checkoutRefund', orderId: 'o1', refundId: 'r1' } }).data,
      send({ feeMlx: 0n, reference: { kind: 'subscriptionCharge', subscriptionId: 's1', period: 2 } }).data,
      send({ reference: { kind: 'payout', payoutId: 'p1' } }).data,
    ];
    for (const data of references)
      expect(refusal(() => decideTransfer({ type: 'ReserveTransfer', data }, funded(), closedBob, NOW)).messageKey).toBe(
        'errors:recipientClosed',
      );
    // The same payment to bob before he closed goes through.
    expect(decideTransfer(send(), funded(), given(opened(bob)), NOW).payeeEvents.map((e) => e.type)).toEqual(['TransferCredited']);
  });

  it('given bob closed, when a settlement credits him a reservation, then VALIDATION errors:recipientClosed and the void reason is recipientClosed', () => {
    const credit: WalletCommand = {
      type: 'CreditTransfer',
      data: { transferId: 't9', fromWalletId: alice.walletId, fromAddress: alice.address, amountMlx: 5000n },
    };
    const error = refusal(() => decide(credit, given(opened(bob), closedEvent(bob)), NOW));
    expect(summary(error)).toEqual({ code: 'VALIDATION', messageKey: 'errors:recipientClosed', fields: { to: 'errors:recipientClosed' } });
    expect(voidReasonOf(error)).toBe('recipientClosed');
    expect(voidReasonOf(new AppError('FORBIDDEN', 'errors:forbidden'))).toBe('recipientCannotReceive');
  });

  it('given a credit recorded before the close, when the settlement repeats it, then it is answered with nothing, not refused (no void after a credit)', () => {
    const repeat: WalletCommand = {
      type: 'CreditTransfer',
      data: { transferId: 'in', fromWalletId: 'wallet-funder', fromAddress: testAddress(99), amountMlx: 6000n },
    };
    expect(decide(repeat, closedAlice(), NOW).events).toEqual([]);
  });

  it('given a two-phase send to bob who closes before it settles, when the worker settles it, then it is voided recipientClosed and the audit is clean', () => {
    const ledger = new MemoryLedger();
    ledger.bootstrap(1_000_000_000n, 100_000_000n);
    ledger.open('alice', 'user', testAddress(1), 'user-alice');
    ledger.open('bob', 'user', testAddress(2), 'user-bob');
    ledger.transfer(SYSTEM_WALLET_IDS.reserve, 'alice', 50_000n, 'fund-alice');
    expectOk(
      ledger.execute('alice', {
        type: 'ReserveTransfer',
        data: { transferId: 'a-b', toAddress: testAddress(2), toWalletId: 'bob', amountMlx: 10_000n, feeMlx: 1000n },
      }),
    );
    expectOk(ledger.execute('bob', close));
    ledger.settle('alice', 'a-b');

    expect(ledger.state('alice').transfers.get('a-b')).toMatchObject({ status: 'voided', voidReason: 'recipientClosed' });
    expect(ledger.state('alice').postedBalanceMlx).toBe(50_000n);
    expect(ledger.state('bob').postedBalanceMlx).toBe(0n);
    const audit = auditLedger(ledger.log);
    expect([audit.violations, audit.closedWallets]).toEqual([[], { closed: 1, heldMlx: 0n, pendingMlx: 0n, depositsConfirmed: 0 }]);
  });
});

describe('a closed wallet as payer', () => {
  it('given alice closed, when she reserves, sends at once or retries an earlier keyed send, then CONFLICT errors:accountDeleted', () => {
    const accountDeleted = { code: 'CONFLICT', messageKey: 'errors:accountDeleted', fields: {} };
    expect(summary(refusal(() => decide(send(), closedAlice(), NOW)))).toEqual(accountDeleted);
    expect(summary(refusal(() => decideTransfer(send(), closedAlice(), given(opened(bob)), NOW)))).toEqual(accountDeleted);
    const retry = send({ transferId: 'out', idempotencyKey: 'key-out', toAddress: testAddress(3), toWalletId: undefined });
    expect(summary(refusal(() => decide(retry, closedAlice(), NOW)))).toEqual(accountDeleted);
  });
});

describe('a closed wallet and network deposits', () => {
  it('given alice closed, when a deposit arrives and is confirmed, then both are recorded, the MLX sits in her posted balance and still cannot be sent', () => {
    const received = decide(deposit, closedAlice(), NOW).events;
    expect(received).toMatchObject([{ type: 'DepositReceived', data: { depositId: 'dep1:0', amountMlx: '2500' } }]);
    const afterReceipt = foldWallet([opened(alice), credited(6000n, 'in'), ...spentOut(), closedEvent(), ...received]);
    const confirmed = decide({ type: 'ConfirmDeposit', data: { depositId: 'dep1:0' } }, afterReceipt, NOW).events;
    expect(confirmed).toMatchObject([
      { type: 'DepositConfirmed', data: { amountMlx: '2500', balanceAfter: { postedMlx: '2500', heldMlx: '0', pendingCreditMlx: '0' } } },
    ]);
    const after = foldWallet([opened(alice), credited(6000n, 'in'), ...spentOut(), closedEvent(), ...received, ...confirmed]);
    expect([after.postedBalanceMlx, isWalletClosed(after)]).toEqual([2500n, true]);
    expect(refusal(() => decide(send({ amountMlx: 1000n }), after, NOW)).messageKey).toBe('errors:accountDeleted');
  });
});

describe('a closed wallet in a snapshot', () => {
  it('given a closed wallet, when snapshotted through JSON and read back, then it is still closed; a snapshot of the version before closing existed is ignored', () => {
    const state = closedAlice();
    const data = JSON.parse(JSON.stringify(toWalletSnapshot(state)));
    expect(fromWalletSnapshot(data)?.state).toEqual(state);
    expect(fromWalletSnapshot(data)?.state.closedAt).toBe(at);
    expect(WALLET_SNAPSHOT_VERSION).toBeGreaterThan(1);
    expect(fromWalletSnapshot({ ...data, version: 1 })).toBeUndefined();
  });
});

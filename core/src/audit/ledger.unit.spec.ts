// Proves the ledger audit passes a sound log with the right figures (including the network boundary of ADR 017) and names each kind of corruption in a broken one.
import { describe, expect, it } from 'vitest';
import type { LedgerRecord, LedgerViolationCode } from './ledger.js';
import { AUDIT_VIOLATIONS_MAX, auditLedger } from './ledger.js';
import { SYSTEM_WALLET_IDS, walletStream } from '../wallet/events.js';
import { MemoryLedger, NOW, expectOk, testAddress } from '../../test/wallet-fixtures.js';

const at = NOW.toISOString();
const SUPPLY_MLX = 1_000_000_000n;
const RESERVE_MLX = 100_000_000n;

/** A ledger with the system accounts and two funded users, alice and bob. */
function fundedLedger(): MemoryLedger {
  const ledger = new MemoryLedger();
  ledger.bootstrap(SUPPLY_MLX, RESERVE_MLX);
  ledger.open('alice', 'user', testAddress(1), 'user-alice');
  ledger.open('bob', 'user', testAddress(2), 'user-bob');
  ledger.transfer(SYSTEM_WALLET_IDS.reserve, 'alice', 50_000n, 'fund-alice');
  return ledger;
}

const raw = (walletId: string, type: string, data: Record<string, unknown>): LedgerRecord => ({
  streamId: walletStream(walletId),
  type,
  data: { walletId, ...data },
});
const codes = (records: LedgerRecord[]): LedgerViolationCode[] => auditLedger(records).violations.map((v) => v.code);

function reservedByAlice(ledger: MemoryLedger, transferId: string, toWalletId?: string): void {
  const toAddress = toWalletId ? testAddress(2) : testAddress(3);
  expectOk(
    ledger.execute('alice', { type: 'ReserveTransfer', data: { transferId, toAddress, toWalletId, amountMlx: 10_000n, feeMlx: 1000n } }),
  );
}

describe('auditLedger on a sound log', () => {
  it('given sends, an external send and deposits, when audited, then no violation and the figures add up to the supply', () => {
    const ledger = fundedLedger();
    reservedByAlice(ledger, 'a-to-b', 'bob');
    ledger.settle('alice', 'a-to-b');
    reservedByAlice(ledger, 'a-out');
    ledger.settle('alice', 'a-out');
    expectOk(
      ledger.execute('bob', {
        type: 'ReceiveDeposit',
        data: { depositId: 'd1:0', networkTransactionHash: 'd1', fromAddress: testAddress(4), amountMlx: 700n },
      }),
    );
    expectOk(ledger.execute('bob', { type: 'ConfirmDeposit', data: { depositId: 'd1:0' } }));
    expectOk(
      ledger.execute('bob', {
        type: 'ReceiveDeposit',
        data: { depositId: 'd2:0', networkTransactionHash: 'd2', fromAddress: testAddress(4), amountMlx: 300n },
      }),
    );

    const audit = auditLedger(ledger.log);
    expect(audit.violations).toEqual([]);
    expect(audit.ok).toBe(true);
    // Five posted transfers (two bootstrap, one funding, two sends), each paying the fee.
    expect(audit.feeAccruedMlx).toBe(5000n);
    expect(audit.networkDerivedMlx).toBe(10_000n - 700n);
    const allocatedMlx = SUPPLY_MLX - RESERVE_MLX - 2000n;
    expect(audit.boundary).toEqual({ inMlx: 700n, outMlx: 10_000n, netMlx: -9300n, allocatedMlx });
    expect(audit.networkBalanceMlx).toBe(allocatedMlx + 9300n);
    expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
    expect(audit.mintedMlx).toBe(SUPPLY_MLX);
    expect(audit.pendingCreditsMlx).toBe(300n);
    expect(audit.transfers).toEqual({ reserved: 5, open: 0, credited: 4, posted: 5, voided: 0 });
    expect(audit.deposits).toEqual({ received: 2, open: 1, confirmed: 1, rejected: 0 });
    expect(audit.walletCount).toBe(6);
  });

  it('given a credit whose post has not happened yet, when audited, then the amount is in transit and the ledger still balances', () => {
    const ledger = fundedLedger();
    reservedByAlice(ledger, 'a-to-b', 'bob');
    expectOk(ledger.credit('alice', 'a-to-b'));
    const audit = auditLedger(ledger.log);
    expect(audit.violations).toEqual([]);
    expect([audit.inTransitMlx, audit.pendingDebitsMlx]).toEqual([10_000n, 11_000n]);
  });

  it('given events of other capabilities, when audited, then they are counted and skipped', () => {
    const ledger = fundedLedger();
    const audit = auditLedger([{ streamId: 'user-1', type: 'UserRegistered', data: {} }, ...ledger.log]);
    expect(audit.ok).toBe(true);
    expect(audit.eventCount).toBe(audit.walletEventCount + 1);
  });
});

describe('auditLedger on a corrupted log', () => {
  it('given a transfer posted twice, when audited, then settledTwice and the supply no longer matches', () => {
    const ledger = fundedLedger();
    reservedByAlice(ledger, 'x', 'bob');
    ledger.settle('alice', 'x');
    const post = ledger.log.at(-1) as LedgerRecord;
    expect(codes([...ledger.log, post])).toEqual(['settledTwice', 'supplyMismatch']);
  });

  it('given a credit with no reservation, when audited, then creditWithoutReservation and supplyMismatch', () => {
    const forged = raw('bob', 'TransferCredited', {
      transferId: 'forged',
      fromWalletId: 'alice',
      fromAddress: testAddress(1),
      toAddress: testAddress(2),
      amountMlx: '5',
      creditedAt: at,
    });
    expect(codes([...fundedLedger().log, forged])).toEqual(['creditWithoutReservation', 'supplyMismatch']);
  });

  it('given a reservation larger than the balance, when audited, then negativeBalance', () => {
    const overdraft = raw('alice', 'TransferReserved', {
      transferId: 'big',
      fromAddress: testAddress(1),
      toAddress: testAddress(3),
      amountMlx: '999999',
      feeMlx: '1000',
      reservedAt: at,
    });
    expect(codes([...fundedLedger().log, overdraft])).toContain('negativeBalance');
  });

  it('given one transfer id reserved by two wallets, when audited, then duplicateReservation', () => {
    const ledger = fundedLedger();
    ledger.transfer(SYSTEM_WALLET_IDS.reserve, 'bob', 50_000n, 'fund-bob');
    reservedByAlice(ledger, 'same-id');
    expectOk(
      ledger.execute('bob', {
        type: 'ReserveTransfer',
        data: { transferId: 'same-id', toAddress: testAddress(3), amountMlx: 1n, feeMlx: 1000n },
      }),
    );
    expect(codes(ledger.log)).toEqual(['duplicateReservation', 'holdsMismatch']);
  });

  it('given an internal transfer posted before its credit, when audited, then postedWithoutCredit', () => {
    const ledger = fundedLedger();
    reservedByAlice(ledger, 'early', 'bob');
    expectOk(ledger.execute('alice', { type: 'PostTransfer', data: { transferId: 'early' } }));
    expect(codes(ledger.log)).toEqual(['postedWithoutCredit', 'supplyMismatch']);
  });

  it('given a transfer voided after its credit, when audited, then voidedAfterCredit and the created money shows', () => {
    const ledger = fundedLedger();
    reservedByAlice(ledger, 'v', 'bob');
    expectOk(ledger.credit('alice', 'v'));
    expectOk(ledger.execute('alice', { type: 'VoidTransfer', data: { transferId: 'v', reason: 'expired' } }));
    expect(codes(ledger.log)).toEqual(['voidedAfterCredit', 'supplyMismatch']);
  });

  it('given a credit to another wallet than reserved, or of another amount, when audited, then both are named', () => {
    const ledger = fundedLedger();
    reservedByAlice(ledger, 'w', 'bob');
    const wrong = raw('alice', 'TransferCredited', {
      transferId: 'w',
      fromWalletId: 'bob',
      fromAddress: testAddress(2),
      toAddress: testAddress(1),
      amountMlx: '9',
      creditedAt: at,
    });
    expect(codes([...ledger.log, wrong])).toEqual(['creditToWrongWallet', 'creditToWrongWallet', 'amountMismatch', 'supplyMismatch']);
  });

  it('given malformed, misplaced and out-of-order events, when audited, then each is named', () => {
    const log = fundedLedger().log;
    const badAmount = raw('alice', 'TransferReserved', {
      transferId: 'f',
      fromAddress: 'a',
      toAddress: 'b',
      amountMlx: '1.5',
      feeMlx: '1000',
      reservedAt: at,
    });
    const unknownType = raw('alice', 'WalletRenamed', {});
    const misplaced = {
      ...raw('alice', 'DepositConfirmed', { depositId: 'd', amountMlx: '1', confirmedAt: at }),
      streamId: walletStream('bob'),
    };
    const beforeOpen = raw('carol', 'DepositReceived', {
      depositId: 'd:0',
      networkTransactionHash: 'd',
      fromAddress: 'x',
      toAddress: 'y',
      amountMlx: '1',
      receivedAt: at,
    });
    const mintOnUser = raw('bob', 'SupplyMinted', { amountMlx: '1', mintedAt: at });
    const unknownDeposit = raw('bob', 'DepositConfirmed', { depositId: 'nope', amountMlx: '1', confirmedAt: at });
    expect(codes([...log, badAmount, unknownType, misplaced, beforeOpen, mintOnUser, unknownDeposit])).toEqual([
      'malformedEvent',
      'malformedEvent',
      'streamMismatch',
      'eventBeforeOpen',
      'mintOutsideGenesis',
      'depositUnknown',
      // The unknown confirmation still moved the network account, with no crossing behind it.
      'networkBoundaryMismatch',
    ]);
  });

  it("given reservations whose reference no capability owns, or misses its kind's field, when audited, then each is a malformed event", () => {
    const log = fundedLedger().log;
    const reserved = (transferId: string, reference: Record<string, unknown>) =>
      raw('alice', 'TransferReserved', {
        transferId,
        fromAddress: testAddress(1),
        toAddress: testAddress(3),
        amountMlx: '10',
        feeMlx: '1000',
        reservedAt: at,
        reference,
      });
    // Both pass the wallet's shape (a kind and well-named ids), which is all the wallet reads (ADR 074).
    const unknownKind = reserved('u', { kind: 'lottery', ticketId: 'abc' });
    const checkoutWithoutOrder = reserved('c', { kind: 'checkout' });
    expect(codes([...log, unknownKind, checkoutWithoutOrder])).toEqual(['malformedEvent', 'malformedEvent']);
  });

  it('given a second WalletOpened and a deposit larger than the network account ever held, when audited, then only the reopening is named', () => {
    const ledger = fundedLedger();
    const reopen = raw('bob', 'WalletOpened', { kind: 'user', address: testAddress(2), ownerUserId: 'user-bob', openedAt: at });
    const huge = (SUPPLY_MLX * 2n).toString();
    const received = raw('bob', 'DepositReceived', {
      depositId: 'h:0',
      networkTransactionHash: 'h',
      fromAddress: testAddress(4),
      toAddress: testAddress(2),
      amountMlx: huge,
      receivedAt: at,
    });
    const confirmed = raw('bob', 'DepositConfirmed', { depositId: 'h:0', amountMlx: huge, confirmedAt: at });
    // The network account is a boundary account (ADR 017): a received and confirmed deposit of any size is a crossing.
    const audit = auditLedger([...ledger.log, reopen, received, confirmed]);
    expect(audit.violations.map((v) => v.code)).toEqual(['walletOpenedTwice']);
    expect(audit.networkBalanceMlx).toBe(audit.boundary.allocatedMlx - SUPPLY_MLX * 2n);
  });

  it('given a log with more violations than the bound, when audited, then the list stops at the bound and the count goes on', () => {
    const junk = Array.from({ length: AUDIT_VIOLATIONS_MAX + 5 }, () => raw('alice', 'Nonsense', {}));
    const audit = auditLedger(junk);
    expect(audit.violations).toHaveLength(AUDIT_VIOLATIONS_MAX);
    expect(audit.violationCount).toBe(AUDIT_VIOLATIONS_MAX + 5);
    expect(audit.ok).toBe(false);
  });
});

/**
 * The set-up `ensureSystemWallets` makes: the supply minted into genesis and the reserve funded,
 * nothing given to the network account. Alice is funded, bob is not.
 */
function productionLedger(): MemoryLedger {
  const ledger = new MemoryLedger();
  ledger.open(SYSTEM_WALLET_IDS.genesis, 'genesis', testAddress(9001));
  ledger.open(SYSTEM_WALLET_IDS.reserve, 'reserve', testAddress(9002));
  ledger.open(SYSTEM_WALLET_IDS.fee, 'fee', testAddress(9003));
  ledger.open(SYSTEM_WALLET_IDS.network, 'network', testAddress(9004));
  expectOk(ledger.execute(SYSTEM_WALLET_IDS.genesis, { type: 'MintSupply', data: { amountMlx: SUPPLY_MLX } }));
  ledger.transfer(SYSTEM_WALLET_IDS.genesis, SYSTEM_WALLET_IDS.reserve, RESERVE_MLX, 'reserve-initial-funding');
  ledger.open('alice', 'user', testAddress(1), 'user-alice');
  ledger.open('bob', 'user', testAddress(2), 'user-bob');
  ledger.transfer(SYSTEM_WALLET_IDS.reserve, 'alice', 50_000n, 'fund-alice');
  return ledger;
}

function depositTo(ledger: MemoryLedger, walletId: string, hash: string, amountMlx: bigint): void {
  const depositId = `${hash}:0`;
  expectOk(
    ledger.execute(walletId, {
      type: 'ReceiveDeposit',
      data: { depositId, networkTransactionHash: hash, fromAddress: testAddress(4), amountMlx },
    }),
  );
  expectOk(ledger.execute(walletId, { type: 'ConfirmDeposit', data: { depositId } }));
}

describe('auditLedger at the network boundary (ADR 017)', () => {
  it('given the production set-up, a faucet deposit, an internal and external send and a voided send, when audited, then the network account sits at minus the net inflow and nothing is wrong', () => {
    const ledger = productionLedger();
    depositTo(ledger, 'bob', 'faucet1', 1_000_000n);
    const afterDeposit = auditLedger(ledger.log);
    expect(afterDeposit.violations).toEqual([]);
    expect(afterDeposit.networkBalanceMlx).toBe(-1_000_000n);

    expectOk(
      ledger.execute('bob', {
        type: 'ReserveTransfer',
        data: { transferId: 'b-to-a', toAddress: testAddress(1), toWalletId: 'alice', amountMlx: 5000n, feeMlx: 1000n },
      }),
    );
    ledger.settle('bob', 'b-to-a');
    reservedByAlice(ledger, 'a-out');
    ledger.settle('alice', 'a-out');
    reservedByAlice(ledger, 'a-expired');
    expectOk(ledger.execute('alice', { type: 'VoidTransfer', data: { transferId: 'a-expired', reason: 'expired' } }));
    reservedByAlice(ledger, 'a-refused');
    expectOk(ledger.execute('alice', { type: 'VoidTransfer', data: { transferId: 'a-refused', reason: 'networkRejected' } }));

    const audit = auditLedger(ledger.log);
    expect(audit.violations).toEqual([]);
    expect(audit.boundary).toEqual({ inMlx: 1_000_000n, outMlx: 10_000n, netMlx: 990_000n, allocatedMlx: 0n });
    expect(audit.networkBalanceMlx).toBe(-990_000n);
    expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
  });

  it('given a rejected deposit, when audited, then nothing crossed and the network account is untouched', () => {
    const ledger = productionLedger();
    expectOk(
      ledger.execute('bob', {
        type: 'ReceiveDeposit',
        data: { depositId: 'gone:0', networkTransactionHash: 'gone', fromAddress: testAddress(4), amountMlx: 400n },
      }),
    );
    expectOk(ledger.execute('bob', { type: 'RejectDeposit', data: { depositId: 'gone:0', reason: 'networkInvalidated' } }));
    const audit = auditLedger(ledger.log);
    expect([audit.violations, audit.boundary.netMlx, audit.networkBalanceMlx]).toEqual([[], 0n, 0n]);
  });

  it('given a deposit confirmation with no deposit received, when audited, then the credit without a crossing is named', () => {
    const ledger = productionLedger();
    const forged = raw('bob', 'DepositConfirmed', { depositId: 'ghost:0', amountMlx: '250000', confirmedAt: at });
    const audit = auditLedger([...ledger.log, forged]);
    expect(audit.violations.map((v) => v.code)).toEqual(['depositUnknown', 'networkBoundaryMismatch']);
    // Conservation alone would not see it: the network account absorbed the forged amount.
    expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
    expect(audit.boundary.inMlx).toBe(0n);
  });

  it('given a deposit confirmed for more than was received, when audited, then the excess is named at the boundary', () => {
    const ledger = productionLedger();
    expectOk(
      ledger.execute('bob', {
        type: 'ReceiveDeposit',
        data: { depositId: 'm:0', networkTransactionHash: 'm', fromAddress: testAddress(4), amountMlx: 100n },
      }),
    );
    const inflated = raw('bob', 'DepositConfirmed', { depositId: 'm:0', amountMlx: '900', confirmedAt: at });
    expect(codes([...ledger.log, inflated])).toEqual(['amountMismatch', 'networkBoundaryMismatch']);
  });

  it('given the network account’s stream paying a user (which the decider never allows), when audited, then the forged network balance is named', () => {
    // The old set-up gave the network stream an allocation, so no balance goes negative and
    // conservation holds; only the boundary check sees MLX leave it without crossing.
    const ledger = fundedLedger();
    const network = SYSTEM_WALLET_IDS.network;
    const transfer = { transferId: 'leak', toAddress: testAddress(1), toWalletId: 'alice', amountMlx: '5000', feeMlx: '1000' };
    const forged = [
      raw(network, 'TransferReserved', { ...transfer, fromAddress: testAddress(9004), reservedAt: at }),
      raw('alice', 'TransferCredited', {
        transferId: 'leak',
        fromWalletId: network,
        fromAddress: testAddress(9004),
        toAddress: testAddress(1),
        amountMlx: '5000',
        creditedAt: at,
      }),
      raw(network, 'TransferPosted', { ...transfer, postedAt: at }),
    ];
    expect(codes([...ledger.log, ...forged])).toEqual(['networkBoundaryMismatch']);
  });

  it('given a credit to the network stream that no reservation backs, when audited, then it is named with the boundary mismatch', () => {
    const forged = raw(SYSTEM_WALLET_IDS.network, 'TransferCredited', {
      transferId: 'gift',
      fromWalletId: 'alice',
      fromAddress: testAddress(1),
      toAddress: testAddress(9004),
      amountMlx: '77',
      creditedAt: at,
    });
    expect(codes([...productionLedger().log, forged])).toEqual(['creditWithoutReservation', 'networkBoundaryMismatch', 'supplyMismatch']);
  });

  it('given an external send posted twice, when audited, then it crossed once and the second post is named', () => {
    const ledger = productionLedger();
    reservedByAlice(ledger, 'twice');
    ledger.settle('alice', 'twice');
    const post = ledger.log.at(-1) as LedgerRecord;
    // The second post debits alice again and the network account takes it: balanced, so only the boundary sees it.
    expect(codes([...ledger.log, post])).toEqual(['settledTwice', 'networkBoundaryMismatch']);
  });
});

describe('auditLedger on internal sends settled in one append (payer: reserved + posted, payee: credited)', () => {
  it('given the payer’s post written just before the payee’s credit, when audited, then the send is sound', () => {
    const ledger = productionLedger();
    reservedByAlice(ledger, 'one-append', 'bob');
    expectOk(ledger.execute('alice', { type: 'PostTransfer', data: { transferId: 'one-append' } }));
    expectOk(ledger.credit('alice', 'one-append'));
    const audit = auditLedger(ledger.log);
    expect(audit.violations).toEqual([]);
    // Credited: the reserve's funding, alice's funding and this send.
    expect([audit.inTransitMlx, audit.transfers.open, audit.transfers.credited]).toEqual([0n, 0, 3]);
  });

  it('given the payee’s credit written just before the payer’s reservation and post, when audited, then the send is sound', () => {
    const ledger = productionLedger();
    const credit = raw('bob', 'TransferCredited', {
      transferId: 'payee-first',
      fromWalletId: 'alice',
      fromAddress: testAddress(1),
      toAddress: testAddress(2),
      amountMlx: '10000',
      creditedAt: at,
    });
    const transfer = { transferId: 'payee-first', toAddress: testAddress(2), toWalletId: 'bob', amountMlx: '10000', feeMlx: '1000' };
    const reserved = raw('alice', 'TransferReserved', { ...transfer, fromAddress: testAddress(1), reservedAt: at });
    const posted = raw('alice', 'TransferPosted', { ...transfer, postedAt: at });
    const audit = auditLedger([...ledger.log, credit, reserved, posted]);
    expect(audit.violations).toEqual([]);
    expect([audit.ledgerTotalMlx, audit.inTransitMlx, audit.transfers.posted]).toEqual([SUPPLY_MLX, 0n, 3]);
  });

  it('given a credit followed by some other event before its reservation, when audited, then the credit is named as unreserved', () => {
    const ledger = productionLedger();
    const credit = raw('bob', 'TransferCredited', {
      transferId: 'late',
      fromWalletId: 'alice',
      fromAddress: testAddress(1),
      toAddress: testAddress(2),
      amountMlx: '10000',
      creditedAt: at,
    });
    const transfer = { transferId: 'late', toAddress: testAddress(2), toWalletId: 'bob', amountMlx: '10000', feeMlx: '1000' };
    const other = raw('alice', 'TransferReserved', { ...transfer, transferId: 'other', fromAddress: testAddress(1), reservedAt: at });
    const reserved = raw('alice', 'TransferReserved', { ...transfer, fromAddress: testAddress(1), reservedAt: at });
    expect(codes([...ledger.log, credit, other, reserved])).toEqual(['creditWithoutReservation', 'supplyMismatch']);
  });

  it('given another event between the post and the credit, when audited, then the post is named as without credit', () => {
    const ledger = productionLedger();
    reservedByAlice(ledger, 'split', 'bob');
    expectOk(ledger.execute('alice', { type: 'PostTransfer', data: { transferId: 'split' } }));
    reservedByAlice(ledger, 'between');
    expectOk(ledger.credit('alice', 'split'));
    expect(codes(ledger.log)).toEqual(['postedWithoutCredit', 'creditAfterSettlement']);
  });
});

describe('auditLedger on closed wallets (ADR 042)', () => {
  const close = { type: 'CloseWallet', data: { reason: 'accountDeleted' } } as const;
  const closedRaw = (walletId: string) => raw(walletId, 'WalletClosed', { reason: 'accountDeleted', closedAt: at });

  it('given bob closed at zero, then a deposit confirmed and another pending on his address, when audited, then no violation and they are held for closed accounts', () => {
    const ledger = fundedLedger();
    expectOk(ledger.execute('bob', close));
    for (const [id, amountMlx] of [
      ['c1', 700n],
      ['c2', 300n],
    ] as const)
      expectOk(
        ledger.execute('bob', {
          type: 'ReceiveDeposit',
          data: { depositId: `${id}:0`, networkTransactionHash: id, fromAddress: testAddress(4), amountMlx },
        }),
      );
    expectOk(ledger.execute('bob', { type: 'ConfirmDeposit', data: { depositId: 'c1:0' } }));

    const audit = auditLedger(ledger.log);
    expect(audit.violations).toEqual([]);
    expect(audit.closedWallets).toEqual({ closed: 1, heldMlx: 700n, pendingMlx: 300n, depositsConfirmed: 1 });
    expect(audit.ledgerTotalMlx).toBe(SUPPLY_MLX);
  });

  it('given a log with no closed wallet, when audited, then the closed figures are zero', () => {
    expect(auditLedger(fundedLedger().log).closedWallets).toEqual({ closed: 0, heldMlx: 0n, pendingMlx: 0n, depositsConfirmed: 0 });
  });

  it('given a WalletClosed forged onto a funded wallet, and one onto a wallet with an open reservation, when audited, then closedNotEmpty for each', () => {
    const ledger = fundedLedger();
    const funded = closedRaw('alice');
    expect(codes([...ledger.log, funded])).toEqual(['closedNotEmpty']);
    // Bob holds exactly what he reserves: available 0, but the hold could still be voided back to him.
    ledger.transfer(SYSTEM_WALLET_IDS.reserve, 'bob', 11_000n, 'fund-bob');
    expectOk(
      ledger.execute('bob', {
        type: 'ReserveTransfer',
        data: { transferId: 'b-out', toAddress: testAddress(3), amountMlx: 10_000n, feeMlx: 1000n },
      }),
    );
    expect(codes([...ledger.log, closedRaw('bob')])).toEqual(['closedNotEmpty']);
    expect(auditLedger([...ledger.log, closedRaw('bob')]).violations.at(-1)).toMatchObject({
      code: 'closedNotEmpty',
      streamId: walletStream('bob'),
      message: expect.stringContaining('1 open reservation(s)'),
    });
  });

  it('given a credit forged onto a closed wallet, and a send from it, when audited, then creditAfterClose and transferAfterClose', () => {
    const ledger = fundedLedger();
    expectOk(ledger.execute('bob', close));
    reservedByAlice(ledger, 'to-closed', 'bob');
    const credit = raw('bob', 'TransferCredited', {
      transferId: 'to-closed',
      fromWalletId: 'alice',
      fromAddress: testAddress(1),
      toAddress: testAddress(2),
      amountMlx: '10000',
      creditedAt: at,
    });
    const reserve = raw('bob', 'TransferReserved', {
      transferId: 'from-closed',
      fromAddress: testAddress(2),
      toAddress: testAddress(3),
      amountMlx: '5000',
      feeMlx: '1000',
      reservedAt: at,
    });
    const post = raw('bob', 'TransferPosted', {
      transferId: 'from-closed',
      toAddress: testAddress(3),
      amountMlx: '5000',
      feeMlx: '1000',
      networkTransactionHash: 'x1',
      postedAt: at,
    });
    const found = auditLedger([...ledger.log, credit, reserve, post]).violations;
    expect(found.map((v) => [v.code, v.transferId])).toEqual([
      ['creditAfterClose', 'to-closed'],
      ['transferAfterClose', 'from-closed'],
      ['transferAfterClose', 'from-closed'],
    ]);
  });

  it('given a second WalletClosed after a deposit, when audited, then nothing is named: the first close stands', () => {
    const ledger = fundedLedger();
    expectOk(ledger.execute('bob', close));
    expectOk(
      ledger.execute('bob', {
        type: 'ReceiveDeposit',
        data: { depositId: 'c3:0', networkTransactionHash: 'c3', fromAddress: testAddress(4), amountMlx: 5n },
      }),
    );
    expect(codes([...ledger.log, closedRaw('bob')])).toEqual([]);
  });
});

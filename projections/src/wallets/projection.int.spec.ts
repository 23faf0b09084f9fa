// Proves that each wallet event, committed to a real Redis the way the runner commits it, gives readers the right balance, pending items on both sides, history rows (with usernames) and address index, including events recorded by older versions; that other events change nothing; and that incomplete events are refused without a trace.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProjectionApplyError } from '../commit.js';
import { allProjections } from '../index.js';
import { type CommittedLog, openCommittedLog } from '../../test/committed-log.js';
import { openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { walletKey } from './keys.js';
import {
  countPendingSettlements,
  findWalletIdByAddress,
  getPendingTransactions,
  getTransactionsPage,
  getWalletAddress,
  getWalletBalance,
  getWalletClosedAt,
} from './queries.js';
import { pendingTransactionsOutput, transactionsPageOutput } from '@quern/core/history';

let redis: PrivateRedis;
let log: CommittedLog;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
  log = openCommittedLog(redis.redis, allProjections);
});
afterEach(() => {
  log.close();
});

const at = '2026-01-02T03:04:05.000Z';
const later = '2026-01-02T03:04:09.000Z';
const balanceAfter = (postedMlx: string, heldMlx = '0', pendingCreditMlx = '0') => ({ postedMlx, heldMlx, pendingCreditMlx });

const balance = (walletId: string) => getWalletBalance(redis.redis, walletId);
/** Sends reserved and not yet posted or voided, across all wallets (the metrics' gauge, ADR 053). */
const pendingSettlements = () => countPendingSettlements(redis.redis);
const pending = async (walletId: string) => {
  const content = await getPendingTransactions(redis.redis, walletId);
  // Whatever the read model holds, the answer must be what the API promises.
  expect(pendingTransactionsOutput.parse({ content })).toEqual({ content });
  return content;
};
const history = async (walletId: string) => {
  const page = await getTransactionsPage(redis.redis, walletId, 0);
  expect(transactionsPageOutput.parse(page)).toEqual(page);
  return page;
};
const emptyHistory = { transactions: [], total: 0, page: 0, limit: 10 };

/** Alice and Bob: registered users (so rows show their usernames) with opened wallets; Alice holds 10,000 MLX. */
async function aliceAndBob(): Promise<void> {
  for (const [userId, username] of [
    ['alice', 'Alice'],
    ['bob', 'Bob'],
  ] as const) {
    await log.apply('UserRegistered', {
      userId,
      username,
      firstName: username,
      lastName: 'Test',
      email: `${userId}@example.com`,
      phone: '+15550102030',
      passwordHash: '$argon2id$hash',
      registeredAt: at,
    });
    await log.apply('WalletOpened', { walletId: userId, kind: 'user', address: `addr-${userId}`, ownerUserId: userId, openedAt: at });
  }
  await log.apply('TransferCredited', {
    walletId: 'alice',
    transferId: 'funding',
    fromWalletId: 'system-reserve',
    fromAddress: 'addr-reserve',
    toAddress: 'addr-alice',
    amountMlx: '10000',
    creditedAt: at,
    balanceAfter: balanceAfter('10000'),
  });
}

const alice = { username: 'Alice' };
const bob = { username: 'Bob' };
/** Alice sends Bob 5,000 MLX with a 1,000 MLX fee: 6,000 held. */
const reservation = {
  walletId: 'alice',
  transferId: 't1',
  fromAddress: 'addr-alice',
  toAddress: 'addr-bob',
  toWalletId: 'bob',
  amountMlx: '5000',
  feeMlx: '1000',
  reservedAt: at,
  balanceAfter: balanceAfter('10000', '6000'),
};
const sendToBob = {
  transaction_hash: 't1',
  from_address: 'addr-alice',
  to_address: 'addr-bob',
  from_user: alice,
  to_user: bob,
  amount: '5000',
};
/** Alice's first history row: her funding, from a system account (no username). */
const fundingRow = {
  transaction_hash: 'funding',
  transaction_type: 'credit',
  from_address: 'addr-reserve',
  to_address: 'addr-alice',
  to_user: alice,
  amount: '10000',
  balance: '10000',
  transaction_date: at,
};

describe('wallet read models: identity', () => {
  it('given WalletOpened for a user, when committed, then the address and the wallet id map both ways, the balance is zero and the lists are empty', async () => {
    await log.apply('WalletOpened', { walletId: 'alice', kind: 'user', address: 'addr-alice', ownerUserId: 'alice', openedAt: at });

    expect(await getWalletAddress(redis.redis, 'alice')).toBe('addr-alice');
    expect(await findWalletIdByAddress(redis.redis, 'addr-alice')).toBe('alice');
    expect(await balance('alice')).toEqual({ stable: '0', unstable: '0' });
    expect(await pending('alice')).toEqual([]);
    expect(await history('alice')).toEqual(emptyHistory);
    // No query reads the identity fields yet; the wallet hash is what a reader of them would get.
    expect(await redis.redis.hgetall(walletKey('alice'))).toEqual({
      wallet_id: 'alice',
      kind: 'user',
      address: 'addr-alice',
      owner_user_id: 'alice',
      posted: '0',
      held: '0',
      pending_credit: '0',
    });
  });

  it('given WalletOpened for a system account, when committed, then it is readable by address and has no owner', async () => {
    await log.apply('WalletOpened', { walletId: 'system-fee', kind: 'fee', address: 'addr-fee', openedAt: at });

    expect(await findWalletIdByAddress(redis.redis, 'addr-fee')).toBe('system-fee');
    expect(await balance('system-fee')).toEqual({ stable: '0', unstable: '0' });
    expect(await redis.redis.hgetall(walletKey('system-fee'))).toEqual({
      wallet_id: 'system-fee',
      kind: 'fee',
      address: 'addr-fee',
      posted: '0',
      held: '0',
      pending_credit: '0',
    });
  });

  it('given a funded wallet, when a second WalletOpened for it and another wallet opened on its address are committed, then the first identity, balance and index entry stand', async () => {
    await aliceAndBob();

    await log.apply('WalletOpened', { walletId: 'alice', kind: 'fee', address: 'addr-alice', openedAt: later });
    await log.apply('WalletOpened', {
      walletId: 'alice',
      kind: 'user',
      address: 'addr-elsewhere',
      ownerUserId: 'mallory',
      openedAt: later,
    });
    await log.apply('WalletOpened', { walletId: 'mallory', kind: 'user', address: 'addr-alice', ownerUserId: 'mallory', openedAt: later });

    expect(await balance('alice')).toEqual({ stable: '10000', unstable: '0' });
    expect(await getWalletAddress(redis.redis, 'alice')).toBe('addr-alice');
    expect(await findWalletIdByAddress(redis.redis, 'addr-alice')).toBe('alice');
    expect(await redis.redis.hmget(walletKey('alice'), 'kind', 'owner_user_id')).toEqual(['user', 'alice']);
    expect((await history('alice')).transactions).toEqual([fundingRow]);
  });

  it('given WalletClosed, when committed, then the wallet hash records closed_at and nothing else changes; a second WalletClosed does not move it', async () => {
    await aliceAndBob();
    await log.apply('WalletClosed', { walletId: 'bob', reason: 'accountDeleted', closedAt: at });
    await log.apply('WalletClosed', { walletId: 'bob', reason: 'accountDeleted', closedAt: later });

    expect(await getWalletClosedAt(redis.redis, 'bob')).toBe(at);
    expect(await getWalletClosedAt(redis.redis, 'alice')).toBeNull();
    expect(await getWalletClosedAt(redis.redis, 'nobody')).toBeNull();
    expect(await redis.redis.hgetall(walletKey('bob'))).toEqual({
      wallet_id: 'bob',
      kind: 'user',
      address: 'addr-bob',
      owner_user_id: 'bob',
      posted: '0',
      held: '0',
      pending_credit: '0',
      closed_at: at,
    });
    expect(await balance('bob')).toEqual({ stable: '0', unstable: '0' });
    expect(await findWalletIdByAddress(redis.redis, 'addr-bob')).toBe('bob');
    expect(await history('bob')).toEqual(emptyHistory);
  });

  it('given SupplyMinted, when committed, then genesis holds the supply and shows one credit named by the event id, without usernames', async () => {
    await log.apply('WalletOpened', { walletId: 'system-genesis', kind: 'genesis', address: 'addr-genesis', openedAt: at });
    const minted = await log.apply('SupplyMinted', {
      walletId: 'system-genesis',
      amountMlx: '900',
      toAddress: 'addr-genesis',
      mintedAt: later,
      balanceAfter: balanceAfter('900'),
    });

    expect(await balance('system-genesis')).toEqual({ stable: '900', unstable: '0' });
    expect(await history('system-genesis')).toEqual({
      transactions: [
        {
          transaction_hash: minted.id,
          transaction_type: 'credit',
          from_address: '',
          to_address: 'addr-genesis',
          amount: '900',
          balance: '900',
          transaction_date: later,
        },
      ],
      total: 1,
      page: 0,
      limit: 10,
    });
  });
});

describe('wallet read models: sends between Quern wallets', () => {
  it('given TransferReserved to Bob, when committed, then Alice sees a pending debit with its fee and Current less the hold, Bob a pending credit and the same balance', async () => {
    await aliceAndBob();

    await log.apply('TransferReserved', reservation);

    expect(await balance('alice')).toEqual({ stable: '4000', unstable: '0' });
    expect(await pending('alice')).toEqual([{ ...sendToBob, transaction_type: 'debit', fee: '1000', create_date: at }]);
    expect(await balance('bob')).toEqual({ stable: '0', unstable: '0' });
    expect(await pending('bob')).toEqual([{ ...sendToBob, transaction_type: 'credit', create_date: at }]);
    expect((await history('alice')).transactions).toEqual([fundingRow]);
    expect(await history('bob')).toEqual(emptyHistory);
    expect(await pendingSettlements()).toBe(1);
  });

  it('given TransferCredited to Bob, when committed, then his pending credit becomes a history credit with his posted balance, and Alice still sees hers pending', async () => {
    await aliceAndBob();
    await log.apply('TransferReserved', reservation);

    await log.apply('TransferCredited', {
      walletId: 'bob',
      transferId: 't1',
      fromWalletId: 'alice',
      fromAddress: 'addr-alice',
      toAddress: 'addr-bob',
      amountMlx: '5000',
      creditedAt: later,
      // Bob has a hold of his own: the row shows the posted balance, Current the spendable one.
      balanceAfter: balanceAfter('7000', '2000'),
    });

    expect(await pending('bob')).toEqual([]);
    expect(await balance('bob')).toEqual({ stable: '5000', unstable: '0' });
    expect(await history('bob')).toEqual({
      transactions: [{ ...sendToBob, transaction_type: 'credit', balance: '7000', transaction_date: later }],
      total: 1,
      page: 0,
      limit: 10,
    });
    expect(await pending('alice')).toEqual([{ ...sendToBob, transaction_type: 'debit', fee: '1000', create_date: at }]);
    // Credited to the payee, but the payer's side is not settled until TransferPosted.
    expect(await pendingSettlements()).toBe(1);
  });

  it('given TransferPosted for Alice, when committed, then her pending debit becomes a history debit with amount, fee and balance, newest first', async () => {
    await aliceAndBob();
    await log.apply('TransferReserved', reservation);

    await log.apply('TransferPosted', {
      walletId: 'alice',
      transferId: 't1',
      fromAddress: 'addr-alice',
      toAddress: 'addr-bob',
      toWalletId: 'bob',
      amountMlx: '5000',
      feeMlx: '1000',
      postedAt: later,
      balanceAfter: balanceAfter('4000'),
    });

    expect(await pending('alice')).toEqual([]);
    expect(await pendingSettlements()).toBe(0);
    expect(await balance('alice')).toEqual({ stable: '4000', unstable: '0' });
    expect(await history('alice')).toEqual({
      transactions: [{ ...sendToBob, transaction_type: 'debit', fee: '1000', balance: '4000', transaction_date: later }, fundingRow],
      total: 2,
      page: 0,
      limit: 10,
    });
  });

  it('given TransferVoided naming Bob, when committed, then the pending items on both sides are gone and Alice has her money back', async () => {
    await aliceAndBob();
    await log.apply('TransferReserved', reservation);

    await log.apply('TransferVoided', {
      walletId: 'alice',
      transferId: 't1',
      toWalletId: 'bob',
      amountMlx: '5000',
      feeMlx: '1000',
      reason: 'recipientCannotReceive',
      voidedAt: later,
      balanceAfter: balanceAfter('10000'),
    });

    expect(await pending('alice')).toEqual([]);
    expect(await pending('bob')).toEqual([]);
    expect(await pendingSettlements()).toBe(0);
    expect(await balance('alice')).toEqual({ stable: '10000', unstable: '0' });
    expect((await history('alice')).transactions).toEqual([fundingRow]);
    expect(await history('bob')).toEqual(emptyHistory);
  });
});

describe('wallet read models: sends to the millix network', () => {
  const external = { ...reservation, transferId: 't2', toAddress: 'addr-far', toWalletId: undefined };

  it('given an external TransferReserved, when committed, then only Alice has a pending debit, without a payee username', async () => {
    await aliceAndBob();

    await log.apply('TransferReserved', external);

    expect(await pending('alice')).toEqual([
      {
        transaction_hash: 't2',
        transaction_type: 'debit',
        from_address: 'addr-alice',
        to_address: 'addr-far',
        from_user: alice,
        amount: '5000',
        fee: '1000',
        create_date: at,
      },
    ]);
    expect(await pending('bob')).toEqual([]);
    expect(await balance('alice')).toEqual({ stable: '4000', unstable: '0' });
  });

  it('given an external TransferPosted recorded before fromAddress existed, when committed, then the row is named by the millix hash, with no sender address and no payee', async () => {
    await aliceAndBob();
    await log.apply('TransferReserved', external);

    await log.apply('TransferPosted', {
      walletId: 'alice',
      transferId: 't2',
      toAddress: 'addr-far',
      amountMlx: '5000',
      feeMlx: '1000',
      networkTransactionHash: 'abc123',
      postedAt: later,
      balanceAfter: balanceAfter('4000'),
    });

    expect(await pending('alice')).toEqual([]);
    expect((await history('alice')).transactions[0]).toEqual({
      transaction_hash: 'abc123',
      transaction_type: 'debit',
      from_address: '',
      to_address: 'addr-far',
      from_user: alice,
      amount: '5000',
      fee: '1000',
      balance: '4000',
      transaction_date: later,
    });
  });

  it('given an external TransferVoided (no payee), when committed, then only Alice’s item goes: Bob’s pending credit from another send stays', async () => {
    await aliceAndBob();
    await log.apply('TransferReserved', reservation);
    await log.apply('TransferReserved', { ...external, balanceAfter: balanceAfter('10000', '12000') });

    await log.apply('TransferVoided', {
      walletId: 'alice',
      transferId: 't2',
      amountMlx: '5000',
      feeMlx: '1000',
      reason: 'expired',
      voidedAt: later,
      balanceAfter: balanceAfter('10000', '6000'),
    });

    expect(await pending('alice')).toEqual([{ ...sendToBob, transaction_type: 'debit', fee: '1000', create_date: at }]);
    expect(await pending('bob')).toEqual([{ ...sendToBob, transaction_type: 'credit', create_date: at }]);
    expect(await balance('alice')).toEqual({ stable: '4000', unstable: '0' });
  });
});

describe('wallet read models: deposits', () => {
  const received = {
    walletId: 'alice',
    depositId: 'abc123:0',
    networkTransactionHash: 'abc123',
    fromAddress: 'addr-far',
    toAddress: 'addr-alice',
    amountMlx: '7000',
    receivedAt: at,
    balanceAfter: balanceAfter('10000', '0', '7000'),
  };
  const incoming = {
    transaction_hash: 'abc123',
    transaction_type: 'credit',
    from_address: 'addr-far',
    to_address: 'addr-alice',
    to_user: alice,
  };

  it('given DepositReceived, when committed, then Alice sees it as Pending (not Current) and in her pending list, not in her history', async () => {
    await aliceAndBob();

    await log.apply('DepositReceived', received);

    expect(await balance('alice')).toEqual({ stable: '10000', unstable: '7000' });
    expect(await pending('alice')).toEqual([{ ...incoming, amount: '7000', create_date: at }]);
    expect((await history('alice')).transactions).toEqual([fundingRow]);
  });

  it('given DepositConfirmed, when committed, then the pending credit becomes a history credit named by the millix hash and moves into Current', async () => {
    await aliceAndBob();
    await log.apply('DepositReceived', received);

    await log.apply('DepositConfirmed', {
      walletId: 'alice',
      depositId: 'abc123:0',
      networkTransactionHash: 'abc123',
      fromAddress: 'addr-far',
      toAddress: 'addr-alice',
      amountMlx: '7000',
      confirmedAt: later,
      balanceAfter: balanceAfter('17000'),
    });

    expect(await balance('alice')).toEqual({ stable: '17000', unstable: '0' });
    expect(await pending('alice')).toEqual([]);
    expect((await history('alice')).transactions).toEqual([
      { ...incoming, amount: '7000', balance: '17000', transaction_date: later },
      fundingRow,
    ]);
  });

  it('given a DepositConfirmed recorded before the hash and addresses were repeated, when committed, then the row takes the hash from the deposit id and shows no addresses', async () => {
    await aliceAndBob();
    await log.apply('DepositReceived', received);

    await log.apply('DepositConfirmed', {
      walletId: 'alice',
      depositId: 'abc123:0',
      amountMlx: '7000',
      confirmedAt: later,
      balanceAfter: balanceAfter('17000'),
    });

    expect(await pending('alice')).toEqual([]);
    expect((await history('alice')).transactions[0]).toEqual({
      transaction_hash: 'abc123',
      transaction_type: 'credit',
      from_address: '',
      to_address: '',
      to_user: alice,
      amount: '7000',
      balance: '17000',
      transaction_date: later,
    });
  });

  it('given DepositRejected, when committed, then the pending credit and the Pending amount are gone and nothing enters the history', async () => {
    await aliceAndBob();
    await log.apply('DepositReceived', received);

    await log.apply('DepositRejected', {
      walletId: 'alice',
      depositId: 'abc123:0',
      amountMlx: '7000',
      reason: 'networkInvalidated',
      rejectedAt: later,
      balanceAfter: balanceAfter('10000'),
    });

    expect(await balance('alice')).toEqual({ stable: '10000', unstable: '0' });
    expect(await pending('alice')).toEqual([]);
    expect((await history('alice')).transactions).toEqual([fundingRow]);
  });
});

describe('wallet read models: purchases, refunds and reversals', () => {
  const RESERVE = 'system-reserve';
  const purchase = { kind: 'purchase', orderId: 'ORDER1', captureId: 'CAPTURE1' };
  const refund = { kind: 'purchaseRefund', orderId: 'ORDER1', captureId: 'CAPTURE1', refundId: 'REFUND1' };
  const reversal = { kind: 'purchaseReversal', orderId: 'ORDER1', captureId: 'CAPTURE1', refundId: 'REVERSAL1' };
  const purchasePurpose = { kind: 'purchase', order_id: 'ORDER1', capture_id: 'CAPTURE1' };

  interface Leg {
    walletId: string;
    address: string;
    /** The wallet's balance after the reservation (payer), the post (payer) or the credit (payee). */
    reservedAfter?: ReturnType<typeof balanceAfter>;
    settledAfter: ReturnType<typeof balanceAfter>;
  }

  /** The three events of a purchase transfer as the wallet decider writes them (ADR 019, ADR 025): one atomic append, fee 0. */
  function referencedTransfer(transferId: string, reference: object, payer: Leg, payee: Leg, amountMlx: string) {
    const common = { transferId, fromAddress: payer.address, toAddress: payee.address, amountMlx, reference };
    return [
      log.event('TransferReserved', {
        ...common,
        walletId: payer.walletId,
        toWalletId: payee.walletId,
        feeMlx: '0',
        idempotencyKey: `key-${transferId}`,
        settledAtOnce: true,
        reservedAt: later,
        balanceAfter: payer.reservedAfter,
      }),
      log.event('TransferPosted', {
        ...common,
        walletId: payer.walletId,
        toWalletId: payee.walletId,
        feeMlx: '0',
        postedAt: later,
        balanceAfter: payer.settledAfter,
      }),
      log.event('TransferCredited', {
        ...common,
        walletId: payee.walletId,
        fromWalletId: payer.walletId,
        settledAtOnce: true,
        creditedAt: later,
        balanceAfter: payee.settledAfter,
      }),
    ] as const;
  }

  /** Alice (10,000 MLX) and the reserve (1,000,000 MLX), whose address means nothing to her. */
  async function aliceAndReserve(): Promise<void> {
    await aliceAndBob();
    await log.apply('WalletOpened', { walletId: RESERVE, kind: 'reserve', address: 'addr-reserve', openedAt: at });
  }

  /** Alice buys 2,500 MLX: the reserve's credit of order ORDER1, capture CAPTURE1. */
  const purchaseOf2500 = () =>
    referencedTransfer(
      'purchase-CAPTURE1',
      purchase,
      { walletId: RESERVE, address: 'addr-reserve', reservedAfter: balanceAfter('1000000', '2500'), settledAfter: balanceAfter('997500') },
      { walletId: 'alice', address: 'addr-alice', settledAfter: balanceAfter('12500') },
      '2500',
    );

  const purchaseRow = {
    transaction_hash: 'purchase-CAPTURE1',
    transaction_type: 'credit',
    from_address: 'addr-reserve',
    to_address: 'addr-alice',
    to_user: alice,
    amount: '2500',
    purpose: purchasePurpose,
    balance: '12500',
    transaction_date: later,
  };

  it('given a purchase’s reservation alone, when committed, then both pending items carry the purpose: Alice’s credit and the reserve’s debit', async () => {
    await aliceAndReserve();
    const [reserved] = purchaseOf2500();

    await log.commit(reserved);

    const common = { transaction_hash: 'purchase-CAPTURE1', from_address: 'addr-reserve', to_address: 'addr-alice', to_user: alice };
    expect(await pending('alice')).toEqual([
      { ...common, transaction_type: 'credit', amount: '2500', purpose: purchasePurpose, create_date: later },
    ]);
    expect(await pending(RESERVE)).toEqual([
      { ...common, transaction_type: 'debit', amount: '2500', fee: '0', purpose: purchasePurpose, create_date: later },
    ]);
  });

  it('given a purchase credited in one append, when committed, then Alice’s history shows a credit with its order and capture, and nothing stays pending', async () => {
    await aliceAndReserve();

    await log.commit(...purchaseOf2500());

    expect(await pending('alice')).toEqual([]);
    expect(await pending(RESERVE)).toEqual([]);
    expect(await balance('alice')).toEqual({ stable: '12500', unstable: '0' });
    expect(await history('alice')).toEqual({ transactions: [purchaseRow, fundingRow], total: 2, page: 0, limit: 10 });
    expect((await history(RESERVE)).transactions).toEqual([
      {
        transaction_hash: 'purchase-CAPTURE1',
        transaction_type: 'debit',
        from_address: 'addr-reserve',
        to_address: 'addr-alice',
        to_user: alice,
        amount: '2500',
        fee: '0',
        purpose: purchasePurpose,
        balance: '997500',
        transaction_date: later,
      },
    ]);
  });

  it('given a refund then a reversal of the purchase, when committed, then each is a debit of Alice’s with its kind and its refund or reversal id', async () => {
    await aliceAndReserve();
    await log.commit(...purchaseOf2500());
    const back = (transferId: string, reference: object, amountMlx: string, alicePosted: string, reservePosted: string) =>
      referencedTransfer(
        transferId,
        reference,
        {
          walletId: 'alice',
          address: 'addr-alice',
          reservedAfter: balanceAfter(String(Number(alicePosted) + Number(amountMlx)), amountMlx),
          settledAfter: balanceAfter(alicePosted),
        },
        { walletId: RESERVE, address: 'addr-reserve', settledAfter: balanceAfter(reservePosted) },
        amountMlx,
      );

    await log.commit(...back('purchase-refund-REFUND1', refund, '1000', '11500', '998500'));
    await log.commit(...back('purchase-reversal-REVERSAL1', reversal, '1500', '10000', '1000000'));

    const returned = { transaction_type: 'debit', from_address: 'addr-alice', to_address: 'addr-reserve', from_user: alice, fee: '0' };
    const refundPurpose = { kind: 'purchase_refund', order_id: 'ORDER1', capture_id: 'CAPTURE1', refund_id: 'REFUND1' };
    const reversalPurpose = { kind: 'purchase_reversal', order_id: 'ORDER1', capture_id: 'CAPTURE1', refund_id: 'REVERSAL1' };
    expect(await pending('alice')).toEqual([]);
    expect(await history('alice')).toEqual({
      transactions: [
        {
          ...returned,
          transaction_hash: 'purchase-reversal-REVERSAL1',
          amount: '1500',
          purpose: reversalPurpose,
          balance: '10000',
          transaction_date: later,
        },
        {
          ...returned,
          transaction_hash: 'purchase-refund-REFUND1',
          amount: '1000',
          purpose: refundPurpose,
          balance: '11500',
          transaction_date: later,
        },
        purchaseRow,
        fundingRow,
      ],
      total: 4,
      page: 0,
      limit: 10,
    });
    const reserveRows = (await history(RESERVE)).transactions;
    expect(reserveRows.map((row) => [row.transaction_type, row.amount, row.purpose?.kind, row.balance])).toEqual([
      ['credit', '1500', 'purchase_reversal', '1000000'],
      ['credit', '1000', 'purchase_refund', '998500'],
      ['debit', '2500', 'purchase', '997500'],
    ]);
    expect(reserveRows[0]).toMatchObject({ from_user: alice, purpose: reversalPurpose });
  });

  it('given a reference of a kind the ledger does not know, when committed, then the event is refused and no row appears', async () => {
    await aliceAndReserve();
    const [reserved, posted, credited] = purchaseOf2500();
    const forged = { ...credited, data: { ...credited.data, reference: { ...purchase, kind: 'gift' } } };

    await expect(log.commit(reserved, posted, forged)).resolves.toMatchObject({ kind: 'committed', position: posted.position });

    expect((await history('alice')).transactions).toEqual([fundingRow]);
    expect(await balance('alice')).toEqual({ stable: '10000', unstable: '0' });
  });
});

describe('wallet read models: what they ignore and refuse', () => {
  it('given events of other capabilities, when committed, then no wallet, address or balance appears, yet they count as applied', async () => {
    await log.apply('UserRegistered', {
      userId: 'carol',
      username: 'Carol',
      firstName: 'Carol',
      lastName: 'Test',
      email: 'carol@example.com',
      phone: '+15550102030',
      passwordHash: '$argon2id$hash',
      registeredAt: at,
    });
    await log.apply('WalletAddressAssigned', { walletId: 'carol', address: 'addr-carol' });

    expect(await balance('carol')).toBeNull();
    expect(await getWalletAddress(redis.redis, 'carol')).toBeNull();
    expect(await findWalletIdByAddress(redis.redis, 'addr-carol')).toBeNull();
    expect(await pending('carol')).toEqual([]);
    expect(await history('carol')).toEqual(emptyHistory);
    expect(await log.checkpoint()).toBe('2');
  });

  it('given a TransferReserved without balanceAfter, when committed, then it is refused: neither side sees anything and the checkpoint stays', async () => {
    await aliceAndBob();
    const checkpoint = await log.checkpoint();
    const { balanceAfter: _missing, ...withoutBalance } = reservation;

    await expect(log.commit(log.event('TransferReserved', withoutBalance))).rejects.toThrow(/no balanceAfter/);

    expect(await balance('alice')).toEqual({ stable: '10000', unstable: '0' });
    expect(await pending('alice')).toEqual([]);
    expect(await pending('bob')).toEqual([]);
    expect(await log.checkpoint()).toBe(checkpoint);
  });

  it('given a valid deposit then a TransferReserved with a negative amount in one batch, when committed, then only the deposit is readable and the checkpoint stops at it', async () => {
    await aliceAndBob();
    const deposit = log.event('DepositReceived', {
      walletId: 'bob',
      depositId: 'ff00:0',
      networkTransactionHash: 'ff00',
      fromAddress: 'addr-far',
      toAddress: 'addr-bob',
      amountMlx: '300',
      receivedAt: at,
      balanceAfter: balanceAfter('0', '0', '300'),
    });
    const broken = log.event('TransferReserved', { ...reservation, amountMlx: '-5' });

    const outcome = await log.commit(deposit, broken);

    expect(outcome).toMatchObject({ kind: 'committed', position: deposit.position, failure: { position: broken.position } });
    expect(outcome.kind === 'committed' ? outcome.failure : undefined).toBeInstanceOf(ProjectionApplyError);
    expect(outcome.kind === 'committed' ? outcome.failure?.message : '').toMatch(/does not have the shape of a wallet event/);
    expect(await balance('bob')).toEqual({ stable: '0', unstable: '300' });
    expect(await pending('bob')).toEqual([expect.objectContaining({ transaction_hash: 'ff00', amount: '300' })]);
    expect(await balance('alice')).toEqual({ stable: '10000', unstable: '0' });
    expect(await pending('alice')).toEqual([]);
    expect(await log.checkpoint()).toBe(deposit.position.toString());
  });

  it('given a history row due at a position above 2^53, when committed, then it is refused instead of losing its order, and the deposit stays pending', async () => {
    await aliceAndBob();
    await log.apply('DepositReceived', {
      walletId: 'alice',
      depositId: 'abc123:0',
      networkTransactionHash: 'abc123',
      fromAddress: 'addr-far',
      toAddress: 'addr-alice',
      amountMlx: '1',
      receivedAt: at,
      balanceAfter: balanceAfter('10000', '0', '1'),
    });
    const confirmed = { walletId: 'alice', depositId: 'abc123:0', amountMlx: '1', confirmedAt: later, balanceAfter: balanceAfter('10001') };

    await expect(log.commit(log.event('DepositConfirmed', confirmed, { position: 2n ** 53n }))).rejects.toThrow(/too large/);

    expect(await balance('alice')).toEqual({ stable: '10000', unstable: '1' });
    expect(await pending('alice')).toEqual([expect.objectContaining({ transaction_hash: 'abc123', amount: '1' })]);
    expect((await history('alice')).total).toBe(1);
  });
});

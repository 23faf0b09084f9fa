// Proves the wallets projection queues exactly the Redis writes each wallet event implies (balances from balanceAfter, pending on both sides, history rows), ignores other events, and refuses incomplete ones.
import type { RecordedEvent } from '@quern/core';
import type { ChainableCommander } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { walletsProjection } from './projection.js';

/** Records every command a projection queues, in place of a real MULTI. */
function recordingTx() {
  const calls: unknown[][] = [];
  const tx: ChainableCommander = new Proxy({} as ChainableCommander, {
    get:
      (_target, command: string) =>
      (...args: unknown[]) => {
        calls.push([command, ...args]);
        return tx;
      },
  });
  return { tx, calls };
}

function applied(type: string, data: Record<string, unknown>, position = 42n): unknown[][] {
  const { tx, calls } = recordingTx();
  walletsProjection.apply(recorded(type, data, position), tx);
  return calls;
}

const recorded = (type: string, data: Record<string, unknown>, position = 42n): RecordedEvent => ({
  id: 'event-1',
  streamId: `wallet-${String(data.walletId)}`,
  revision: 3n,
  position,
  type,
  data,
  metadata: {},
  recordedAt: '2026-01-01T00:00:00.000Z',
});

const at = '2026-01-02T03:04:05.000Z';
const balance = (postedMlx: string, heldMlx = '0', pendingCreditMlx = '0') => ({ postedMlx, heldMlx, pendingCreditMlx });
const reservation = {
  walletId: 'alice',
  transferId: 't1',
  fromAddress: 'addr-alice',
  toAddress: 'addr-bob',
  toWalletId: 'bob',
  amountMlx: '5000',
  feeMlx: '1000',
  reservedAt: at,
  balanceAfter: balance('10000', '6000'),
};
const json = (value: unknown) => JSON.stringify(value);

describe('walletsProjection: identity', () => {
  it('given WalletOpened, when applied, then the wallet hash is created field by field with HSETNX and the address indexed', () => {
    const calls = applied('WalletOpened', { walletId: 'alice', kind: 'user', address: 'addr-alice', ownerUserId: 'alice', openedAt: at });
    expect(calls).toEqual([
      ['hsetnx', 'rm:wallet:alice', 'wallet_id', 'alice'],
      ['hsetnx', 'rm:wallet:alice', 'kind', 'user'],
      ['hsetnx', 'rm:wallet:alice', 'address', 'addr-alice'],
      ['hsetnx', 'rm:wallet:alice', 'posted', '0'],
      ['hsetnx', 'rm:wallet:alice', 'held', '0'],
      ['hsetnx', 'rm:wallet:alice', 'pending_credit', '0'],
      ['hsetnx', 'rm:wallet:alice', 'owner_user_id', 'alice'],
      ['hsetnx', 'rm:wallet-id-by-address', 'addr-alice', 'alice'],
    ]);
  });

  it('given a system WalletOpened, when applied, then no owner field is written', () => {
    const calls = applied('WalletOpened', { walletId: 'system-fee', kind: 'fee', address: 'addr-fee', openedAt: at });
    expect(calls.some((call) => call[2] === 'owner_user_id')).toBe(false);
    expect(calls).toHaveLength(7);
  });

  it('given SupplyMinted, when applied, then genesis gets its balance and a credit row named by the event id', () => {
    const calls = applied('SupplyMinted', {
      walletId: 'system-genesis',
      amountMlx: '900',
      toAddress: 'addr-genesis',
      mintedAt: at,
      balanceAfter: balance('900'),
    });
    expect(calls).toEqual([
      ['hset', 'rm:wallet:system-genesis', { posted: '900', held: '0', pending_credit: '0' }],
      [
        'zadd',
        'rm:wallet:system-genesis:history',
        42,
        json({
          transaction_hash: 'event-1',
          transaction_type: 'credit',
          from_address: '',
          to_address: 'addr-genesis',
          amount: '900',
          balance: '900',
          transaction_date: at,
          to_wallet_id: 'system-genesis',
        }),
      ],
    ]);
  });
});

describe('walletsProjection: transfers', () => {
  it('given an internal TransferReserved, when applied, then the payer gets its balance and a pending debit, the payee a pending credit', () => {
    const common = { transaction_hash: 't1', from_address: 'addr-alice', to_address: 'addr-bob', amount: '5000' };
    expect(applied('TransferReserved', reservation)).toEqual([
      ['hset', 'rm:wallet:alice', { posted: '10000', held: '6000', pending_credit: '0' }],
      [
        'hset',
        'rm:wallet:alice:pending',
        't1',
        json({
          ...common,
          transaction_type: 'debit',
          fee: '1000',
          create_date: at,
          from_wallet_id: 'alice',
          to_wallet_id: 'bob',
          position: '42',
        }),
      ],
      [
        'hset',
        'rm:wallet:bob:pending',
        't1',
        json({ ...common, transaction_type: 'credit', create_date: at, from_wallet_id: 'alice', to_wallet_id: 'bob', position: '42' }),
      ],
    ]);
  });

  it('given an external TransferReserved, when applied, then only the payer has a pending item, without a payee wallet', () => {
    const { toWalletId: _payee, ...external } = reservation;
    const calls = applied('TransferReserved', external);
    expect(calls.map((call) => call.slice(0, 2))).toEqual([
      ['hset', 'rm:wallet:alice'],
      ['hset', 'rm:wallet:alice:pending'],
    ]);
    expect(JSON.parse(String(calls[1]?.[3]))).not.toHaveProperty('to_wallet_id');
  });

  it('given TransferCredited, when applied, then the payee pending credit becomes a history credit with the posted balance after it', () => {
    const calls = applied(
      'TransferCredited',
      {
        walletId: 'bob',
        transferId: 't1',
        fromWalletId: 'alice',
        fromAddress: 'addr-alice',
        toAddress: 'addr-bob',
        amountMlx: '5000',
        creditedAt: at,
        balanceAfter: balance('7000', '2000'),
      },
      43n,
    );
    expect(calls).toEqual([
      ['hset', 'rm:wallet:bob', { posted: '7000', held: '2000', pending_credit: '0' }],
      ['hdel', 'rm:wallet:bob:pending', 't1'],
      [
        'zadd',
        'rm:wallet:bob:history',
        43,
        json({
          transaction_hash: 't1',
          transaction_type: 'credit',
          from_address: 'addr-alice',
          to_address: 'addr-bob',
          amount: '5000',
          balance: '7000',
          transaction_date: at,
          from_wallet_id: 'alice',
          to_wallet_id: 'bob',
        }),
      ],
    ]);
  });

  it('given TransferPosted, when applied, then the payer pending debit becomes a history debit with amount, fee and balance', () => {
    const posted = {
      walletId: 'alice',
      transferId: 't1',
      fromAddress: 'addr-alice',
      toAddress: 'addr-bob',
      toWalletId: 'bob',
      amountMlx: '5000',
      feeMlx: '1000',
      postedAt: at,
      balanceAfter: balance('4000'),
    };
    expect(applied('TransferPosted', posted, 44n)).toEqual([
      ['hset', 'rm:wallet:alice', { posted: '4000', held: '0', pending_credit: '0' }],
      ['hdel', 'rm:wallet:alice:pending', 't1'],
      [
        'zadd',
        'rm:wallet:alice:history',
        44,
        json({
          transaction_hash: 't1',
          transaction_type: 'debit',
          from_address: 'addr-alice',
          to_address: 'addr-bob',
          amount: '5000',
          fee: '1000',
          balance: '4000',
          transaction_date: at,
          from_wallet_id: 'alice',
          to_wallet_id: 'bob',
        }),
      ],
    ]);
  });

  it('given an external TransferPosted (recorded before fromAddress existed), when applied, then the row is named by the millix hash', () => {
    const {
      fromAddress: _from,
      toWalletId: _to,
      ...old
    } = {
      walletId: 'alice',
      transferId: 't1',
      fromAddress: 'addr-alice',
      toAddress: 'addr-far',
      toWalletId: 'x',
      amountMlx: '5000',
      feeMlx: '1000',
      networkTransactionHash: 'abc123',
      postedAt: at,
      balanceAfter: balance('4000'),
    };
    const row = JSON.parse(String(applied('TransferPosted', old)[2]?.[3]));
    expect(row).toMatchObject({ transaction_hash: 'abc123', from_address: '', to_address: 'addr-far', from_wallet_id: 'alice' });
    expect(row).not.toHaveProperty('to_wallet_id');
  });

  it('given TransferVoided naming the payee, when applied, then both pending items go; without a payee only the payer one', () => {
    const voided = {
      walletId: 'alice',
      transferId: 't1',
      toWalletId: 'bob',
      amountMlx: '5000',
      feeMlx: '1000',
      reason: 'recipientCannotReceive',
      voidedAt: at,
      balanceAfter: balance('10000'),
    };
    expect(applied('TransferVoided', voided)).toEqual([
      ['hset', 'rm:wallet:alice', { posted: '10000', held: '0', pending_credit: '0' }],
      ['hdel', 'rm:wallet:alice:pending', 't1'],
      ['hdel', 'rm:wallet:bob:pending', 't1'],
    ]);
    const { toWalletId: _payee, ...external } = voided;
    expect(applied('TransferVoided', external).map((call) => call.slice(0, 2))).toEqual([
      ['hset', 'rm:wallet:alice'],
      ['hdel', 'rm:wallet:alice:pending'],
    ]);
  });
});

describe('walletsProjection: deposits', () => {
  const received = {
    walletId: 'alice',
    depositId: 'abc123:0',
    networkTransactionHash: 'abc123',
    fromAddress: 'addr-far',
    toAddress: 'addr-alice',
    amountMlx: '7000',
    receivedAt: at,
    balanceAfter: balance('0', '0', '7000'),
  };

  it('given DepositReceived, when applied, then the pending credit is stored under the deposit id and counted as pending_credit', () => {
    expect(applied('DepositReceived', received)).toEqual([
      ['hset', 'rm:wallet:alice', { posted: '0', held: '0', pending_credit: '7000' }],
      [
        'hset',
        'rm:wallet:alice:pending',
        'abc123:0',
        json({
          transaction_hash: 'abc123',
          transaction_type: 'credit',
          from_address: 'addr-far',
          to_address: 'addr-alice',
          amount: '7000',
          create_date: at,
          to_wallet_id: 'alice',
          position: '42',
        }),
      ],
    ]);
  });

  it('given DepositConfirmed, when applied, then the pending credit becomes a history credit named by the millix hash', () => {
    const confirmed = {
      walletId: 'alice',
      depositId: 'abc123:0',
      networkTransactionHash: 'abc123',
      fromAddress: 'addr-far',
      toAddress: 'addr-alice',
      amountMlx: '7000',
      confirmedAt: at,
      balanceAfter: balance('7000'),
    };
    expect(applied('DepositConfirmed', confirmed, 50n)).toEqual([
      ['hset', 'rm:wallet:alice', { posted: '7000', held: '0', pending_credit: '0' }],
      ['hdel', 'rm:wallet:alice:pending', 'abc123:0'],
      [
        'zadd',
        'rm:wallet:alice:history',
        50,
        json({
          transaction_hash: 'abc123',
          transaction_type: 'credit',
          from_address: 'addr-far',
          to_address: 'addr-alice',
          amount: '7000',
          balance: '7000',
          transaction_date: at,
          to_wallet_id: 'alice',
        }),
      ],
    ]);
  });

  it('given a DepositConfirmed recorded before the hash was repeated, when applied, then the hash comes from the deposit id', () => {
    const old = { walletId: 'alice', depositId: 'abc123:0', amountMlx: '7000', confirmedAt: at, balanceAfter: balance('7000') };
    expect(JSON.parse(String(applied('DepositConfirmed', old)[2]?.[3]))).toMatchObject({
      transaction_hash: 'abc123',
      from_address: '',
      to_address: '',
    });
  });

  it('given DepositRejected, when applied, then the pending credit goes and nothing enters the history', () => {
    const rejected = {
      walletId: 'alice',
      depositId: 'abc123:0',
      amountMlx: '7000',
      reason: 'networkInvalidated',
      rejectedAt: at,
      balanceAfter: balance('0'),
    };
    expect(applied('DepositRejected', rejected)).toEqual([
      ['hset', 'rm:wallet:alice', { posted: '0', held: '0', pending_credit: '0' }],
      ['hdel', 'rm:wallet:alice:pending', 'abc123:0'],
    ]);
  });
});

describe('walletsProjection: what it ignores and refuses', () => {
  it('given events of other capabilities, when applied, then nothing is written', () => {
    expect(applied('UserRegistered', { userId: 'u1' })).toEqual([]);
    expect(applied('WalletAddressAssigned', { address: 'addr-alice', walletId: 'alice' })).toEqual([]);
  });

  it('given a balance-changing event without balanceAfter, when applied, then it throws before writing anything', () => {
    const { balanceAfter: _b, ...withoutBalance } = reservation;
    const { tx, calls } = recordingTx();
    expect(() => walletsProjection.apply(recorded('TransferReserved', withoutBalance), tx)).toThrow(/no balanceAfter/);
    expect(calls).toEqual([]);
  });

  it('given a wallet event that does not parse, when applied, then it throws and writes nothing', () => {
    const { tx, calls } = recordingTx();
    expect(() => walletsProjection.apply(recorded('TransferReserved', { ...reservation, amountMlx: '-5' }), tx)).toThrow(
      /does not have the shape/,
    );
    expect(calls).toEqual([]);
  });

  it('given a position above 2^53, when a history row is due, then it throws instead of losing the order', () => {
    const confirmed = { walletId: 'alice', depositId: 'abc123:0', amountMlx: '1', confirmedAt: at, balanceAfter: balance('1') };
    expect(() => applied('DepositConfirmed', confirmed, 2n ** 53n)).toThrow(/too large/);
  });
});

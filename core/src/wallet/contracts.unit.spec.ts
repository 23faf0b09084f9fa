// Proves the shared wallet schemas: the send form's recipient, amount and fee rules, the transaction outputs and the page query.
import { describe, expect, it } from 'vitest';
import {
  completedTransactionOutput,
  pendingTransactionOutput,
  transactionsPageOutput,
  transactionsPageQuery,
} from '../history/contracts.js';
import { classifyRecipient, sendInput, toBalanceOutput } from './contracts.js';
import { NOW, testAddress } from '../../test/wallet-fixtures.js';
import { foldWallet } from '../../test/wallet-rules.js';

const address = testAddress(1);
const messages = (result: { success: boolean; error?: { issues: Array<{ message: string; path: PropertyKey[] }> } }) =>
  result.error?.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`) ?? [];

describe('classifyRecipient', () => {
  it('given an address, a username or an e-mail, when classified, then each is recognised and normalized', () => {
    expect(classifyRecipient(`  ${address} `)).toEqual({ ok: true, recipient: { kind: 'address', address } });
    expect(classifyRecipient('Alice_01')).toEqual({ ok: true, recipient: { kind: 'username', username: 'alice_01' } });
    expect(classifyRecipient(' Alice@Example.COM ')).toEqual({ ok: true, recipient: { kind: 'email', email: 'alice@example.com' } });
  });

  it('given text that is none of them, when classified, then the message says what was wrong', () => {
    expect(classifyRecipient('')).toEqual({ ok: false, messageKey: 'errors:allFieldsRequired' });
    expect(classifyRecipient('alice@')).toEqual({ ok: false, messageKey: 'errors:invalidEmail' });
    expect(classifyRecipient(`${address.slice(0, -1)}x`)).toEqual({ ok: false, messageKey: 'errors:invalidAddress' });
    expect(classifyRecipient('al')).toEqual({ ok: false, messageKey: 'errors:invalidRecipient' });
    expect(classifyRecipient('bob smith')).toEqual({ ok: false, messageKey: 'errors:invalidRecipient' });
    expect(classifyRecipient('a'.repeat(300))).toEqual({ ok: false, messageKey: 'errors:invalidRecipient' });
  });
});

describe('sendInput', () => {
  it('given the form as typed, when parsed, then separators are stripped and amounts become bigint', () => {
    expect(sendInput.parse({ to: address, amount: '1,250,000', fee: '1000' })).toEqual({
      to: { kind: 'address', address },
      amount: 1_250_000n,
      fee: 1000n,
    });
    expect(sendInput.parse({ to: 'bob', amount: '1.000', fee: '1000' })).toEqual({
      to: { kind: 'username', username: 'bob' },
      amount: 1000n,
      fee: 1000n,
    });
  });

  it('given amounts as JSON numbers, when parsed, then they are refused (1.000 and 1e3 would be guessed)', () => {
    for (const amount of [5000, 1, 1e3, -1, 0.5])
      expect(messages(sendInput.safeParse({ to: 'bob', amount, fee: '1000' }))).toEqual(['amount:errors:invalidAmount']);
    expect(messages(sendInput.safeParse({ to: 'bob', amount: '5000', fee: 1000 }))).toEqual(['fee:errors:invalidFee']);
  });

  it('given a fee other than 1000, when parsed, then invalidFee on the fee field', () => {
    for (const fee of ['999', '0', '1001', 'abc', undefined])
      expect(messages(sendInput.safeParse({ to: 'bob', amount: '1', fee }))).toEqual(['fee:errors:invalidFee']);
  });

  it('given bad amounts, when parsed, then the amount field carries the reason', () => {
    expect(messages(sendInput.safeParse({ to: 'bob', amount: '1.5', fee: '1000' }))).toEqual(['amount:errors:invalidAmount']);
    expect(messages(sendInput.safeParse({ to: 'bob', amount: '0', fee: '1000' }))).toEqual(['amount:errors:invalidAmount']);
    for (const amount of ['-1', '0.5', '1e3', '1 000 0', '1,000.000', [], {}, 'x'.repeat(1_000_000)])
      expect(messages(sendInput.safeParse({ to: 'bob', amount, fee: '1000' }))).toEqual(['amount:errors:invalidAmount']);
    expect(messages(sendInput.safeParse({ to: 'bob', amount: '9000000000000001', fee: '1000' }))).toEqual(['amount:errors:amountTooLarge']);
    expect(messages(sendInput.safeParse({ to: 'bob', fee: '1000' }))).toEqual(['amount:errors:invalidAmount']);
  });

  it('given a bad recipient, when parsed, then the to field carries the reason', () => {
    expect(messages(sendInput.safeParse({ to: 'x y', amount: '1', fee: '1000' }))).toEqual(['to:errors:invalidRecipient']);
    expect(messages(sendInput.safeParse({ amount: '1', fee: '1000' }))).toEqual(['to:errors:allFieldsRequired']);
  });
});

describe('transaction outputs', () => {
  const item = {
    transaction_hash: 'abc',
    transaction_type: 'debit',
    from_address: address,
    to_address: testAddress(2),
    to_user: { username: 'bob' },
    amount: '5000',
    fee: '1000',
  };

  it('given a completed and a pending item, when validated, then each has its own date and only the completed one a balance', () => {
    expect(completedTransactionOutput.safeParse({ ...item, balance: '4000', transaction_date: NOW.toISOString() }).success).toBe(true);
    expect(pendingTransactionOutput.safeParse({ ...item, create_date: NOW.toISOString() }).success).toBe(true);
    expect(completedTransactionOutput.safeParse({ ...item, create_date: NOW.toISOString() }).success).toBe(false);
    expect(completedTransactionOutput.safeParse({ ...item, balance: '4,000', transaction_date: NOW.toISOString() }).success).toBe(false);
    expect(
      completedTransactionOutput.safeParse({ ...item, transaction_type: 'refund', balance: '1', transaction_date: NOW.toISOString() })
        .success,
    ).toBe(false);
  });

  it('given a page, when validated, then it holds at most one page of items', () => {
    const row = { ...item, balance: '4000', transaction_date: NOW.toISOString() };
    expect(transactionsPageOutput.safeParse({ transactions: [row], total: 1, page: 0, limit: 10 }).success).toBe(true);
    expect(transactionsPageOutput.safeParse({ transactions: Array(11).fill(row), total: 11, page: 0, limit: 10 }).success).toBe(false);
  });

  it('given page query strings, when parsed, then pages are 0-based integers within the bound', () => {
    expect(transactionsPageQuery.parse({})).toEqual({ page: 0 });
    expect(transactionsPageQuery.parse({ page: '3' })).toEqual({ page: 3 });
    expect(transactionsPageQuery.parse({ page: 7 })).toEqual({ page: 7 });
    for (const page of ['-1', '1.5', 'abc', '99999999999', '', ' 1', '1e3', true, null, [], {}, 1.5, -1, 10_000_001])
      expect(transactionsPageQuery.safeParse({ page }).success).toBe(false);
    expect(transactionsPageQuery.safeParse({ page: '1', extra: '1' }).success).toBe(false);
  });

  it('given a wallet state, when turned into the balance output, then stable is spendable and unstable is pending deposits', () => {
    const state = foldWallet([
      { type: 'WalletOpened', data: { walletId: 'w', kind: 'user', address, ownerUserId: 'u', openedAt: NOW.toISOString() } },
      {
        type: 'DepositReceived',
        data: {
          walletId: 'w',
          depositId: 'd:0',
          networkTransactionHash: 'd',
          fromAddress: testAddress(3),
          toAddress: address,
          amountMlx: '700',
          receivedAt: NOW.toISOString(),
        },
      },
    ]);
    expect(toBalanceOutput(state)).toEqual({ stable: '0', unstable: '700' });
  });
});

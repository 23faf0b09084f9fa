// Proves Quern's reading of the millix node protocol: the send payload splits the address as
// millix does, a transaction's extended record maps to the port's statuses, and the webhook
// accepts the node's notification and refuses anything else.
import { createAddress, SEND_FEE_MLX } from '@quern/core/wallet';
import { describe, expect, it } from 'vitest';
import { cHash288 } from './chash.js';
import { type ExtendedTransaction, incomingOfExtended, parseNodeNotification, sendPayload, statusOfExtended } from './node-protocol.js';

const key = new Uint8Array(20).fill(7);
const address = createAddress(key, 'mainnet');
const id = cHash288('a transaction');

const transaction = (overrides: Partial<ExtendedTransaction> = {}): ExtendedTransaction => ({
  transaction_id: id,
  shard_id: 'qGuUgMMVmaCvqrvoWG6zARjkrujGMpzJmpNhBgz1y3RjBG7ZR',
  transaction_date: 1_775_000_000,
  is_stable: false,
  status: 1,
  transaction_input_list: [{ address: 'payer-address', address_key_identifier: 'payer' }],
  transaction_output_list: [
    { output_position: -1, address: 'proxy-address', amount: 1000, is_double_spend: false },
    { output_position: 0, address, amount: 1500, is_double_spend: false },
    { output_position: 1, address: 'change-address', amount: 10, is_double_spend: false },
  ],
  ...overrides,
});

describe('sendPayload', () => {
  it('splits the address into base, version and key identifier and sends amounts as numbers', () => {
    const [base, keyIdentifier] = address.split('0a0');
    expect(sendPayload(address, 40_000n, SEND_FEE_MLX)).toEqual({
      transaction_output_list: [{ address_base: base, address_version: '0a0', address_key_identifier: keyIdentifier, amount: 40_000 }],
      transaction_output_fee: { fee_type: 'transaction_fee_default', amount: 1000 },
    });
  });

  it('refuses an invalid address', () => {
    expect(() => sendPayload('nope', 1n, SEND_FEE_MLX)).toThrow(TypeError);
  });
});

describe('statusOfExtended', () => {
  it('is pending until stable, and rejected when invalid or double spent', () => {
    expect(statusOfExtended(transaction())).toBe('pending');
    expect(statusOfExtended(transaction({ is_stable: true }))).toBe('stable');
    expect(statusOfExtended(transaction({ is_stable: true, status: 3 }))).toBe('rejected');
    const doubleSpent = transaction().transaction_output_list.map((output) => ({ ...output, is_double_spend: true }));
    expect(statusOfExtended(transaction({ transaction_output_list: doubleSpent }))).toBe('rejected');
  });
});

describe('incomingOfExtended', () => {
  it('lists every output, the fee output at its negative position included, with the first input as payer', () => {
    expect(incomingOfExtended(transaction())).toEqual([
      {
        transactionHash: id,
        outputPosition: -1,
        toAddress: 'proxy-address',
        fromAddress: 'payer-address',
        amountMlx: 1000n,
        observedAt: '2026-03-31T23:33:20.000Z',
      },
      {
        transactionHash: id,
        outputPosition: 0,
        toAddress: address,
        fromAddress: 'payer-address',
        amountMlx: 1500n,
        observedAt: '2026-03-31T23:33:20.000Z',
      },
      {
        transactionHash: id,
        outputPosition: 1,
        toAddress: 'change-address',
        fromAddress: 'payer-address',
        amountMlx: 10n,
        observedAt: '2026-03-31T23:33:20.000Z',
      },
    ]);
  });
});

describe('parseNodeNotification', () => {
  it('reads the node’s GET ?p0=<transaction_id>&p1=<status> from a query object or URLSearchParams', () => {
    expect(parseNodeNotification({ p0: id, p1: 'transaction_new' })).toEqual({ transactionId: id, status: 'transaction_new' });
    expect(parseNodeNotification(new URLSearchParams({ p0: id, p1: 'transaction_new' }))).toEqual({
      transactionId: id,
      status: 'transaction_new',
    });
  });

  it('returns an Error, never throws, for anything else', () => {
    for (const input of [
      undefined,
      null,
      'p0=x',
      {},
      { p0: id },
      { p0: 'not-an-id', p1: 'transaction_new' },
      { p0: [id], p1: 'transaction_new' },
      { p0: id, p1: 'DROP TABLE' },
      { p0: id, p1: 'x'.repeat(65) },
    ]) {
      expect(parseNodeNotification(input)).toBeInstanceOf(Error);
    }
  });
});

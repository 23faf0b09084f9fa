// Proves the millix-network port's shared checks: which send requests every adapter refuses and
// with which error code, which codes are retryable, and the deposit id an incoming output gets.
import { describe, expect, it } from 'vitest';
import { DEPOSIT_ID_PATTERN } from './events.js';
import { MLX_TOTAL_SUPPLY, SEND_FEE_MLX } from './money.js';
import {
  assertIncomingLimit,
  assertValidSendRequest,
  depositIdOf,
  INCOMING_PAGE_SIZE_MAX,
  isMillixNetworkError,
  MillixNetworkError,
  type MillixNetworkErrorCode,
  type MillixSendRequest,
} from './network.js';
import { testAddress } from '../../test/wallet-fixtures.js';

const valid: MillixSendRequest = {
  transferId: 'transfer-1',
  fromAddress: testAddress(1),
  toAddress: testAddress(2),
  amountMlx: 5000n,
  feeMlx: SEND_FEE_MLX,
};

function codeOf(request: MillixSendRequest): MillixNetworkErrorCode | 'accepted' {
  try {
    assertValidSendRequest(request);
    return 'accepted';
  } catch (error) {
    if (!isMillixNetworkError(error)) throw error;
    return error.code;
  }
}

describe('assertValidSendRequest', () => {
  it('accepts a well-formed request, on either network', () => {
    expect(codeOf(valid)).toBe('accepted');
    expect(codeOf({ ...valid, fromAddress: testAddress(1, 'testnet'), toAddress: testAddress(2, 'testnet') })).toBe('accepted');
    expect(codeOf({ ...valid, amountMlx: MLX_TOTAL_SUPPLY })).toBe('accepted');
  });

  it('refuses an invalid payee or payer address with invalidAddress', () => {
    const address = testAddress(2);
    expect(codeOf({ ...valid, toAddress: `${address.slice(0, -1)}${address.endsWith('a') ? 'b' : 'a'}` })).toBe('invalidAddress');
    expect(codeOf({ ...valid, toAddress: '' })).toBe('invalidAddress');
    expect(codeOf({ ...valid, toAddress: ` ${address}` })).toBe('invalidAddress');
    expect(codeOf({ ...valid, fromAddress: 'not an address' })).toBe('invalidAddress');
  });

  it('refuses amounts, fees and transfer ids no network would take with rejected', () => {
    expect(codeOf({ ...valid, amountMlx: 0n })).toBe('rejected');
    expect(codeOf({ ...valid, amountMlx: -1n })).toBe('rejected');
    expect(codeOf({ ...valid, amountMlx: MLX_TOTAL_SUPPLY + 1n })).toBe('rejected');
    expect(codeOf({ ...valid, amountMlx: 5000 as unknown as bigint })).toBe('rejected');
    expect(codeOf({ ...valid, feeMlx: SEND_FEE_MLX - 1n })).toBe('rejected');
    expect(codeOf({ ...valid, transferId: '' })).toBe('rejected');
    expect(codeOf({ ...valid, transferId: 'has space' })).toBe('rejected');
    expect(codeOf({ ...valid, transferId: 'x'.repeat(129) })).toBe('rejected');
  });
});

describe('MillixNetworkError', () => {
  it('is retryable only when the network was unavailable', () => {
    expect(new MillixNetworkError('unavailable', 'down').retryable).toBe(true);
    expect(new MillixNetworkError('rejected', 'no').retryable).toBe(false);
    expect(new MillixNetworkError('invalidAddress', 'bad').retryable).toBe(false);
  });

  it('keeps its cause and is recognised by the guard, unlike a plain Error', () => {
    const cause = new Error('socket hang up');
    const error = new MillixNetworkError('unavailable', 'node unreachable', { cause });
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('MillixNetworkError');
    expect(isMillixNetworkError(error)).toBe(true);
    expect(isMillixNetworkError(new Error('unavailable'))).toBe(false);
  });
});

describe('depositIdOf', () => {
  it('joins hash and output position into an id the wallet events accept', () => {
    const id = depositIdOf({ transactionHash: '2qHnhmBDDt6diYqcTG4FnM9bNkQvbUeGU2gXey5QSNpMN3Rk2T', outputPosition: 3 });
    expect(id).toBe('2qHnhmBDDt6diYqcTG4FnM9bNkQvbUeGU2gXey5QSNpMN3Rk2T:3');
    expect(DEPOSIT_ID_PATTERN.test(id)).toBe(true);
    const feeOutput = depositIdOf({ transactionHash: '2qHnhmBDDt6diYqcTG4FnM9bNkQvbUeGU2gXey5QSNpMN3Rk2T', outputPosition: -1 });
    expect(feeOutput).toBe('2qHnhmBDDt6diYqcTG4FnM9bNkQvbUeGU2gXey5QSNpMN3Rk2T:-1');
    expect(DEPOSIT_ID_PATTERN.test(feeOutput)).toBe(true);
  });
});

describe('assertIncomingLimit', () => {
  it('accepts 1..INCOMING_PAGE_SIZE_MAX and refuses everything else', () => {
    expect(() => assertIncomingLimit(1)).not.toThrow();
    expect(() => assertIncomingLimit(INCOMING_PAGE_SIZE_MAX)).not.toThrow();
    for (const limit of [0, -1, 1.5, INCOMING_PAGE_SIZE_MAX + 1, Number.NaN]) {
      expect(() => assertIncomingLimit(limit)).toThrow(RangeError);
    }
  });
});

// Proves the recorded-event reader accepts events written before the display fields (addresses, hashes, payee) were added, and refuses malformed ones.
import { describe, expect, it } from 'vitest';
import { toWalletEvent } from './events.js';
import { testAddress } from '../../test/wallet-fixtures.js';

const at = '2026-01-01T00:00:00.000Z';
const balanceAfter = { postedMlx: '7000', heldMlx: '0', pendingCreditMlx: '0' };

describe('toWalletEvent', () => {
  it('given settlement events without the display fields, when read, then they are accepted as recorded', () => {
    const old = [
      { type: 'SupplyMinted', data: { walletId: 'system-genesis', amountMlx: '1', mintedAt: at } },
      {
        type: 'TransferPosted',
        data: { walletId: 'w', transferId: 't', toAddress: testAddress(2), amountMlx: '1', feeMlx: '1000', postedAt: at },
      },
      { type: 'TransferVoided', data: { walletId: 'w', transferId: 't', amountMlx: '1', feeMlx: '1000', reason: 'expired', voidedAt: at } },
      { type: 'DepositConfirmed', data: { walletId: 'w', depositId: 'h:0', amountMlx: '7000', confirmedAt: at } },
    ];
    for (const recorded of old) expect(toWalletEvent(recorded)).toEqual(recorded);
  });

  it('given a DepositConfirmed with its hash and addresses, when read, then they are kept', () => {
    const data = {
      walletId: 'w',
      depositId: 'h:0',
      networkTransactionHash: 'h',
      fromAddress: testAddress(3),
      toAddress: testAddress(1),
      amountMlx: '7000',
      confirmedAt: at,
      balanceAfter,
    };
    expect(toWalletEvent({ type: 'DepositConfirmed', data })).toEqual({ type: 'DepositConfirmed', data });
  });

  it('given a display field of the wrong type or empty, when read, then the event is refused', () => {
    const voided = { walletId: 'w', transferId: 't', amountMlx: '1', feeMlx: '1000', reason: 'expired', voidedAt: at };
    expect(toWalletEvent({ type: 'TransferVoided', data: { ...voided, toWalletId: 42 } })).toBeUndefined();
    expect(
      toWalletEvent({ type: 'TransferPosted', data: { ...voided, toAddress: testAddress(2), postedAt: at, fromAddress: '' } }),
    ).toBeUndefined();
    expect(toWalletEvent({ type: 'NotAWalletEvent', data: {} })).toBeUndefined();
  });
});

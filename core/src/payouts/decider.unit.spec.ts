// Proves the payout decision: PayoutRequested names the merchant, the recipient as typed and as
// resolved, the amount and the send's fee, and its transfer; the transfer carries the amount with
// the fee of a send and the payout's reference; a Quern payee is named on both, an external one on
// neither. And the payout's state is the request that opened its stream.
import { describe, expect, it } from 'vitest';
import type { RequestPayout } from './commands.js';
import { decidePayout } from './decider.js';
import { evolvePayout, initialPayoutState } from './state.js';

const PAYOUT = `po_${'a'.repeat(32)}`;
const NOW = new Date('2026-11-24T12:00:00.000Z');

const command = (over: Partial<RequestPayout['data']> = {}): RequestPayout => ({
  type: 'RequestPayout',
  data: {
    payoutId: PAYOUT,
    merchantUserId: 'merchant',
    to: 'bob',
    toAddress: 'addr-bob',
    toWalletId: 'bob-wallet',
    amountMlx: 25_000n,
    ...over,
  },
});

describe('payout decision', () => {
  it('to a Quern wallet: the request and its transfer name the payee', () => {
    expect(decidePayout(command(), NOW)).toEqual({
      requested: {
        type: 'PayoutRequested',
        data: {
          payoutId: PAYOUT,
          merchantUserId: 'merchant',
          to: 'bob',
          toAddress: 'addr-bob',
          toWalletId: 'bob-wallet',
          mlx: '25000',
          feeMlx: '1000',
          transferId: `payout-${PAYOUT}`,
          requestedAt: NOW.toISOString(),
        },
      },
      transfer: {
        type: 'ReserveTransfer',
        data: {
          transferId: `payout-${PAYOUT}`,
          toAddress: 'addr-bob',
          toWalletId: 'bob-wallet',
          amountMlx: 25_000n,
          feeMlx: 1000n,
          reference: { kind: 'payout', payoutId: PAYOUT },
        },
      },
    });
  });

  it('to an external address: no payee wallet on either', () => {
    const { requested, transfer } = decidePayout(command({ to: 'addr-ext', toAddress: 'addr-ext', toWalletId: undefined }), NOW);
    expect('toWalletId' in requested.data).toBe(false);
    expect('toWalletId' in transfer.data).toBe(false);
  });

  it('the state is the request that opened the stream', () => {
    const { requested } = decidePayout(command(), NOW);
    expect(evolvePayout(initialPayoutState(), requested)).toEqual(requested.data);
  });
});

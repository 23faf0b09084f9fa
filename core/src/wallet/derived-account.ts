/**
 * The two accounts with no stream of their own, the fee account and the network account's derived
 * part (ADR 017): what a settled event adds to each. Projections that show those balances and the
 * ledger audit both use this, so they agree by construction.
 */
import type { WalletEvent } from './events.js';
import { mlxFromWire } from './money.js';

export function derivedAccountDelta(event: WalletEvent): { feeMlx: bigint; networkMlx: bigint } {
  if (event.type === 'TransferPosted') {
    const networkMlx = event.data.toWalletId === undefined ? mlxFromWire(event.data.amountMlx) : 0n;
    return { feeMlx: mlxFromWire(event.data.feeMlx), networkMlx };
  }
  if (event.type === 'DepositConfirmed') return { feeMlx: 0n, networkMlx: -mlxFromWire(event.data.amountMlx) };
  return { feeMlx: 0n, networkMlx: 0n };
}

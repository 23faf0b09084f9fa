/**
 * The one balance reducer: how each wallet event moves a wallet's posted balance, its holds and
 * its pending credits. The fold (state.ts, evolve) and the decider's `balanceAfter` stamps
 * (balance-after.ts) both use it, so the balance a read model shows and the balance a decision is
 * made on cannot drift apart.
 */
import { assertNever } from '../shared/assert.js';
import type { WalletEvent } from './events.js';
import { mlxFromWire } from './money.js';

export interface WalletBalance {
  postedMlx: bigint;
  heldMlx: bigint;
  pendingCreditMlx: bigint;
}

/**
 * The balance after `event`. `releasedMlx` is what a settling event (post, void, deposit
 * confirmation or rejection) takes off the holds or the pending credits: the fold passes what the
 * open reservation or deposit actually holds (zero when it is not open, e.g. a repeated post in a
 * corrupted log); left out, it is the event's own amount, which is what a sound log records.
 */
export function nextBalance(balance: WalletBalance, event: WalletEvent, releasedMlx?: bigint): WalletBalance {
  const { postedMlx, heldMlx, pendingCreditMlx } = balance;
  switch (event.type) {
    case 'WalletOpened':
    case 'WalletClosed':
      return balance;
    case 'SupplyMinted':
    case 'TransferCredited':
      return { postedMlx: postedMlx + mlxFromWire(event.data.amountMlx), heldMlx, pendingCreditMlx };
    case 'TransferReserved':
      return { postedMlx, heldMlx: heldMlx + mlxFromWire(event.data.amountMlx) + mlxFromWire(event.data.feeMlx), pendingCreditMlx };
    case 'TransferPosted': {
      // The debit is the fact the event states; the hold released is the one reserved.
      const debitMlx = mlxFromWire(event.data.amountMlx) + mlxFromWire(event.data.feeMlx);
      return { postedMlx: postedMlx - debitMlx, heldMlx: heldMlx - (releasedMlx ?? debitMlx), pendingCreditMlx };
    }
    case 'TransferVoided': {
      const holdMlx = mlxFromWire(event.data.amountMlx) + mlxFromWire(event.data.feeMlx);
      return { postedMlx, heldMlx: heldMlx - (releasedMlx ?? holdMlx), pendingCreditMlx };
    }
    case 'DepositReceived':
      return { postedMlx, heldMlx, pendingCreditMlx: pendingCreditMlx + mlxFromWire(event.data.amountMlx) };
    case 'DepositConfirmed': {
      // As with TransferPosted: the credit is the fact the event states; the pending part released is the one received.
      const amountMlx = mlxFromWire(event.data.amountMlx);
      return { postedMlx: postedMlx + amountMlx, heldMlx, pendingCreditMlx: pendingCreditMlx - (releasedMlx ?? amountMlx) };
    }
    case 'DepositRejected':
      return { postedMlx, heldMlx, pendingCreditMlx: pendingCreditMlx - (releasedMlx ?? mlxFromWire(event.data.amountMlx)) };
    default:
      return assertNever(event);
  }
}

/**
 * Stamps each decided event with the wallet's balance right after it. The arithmetic mirrors
 * evolve (state.ts); a unit test folds random decisions and checks the two never disagree.
 */
import { assertNever } from '../shared/assert.js';
import type { BalanceSnapshot, WalletEvent } from './events.js';
import { mlxFromWire, mlxToWire } from './money.js';
import type { WalletState } from './state.js';

interface Balance {
  posted: bigint;
  held: bigint;
  pendingCredit: bigint;
}

function next(balance: Balance, event: WalletEvent): Balance {
  const { posted, held, pendingCredit } = balance;
  switch (event.type) {
    case 'WalletOpened':
      return balance;
    case 'SupplyMinted':
      return { posted: posted + mlxFromWire(event.data.amountMlx), held, pendingCredit };
    case 'TransferReserved':
      return { posted, held: held + mlxFromWire(event.data.amountMlx) + mlxFromWire(event.data.feeMlx), pendingCredit };
    case 'TransferCredited':
      return { posted: posted + mlxFromWire(event.data.amountMlx), held, pendingCredit };
    case 'TransferPosted': {
      const total = mlxFromWire(event.data.amountMlx) + mlxFromWire(event.data.feeMlx);
      return { posted: posted - total, held: held - total, pendingCredit };
    }
    case 'TransferVoided':
      return { posted, held: held - mlxFromWire(event.data.amountMlx) - mlxFromWire(event.data.feeMlx), pendingCredit };
    case 'DepositReceived':
      return { posted, held, pendingCredit: pendingCredit + mlxFromWire(event.data.amountMlx) };
    case 'DepositConfirmed': {
      const amount = mlxFromWire(event.data.amountMlx);
      return { posted: posted + amount, held, pendingCredit: pendingCredit - amount };
    }
    case 'DepositRejected':
      return { posted, held, pendingCredit: pendingCredit - mlxFromWire(event.data.amountMlx) };
    default:
      return assertNever(event);
  }
}

const snapshot = (b: Balance): BalanceSnapshot => ({
  postedMlx: mlxToWire(b.posted),
  heldMlx: mlxToWire(b.held),
  pendingCreditMlx: mlxToWire(b.pendingCredit),
});

export function withBalanceAfter(state: WalletState, events: WalletEvent[]): WalletEvent[] {
  let balance: Balance = { posted: state.postedBalanceMlx, held: state.pendingDebitsMlx, pendingCredit: state.pendingCreditsMlx };
  return events.map((event) => {
    if (event.type === 'WalletOpened') return event;
    balance = next(balance, event);
    return { ...event, data: { ...event.data, balanceAfter: snapshot(balance) } } as WalletEvent;
  });
}

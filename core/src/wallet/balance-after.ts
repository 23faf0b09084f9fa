/**
 * Stamps each decided event with the wallet's balance right after it, through the same reducer
 * the fold uses (balance.ts).
 */
import type { BalanceSnapshot, WalletEvent } from './events.js';
import { mlxToWire } from './money.js';
import { nextBalance, type WalletBalance } from './balance.js';
import type { WalletState } from './state.js';

const snapshot = (b: WalletBalance): BalanceSnapshot => ({
  postedMlx: mlxToWire(b.postedMlx),
  heldMlx: mlxToWire(b.heldMlx),
  pendingCreditMlx: mlxToWire(b.pendingCreditMlx),
});

export function withBalanceAfter(state: WalletState, events: WalletEvent[]): WalletEvent[] {
  let balance: WalletBalance = {
    postedMlx: state.postedBalanceMlx,
    heldMlx: state.pendingDebitsMlx,
    pendingCreditMlx: state.pendingCreditsMlx,
  };
  return events.map((event) => {
    // Opening and closing move no money (a wallet closes only at zero): no balance to stamp.
    if (event.type === 'WalletOpened' || event.type === 'WalletClosed') return event;
    balance = nextBalance(balance, event);
    return { ...event, data: { ...event.data, balanceAfter: snapshot(balance) } } as WalletEvent;
  });
}

/**
 * A wallet's balance as of a moment, folded from a starting point (zero at the stream's start, or a
 * day snapshot) over the events that follow it, and given in the spec's `{stable, unstable}` shape
 * exactly as the wallets read model gives the present one (projections/src/wallets/queries.ts).
 */
import type { Balance } from '../payments/contracts.js';
import { type WalletBalance, nextBalance } from '../wallet/balance.js';
import type { BalanceSnapshot, WalletEvent } from '../wallet/events.js';
import { mlxFromWire, mlxToWire } from '../wallet/money.js';

export const ZERO_BALANCE: WalletBalance = { postedMlx: 0n, heldMlx: 0n, pendingCreditMlx: 0n };

/**
 * The balance right after `event`: the `balanceAfter` the decider stamped on it (what the read
 * model shows), else the one reducer's answer.
 */
export function balanceAfterEvent(balance: WalletBalance, event: WalletEvent): WalletBalance {
  const stamped = 'balanceAfter' in event.data ? event.data.balanceAfter : undefined;
  return stamped ? walletBalanceOf(stamped) : nextBalance(balance, event);
}

export const walletBalanceOf = (snapshot: BalanceSnapshot): WalletBalance => ({
  postedMlx: mlxFromWire(snapshot.postedMlx),
  heldMlx: mlxFromWire(snapshot.heldMlx),
  pendingCreditMlx: mlxFromWire(snapshot.pendingCreditMlx),
});

export const balanceSnapshotOf = (balance: WalletBalance): BalanceSnapshot => ({
  postedMlx: mlxToWire(balance.postedMlx),
  heldMlx: mlxToWire(balance.heldMlx),
  pendingCreditMlx: mlxToWire(balance.pendingCreditMlx),
});

/** Stable = posted − held (what can be spent), unstable = deposits not yet confirmed. */
export const balanceOutputOf = (balance: WalletBalance): Balance => ({
  stable: (balance.postedMlx - balance.heldMlx).toString(),
  unstable: balance.pendingCreditMlx.toString(),
});

/**
 * Which incoming payments arrived since the dashboard last looked (issue 25's in-page notice). The
 * first look only learns what is already there; afterwards a credit with a hash not seen before
 * has just arrived. A deposit keeps its network hash from pending to completed, so it is announced
 * once, when it first shows. Pure, so the rule is tested without a page.
 */
import type { WalletTransaction } from './walletFormat.js';

/** Hashes remembered at most; past it the oldest are forgotten (a long-open page stays bounded). */
const SEEN_MAX = 1_000;

export interface ArrivalScan {
  seen: Set<string>;
  arrived: WalletTransaction[];
}

export function scanArrivals(seen: ReadonlySet<string> | null, lists: ReadonlyArray<readonly WalletTransaction[]>): ArrivalScan {
  const next = new Set(seen ?? []);
  const arrived: WalletTransaction[] = [];
  for (const list of lists)
    for (const item of list) {
      if (item.transaction_type !== 'credit' || next.has(item.transaction_hash)) continue;
      next.add(item.transaction_hash);
      if (seen !== null) arrived.push(item);
    }
  while (next.size > SEEN_MAX) next.delete(next.values().next().value as string);
  return { seen: next, arrived };
}

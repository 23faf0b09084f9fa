/**
 * The dashboard's data and how it stays current without a reload (docs/decisions/
 * 011-dashboard-updates.md, amended by 058): the pending list, one small Redis read, is polled
 * every 2 s always, so a deposit shows as pending while it is pending; balance and the
 * transactions page every 2 s while something is pending and every 10 s otherwise, and at once
 * whenever the pending list changes. TanStack Query pauses the polling while the tab is hidden and
 * refreshes at once when it is shown again.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTRPC } from '../../app/data/trpc.js';
import { useExchangeRate } from '../../app/data/useExchangeRate.js';
import { useLogFailure } from '../../ui/useLogFailure.js';
import type { WalletTransaction } from './walletFormat.js';
import type { HistoryFilter } from '@quern/core/history';

/** While a transaction is pending: it usually settles within seconds, and people watch for it. */
export const POLL_WHILE_PENDING_MS = 2_000;
/** Otherwise: only a deposit from outside can change anything, and 10 s is soon enough for that. */
export const POLL_IDLE_MS = 10_000;

export function isSomethingPending(
  pending: { content: readonly unknown[] } | undefined,
  balance: { unstable: string } | undefined,
): boolean {
  return (pending?.content.length ?? 0) > 0 || (balance !== undefined && balance.unstable !== '0');
}

export const pollIntervalMs = (somethingPending: boolean): number => (somethingPending ? POLL_WHILE_PENDING_MS : POLL_IDLE_MS);

/**
 * When an item joins the pending list (a deposit the network reported) or leaves it (completed or
 * cancelled), the balance and the transactions page are refreshed at once rather than at the next
 * tick, so the hero agrees with the list and an item never seems to vanish from both lists.
 */
function useRefreshWhenPendingSettles(pending: readonly WalletTransaction[] | undefined, refresh: () => void): void {
  const shown = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!pending) return;
    const now = new Set(pending.map((item) => `${item.transaction_hash}:${item.transaction_type}`));
    const before = shown.current;
    shown.current = now;
    if (before && (before.size !== now.size || [...before].some((key) => !now.has(key)))) refresh();
  }, [pending, refresh]);
}

export function useDashboardQueries(page: number, filter?: HistoryFilter) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Read from the cache rather than from the hooks below, which need the interval first; a change
  // of either answer re-renders this component, which then passes the new interval on.
  const interval = pollIntervalMs(
    isSomethingPending(queryClient.getQueryData(trpc.wallet.pending.queryKey()), queryClient.getQueryData(trpc.wallet.balance.queryKey())),
  );
  const live = { refetchInterval: interval, refetchOnWindowFocus: true, staleTime: 0 } as const;

  const address = useQuery(trpc.wallet.address.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  const balance = useQuery(trpc.wallet.balance.queryOptions(undefined, live));
  const rate = useExchangeRate();
  // Always at the short interval: it is the one read that learns of a deposit from outside (ADR 062).
  const pending = useQuery(trpc.wallet.pending.queryOptions(undefined, { ...live, refetchInterval: POLL_WHILE_PENDING_MS }));
  // Bought MLX not yet free to send; refreshed with the balance it explains.
  const hold = useQuery(trpc.wallet.purchaseHold.queryOptions(undefined, live));
  // The previous page stays on screen while the next one loads, so the list does not jump.
  const transactions = useQuery(
    trpc.wallet.transactions.queryOptions(filter === undefined ? { page } : { page, filter }, {
      ...live,
      placeholderData: keepPreviousData,
    }),
  );

  useLogFailure('balance', balance.error);
  useLogFailure('rate', rate.error);
  useLogFailure('pending transactions', pending.error);
  useLogFailure('transactions', transactions.error);
  useLogFailure('address', address.error);

  const refreshSettled = useRef(() => {
    void queryClient.invalidateQueries(trpc.wallet.balance.queryFilter());
    void queryClient.invalidateQueries(trpc.wallet.transactions.queryFilter());
    void queryClient.invalidateQueries(trpc.wallet.purchaseHold.queryFilter());
  });
  useRefreshWhenPendingSettles(pending.data?.content, refreshSettled.current);

  return { address, balance, rate, pending, transactions, hold };
}

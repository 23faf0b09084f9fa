/** The exchange rate as every page that quotes USD reads it; data access, so it sits with the tRPC client. */
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from './trpc.js';

/** The exchange rate changes rarely and only moves the USD estimates. */
const RATE_POLL_MS = 60_000;

export function useExchangeRate() {
  const trpc = useTRPC();
  return useQuery(trpc.wallet.rate.queryOptions(undefined, { refetchInterval: RATE_POLL_MS, staleTime: RATE_POLL_MS }));
}

/**
 * TanStack Query bindings for tRPC. This module (and @tanstack/react-query with it) is loaded only
 * by the pages and components that fetch data, never by the home page, which keeps the home
 * page's first download small.
 */
import { QueryClient } from '@tanstack/react-query';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '@quern/api/router';
import { onSessionChange } from '../../features/auth/sessionChange.js';
import { toAppErrorView } from '../appError.js';

/**
 * Every query key starts with the signed-in user's id (DataProviders sets it), so one user's
 * cached answers can never be read for another, even by a request that finishes late.
 */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter, { keyPrefix: true }>();

/** The key prefix of a visitor's queries (the public ones, such as the rate). */
export const VISITOR_KEY_PREFIX = 'visitor';

/** Retries only failures the server did not explain (network, 5xx); a 4xx answer stays the same. */
const retryUnexplainedFailure = (failureCount: number, error: unknown): boolean =>
  failureCount < 2 && toAppErrorView(error).code === null;

/**
 * One client for the whole app. Several providers may hold it (the signed-in navigation and the
 * page area load separately), so they share one cache.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: retryUnexplainedFailure, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// Signing in, signing out and an expired session all start from an empty cache and no queued
// mutations, whoever used the tab before.
onSessionChange(() => queryClient.clear());

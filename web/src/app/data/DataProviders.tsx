import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useAuth } from '../../features/auth/AuthProvider.js';
import { isUnauthenticated } from '../appError.js';
import { trpcClient } from './trpcClient.js';
import { queryClient, TRPCProvider, VISITOR_KEY_PREFIX } from './trpc.js';

/**
 * Signs the user out locally (which also empties the cache) when the server says the session is gone (expired or revoked), so
 * the route guards send them to /login instead of leaving a page that can only fail.
 */
function useSignOutWhenSessionEnds(): void {
  const { signOut } = useAuth();
  useEffect(() => {
    const onError = (error: unknown) => {
      if (isUnauthenticated(error)) signOut();
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [signOut]);
}

export function DataProviders({ children }: { children: ReactNode }) {
  useSignOutWhenSessionEnds();
  const { state } = useAuth();
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient} keyPrefix={state.id ?? VISITOR_KEY_PREFIX}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

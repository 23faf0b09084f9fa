// Proves the data cache forgets everything when the signed-in user changes (sign-in, sign-out,
// expiry) and that query keys carry the user's id, so one user's answers are never read for another.
import { QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import type { AppRouter } from '@quern/api/router';
import { describe, expect, it } from 'vitest';
import { authReducer, initialAuthState } from '../../features/auth/authState.js';
import { notifySessionChange } from '../../features/auth/sessionChange.js';
import { queryClient, TRPCProvider, useTRPC } from './trpc.js';

const trpcClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: 'http://quern.test/trpc' })] });

async function keysFor(userId: string): Promise<unknown> {
  let key: unknown;
  function ReadKey() {
    key = useTRPC().wallet.address.queryKey();
    return null;
  }
  const root = createRoot(document.createElement('div'));
  await act(async () => {
    root.render(
      <TRPCProvider trpcClient={trpcClient} queryClient={new QueryClient()} keyPrefix={userId}>
        <ReadKey />
      </TRPCProvider>,
    );
  });
  root.unmount();
  return key;
}

describe('the data cache across users', () => {
  it('given answers cached for user A, when the session changes, then the cache is empty', () => {
    queryClient.setQueryData(['user-a', 'wallet.address'], { address: '1AddressOfA' });
    queryClient.setQueryData(['visitor', 'wallet.rate'], { rate: '0.1' });
    expect(queryClient.getQueryCache().getAll()).toHaveLength(2);

    notifySessionChange();

    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('given two users, when the same query is keyed, then the keys differ by user id', async () => {
    const a = await keysFor('user-a');
    const b = await keysFor('user-b');
    expect(JSON.stringify(a)).toContain('user-a');
    expect(a).not.toEqual(b);
  });

  it('given a signed-out state, when sign-out is reported again, then the state object stays the same (no re-render)', () => {
    const signedOut = authReducer(initialAuthState, { type: 'LOGOUT' });
    expect(authReducer(signedOut, { type: 'LOGOUT' })).toBe(signedOut);
    expect(authReducer(signedOut, { type: 'LOGIN', id: 'u', email: 'e@example.com' })).toMatchObject({ id: 'u' });
  });
});

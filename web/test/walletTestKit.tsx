/**
 * Test-only helpers for the wallet pages in jsdom: a stand-in for <dialog>'s showModal (jsdom
 * has none), a fake tRPC server answering over the real HTTP link (so requests and errors cross
 * the same wire format as in the app), transaction fixtures and a signed-in render.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '@quern/api/router';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { TRPCProvider } from '../src/app/data/trpc.js';
import type { AuthState } from '../src/features/auth/authState.js';
import { render, type Rendered, type TestLanguage } from './renderForTest.js';
import type { CompletedTransaction, PendingTransaction } from '@quern/core/history';

/** jsdom has no modal dialogs: showModal opens, close closes and fires 'close', as browsers do. */
export function installDialogStandIn(): void {
  const prototype = HTMLDialogElement.prototype as HTMLDialogElement & { showModal?: () => void };
  if (typeof prototype.showModal === 'function') return;
  prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

export const ADDRESS_A = '16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM0a016UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM';
export const ADDRESS_B = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT0a01BoatSLRHtKNngkdXEeobR76b53LETtpyT';
export const HASH_1 = 'b5d9e8a1c3f7420e9d6a8b1c2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5';

export function completed(overrides: Partial<CompletedTransaction> = {}): CompletedTransaction {
  return {
    transaction_hash: HASH_1,
    transaction_type: 'credit',
    from_address: ADDRESS_B,
    to_address: ADDRESS_A,
    amount: '1234567',
    balance: '2234567',
    transaction_date: '2026-11-22T15:04:00.000Z',
    ...overrides,
  };
}

export function pending(overrides: Partial<PendingTransaction> = {}): PendingTransaction {
  return {
    transaction_hash: 'pending-transfer-0001',
    transaction_type: 'debit',
    from_address: ADDRESS_A,
    to_address: ADDRESS_B,
    to_user: { username: 'bob' },
    amount: '5000',
    fee: '1000',
    create_date: '2026-11-23T09:30:00.000Z',
    ...overrides,
  };
}

/** What a procedure answers: data, or the api's error shape (error.data.appError). */
export type FakeAnswer =
  | { data: unknown }
  | {
      error: {
        status: number;
        code: string;
        messageKey: string;
        message: string;
        fields?: Record<string, string>;
        params?: Record<string, unknown>;
        /** The refusal's machine reason, when the server names one (RefusalError). */
        reason?: string;
      };
    };

export interface FakeCall {
  path: string;
  input: unknown;
}

export type FakeProcedures = Record<string, (input: unknown, call: number) => FakeAnswer | Promise<FakeAnswer> | 'network-failure'>;

const trpcCodes: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  500: 'INTERNAL_SERVER_ERROR',
};

function parseRequest(url: string, init: RequestInit | undefined): FakeCall {
  const parsed = new URL(url, 'http://quern.test');
  const path = parsed.pathname.replace(/^\/trpc\//, '');
  if (init?.method === 'POST') return { path, input: init.body ? JSON.parse(String(init.body)) : undefined };
  const input = parsed.searchParams.get('input');
  return { path, input: input === null ? undefined : JSON.parse(input) };
}

/** A fetch that answers tRPC calls from `procedures`, recording every call. */
export function fakeTrpcFetch(procedures: FakeProcedures) {
  const calls: FakeCall[] = [];
  const counts = new Map<string, number>();
  const fetch = async (url: URL | RequestInfo, init?: RequestInit): Promise<Response> => {
    const call = parseRequest(String(url), init);
    calls.push(call);
    const count = counts.get(call.path) ?? 0;
    counts.set(call.path, count + 1);
    const procedure = procedures[call.path];
    if (!procedure) throw new Error(`The fake server has no procedure ${call.path}`);
    const answer = await procedure(call.input, count);
    if (answer === 'network-failure') throw new TypeError('Failed to fetch');
    if ('data' in answer) return Response.json({ result: { data: answer.data } });
    const { status, code, messageKey, message, fields = {}, params = {}, reason } = answer.error;
    const data = {
      code: trpcCodes[status] ?? 'INTERNAL_SERVER_ERROR',
      httpStatus: status,
      path: call.path,
      appError: { code, messageKey, message, fields, params, ...(reason === undefined ? {} : { reason }) },
    };
    return Response.json({ error: { message, code: -32600, data } }, { status });
  };
  return { fetch, calls };
}

export const signedIn: AuthState = { loading: false, isAuthenticated: true, id: 'user-1', email: 'ada@example.com' };

export interface WalletRenderOptions {
  procedures: FakeProcedures;
  language?: TestLanguage;
  path?: string;
  /** The route pattern, when the path is one URL of it (the detail's /account/transactions/:hash). */
  route?: string;
}

/**
 * Renders `page` at `path` for a signed-in user, with /account showing a marker when the page is
 * not the dashboard itself (so navigation to it can be observed).
 */
export async function renderWalletPage(
  page: ReactNode,
  { procedures, language = 'en', path = '/account', route }: WalletRenderOptions,
): Promise<Rendered & { calls: FakeCall[] }> {
  const server = fakeTrpcFetch(procedures);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: 'http://quern.test/trpc', fetch: server.fetch })] });
  const rendered = await render(
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient} keyPrefix={signedIn.id ?? 'visitor'}>
        <Routes>
          {path === '/account' || route !== undefined ? (
            // The dashboard, with its detail URL (issue 25) as a child route it answers itself.
            <Route path="/account" element={page}>
              <Route path="transactions/:hash" element={null} />
            </Route>
          ) : (
            <>
              <Route path={path} element={page} />
              <Route path="/account" element={<p>Account page</p>} />
            </>
          )}
        </Routes>
      </TRPCProvider>
    </QueryClientProvider>,
    { language, auth: signedIn, path },
  );
  return {
    calls: server.calls,
    container: rendered.container,
    unmount() {
      rendered.unmount();
      queryClient.clear();
    },
  };
}

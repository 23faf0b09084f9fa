/**
 * Test-only helpers for the plan and subscription pages in jsdom: every route of both features
 * rendered for a signed-in user against the fake tRPC server of the wallet's test kit, plan and
 * subscription fixtures, and the inputs the DOM helpers lack (select, textarea).
 */
import type { PlanOutput } from '@quern/core/plans';
import type { SubscriptionOutput } from '@quern/core/subscriptions';
import type { AppRouter } from '@quern/api/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import { act } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { TRPCProvider } from '../src/app/data/trpc.js';
import type { AuthState } from '../src/features/auth/authState.js';
import { render, type Rendered, type TestLanguage } from './renderForTest.js';
import SubscriptionPage from '../src/features/subscriptions/SubscriptionPage.js';
import SubscriptionsPage from '../src/features/subscriptions/SubscriptionsPage.js';
import { type FakeAnswer, type FakeCall, type FakeProcedures, fakeTrpcFetch } from './walletTestKit.js';
import DeletePlanPage from '../src/features/plans/DeletePlanPage.js';
import { CreatePlanPage, EditPlanPage } from '../src/features/plans/PlanFormPages.js';
import PlanPage from '../src/features/plans/PlanPage.js';
import PlansListPage from '../src/features/plans/PlansListPage.js';
import SubscribersPage from '../src/features/plans/SubscribersPage.js';
import UserPlansPage from '../src/features/plans/UserPlansPage.js';

export const OWNER_ID = 'user-owner';
export const OTHER_ID = 'user-other';

export const signedInAs = (id: string): AuthState => ({ loading: false, isAuthenticated: true, id, email: `${id}@example.com` });

export function planFixture(overrides: Partial<PlanOutput> = {}): PlanOutput {
  return {
    id: 'plan_1',
    name: 'Gold membership',
    description: 'Every article, every month.',
    price: 250000,
    currency: 'mlx',
    duration: 'monthly',
    provider_id: OWNER_ID,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function subscriptionFixture(overrides: Partial<SubscriptionOutput> = {}): SubscriptionOutput {
  return {
    id: 'sub_1',
    object: 'subscription',
    plan_id: 'plan_1',
    plan_name: 'Gold membership',
    provider_id: OWNER_ID,
    subscriber_id: OTHER_ID,
    status: 'active',
    price: '250000',
    agreed_price: '250000',
    pending_price: null,
    currency: 'mlx',
    duration: 'monthly',
    started_at: '2026-11-20T10:00:00.000Z',
    paid_through: '2026-12-20T10:00:00.000Z',
    next_charge_at: '2026-12-20T10:00:00.000Z',
    ends_at: null,
    cancelled_by: null,
    charges: [
      {
        period: 1,
        amount: '250000',
        charged_at: '2026-11-20T10:00:00.000Z',
        paid_through: '2026-12-20T10:00:00.000Z',
        transaction_id: 'subscription-sub_1-1',
      },
    ],
    ...overrides,
  };
}

export const failure = (status: number, messageKey: string, message: string, fields: Record<string, string> = {}): FakeAnswer => ({
  error: {
    status,
    code: status === 404 ? 'NOT_FOUND' : status === 409 ? 'CONFLICT' : status === 400 ? 'VALIDATION' : 'INTERNAL',
    messageKey,
    message,
    fields,
  },
});

/** Shows where the app navigated and with what state, so a redirect can be observed. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export async function renderPlans(
  procedures: FakeProcedures,
  { path, language = 'en', userId = OWNER_ID }: { path: string; language?: TestLanguage; userId?: string },
): Promise<Rendered & { calls: FakeCall[] }> {
  const server = fakeTrpcFetch(procedures);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: 'http://quern.test/trpc', fetch: server.fetch })] });
  const rendered = await render(
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient} keyPrefix={userId}>
        <LocationProbe />
        <Routes>
          <Route path="/subscription-plans/all" element={<PlansListPage />} />
          <Route path="/subscription-plans/create" element={<CreatePlanPage />} />
          <Route path="/subscription-plans/:id" element={<PlanPage />} />
          <Route path="/subscription-plans/:id/edit" element={<EditPlanPage />} />
          <Route path="/subscription-plans/:id/delete" element={<DeletePlanPage />} />
          <Route path="/subscription-plans/:id/subscribers" element={<SubscribersPage />} />
          <Route path="/user/:username" element={<UserPlansPage />} />
          <Route path="/subscriptions/all" element={<SubscriptionsPage />} />
          <Route path="/subscriptions/:id" element={<SubscriptionPage />} />
        </Routes>
      </TRPCProvider>
    </QueryClientProvider>,
    { language, auth: signedInAs(userId), path },
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

export const locationOf = (container: HTMLElement): string | null =>
  container.querySelector('[data-testid="location"]')?.textContent ?? null;

/** Picks an option of a <select> the way React notices. */
export function choose(select: HTMLSelectElement, value: string): void {
  act(() => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** Types into a <textarea> through the native setter, so React's onChange fires. */
export function typeIntoTextArea(area: HTMLTextAreaElement, value: string): void {
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  act(() => {
    setValue?.call(area, value);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** The open dialog (the test kit's showModal stand-in marks it with the open attribute). */
export const openDialog = (): HTMLDialogElement | null => document.querySelector('dialog[open]');

/**
 * Every route of the app. Pages load lazily (each is its own chunk) within the spec's 120 s
 * limit. Every route but home sits under DataLayout, which brings TanStack Query: the home page,
 * the most visited, downloads only the shell.
 */
import type { RouteObject } from 'react-router';
import { bareRoutes, contentRoutes, protectedContentRoutes } from '../features/content/routes.js';
import { RequireAuth, VisitorOnly } from '../features/auth/guards.js';
import { purchasesRoutes } from '../features/purchases/routes.js';
import { checkoutRoutes } from '../features/checkout/routes.js';
import { contactRoutes } from '../features/contact/routes.js';
import { invoicesRoutes } from '../features/invoices/routes.js';
import { merchantKeysRoutes } from '../features/merchant-keys/routes.js';
import { paymentsRoutes } from '../features/payments/routes.js';
import { receiptsRoutes } from '../features/receipts/routes.js';
import { paymentLinkRoutes } from '../features/payment-links/routes.js';
import { plansRoutes } from '../features/plans/routes.js';
import { profileRoutes } from '../features/profile/routes.js';
import { Layout } from '../features/shell/Layout.js';
import { SandboxFrame } from '../features/shell/SandboxBanner.js';
import { subscriptionsRoutes } from '../features/subscriptions/routes.js';
import { walletRoutes } from '../features/wallet/routes.js';
import { lazyComponent, resolveLazyRoutes } from './lazyRoutes.js';

const HomePage = lazyComponent(() => import('../features/home/HomePage.js').then((m) => m.default), 'home page');
const DataLayout = lazyComponent(() => import('./data/DataLayout.js').then((m) => m.DataLayout), 'data layout');
const RegisterPage = lazyComponent(() => import('../features/identity/RegisterPage.js').then((m) => m.RegisterPage), 'register page');
const LoginPage = lazyComponent(() => import('../features/identity/LoginPage.js').then((m) => m.LoginPage), 'sign-in page');
const PasswordResetPage = lazyComponent(
  () => import('../features/identity/PasswordResetPage.js').then((m) => m.PasswordResetPage),
  'password reset page',
);
const PasswordResetVerifyPage = lazyComponent(
  () => import('../features/identity/PasswordResetVerifyPage.js').then((m) => m.PasswordResetVerifyPage),
  'password reset confirmation page',
);
const VerifyEmailPage = lazyComponent(
  () => import('../features/identity/VerifyEmailPage.js').then((m) => m.VerifyEmailPage),
  'e-mail verification page',
);
const LogoutPage = lazyComponent(() => import('../features/identity/LogoutPage.js').then((m) => m.LogoutPage), 'logout page');
const AccountPage = lazyComponent(() => import('../features/wallet/AccountPage.js').then((m) => m.AccountPage), 'account page');
const NotFoundPage = lazyComponent(() => import('../features/errors/NotFoundPage.js').then((m) => m.NotFoundPage), 'not-found page');

export const appRoutes: RouteObject[] = [
  // The embeddable button, framed by other sites: never the sandbox banner (ADR 050).
  ...resolveLazyRoutes(bareRoutes),
  // The checkout popup: no shell (a popup has no navigation), but the sandbox banner, data and
  // sign-in, open to all.
  { element: <SandboxFrame />, children: [{ element: <DataLayout />, children: resolveLazyRoutes(checkoutRoutes) }] },
  {
    element: <Layout />,
    children: [
      { index: true, element: <HomePage /> },
      {
        element: <DataLayout />,
        children: [
          {
            element: <VisitorOnly />,
            children: [
              { path: '/register', element: <RegisterPage /> },
              { path: '/login', element: <LoginPage /> },
              { path: '/password-reset', element: <PasswordResetPage /> },
              { path: '/password-reset-verify', element: <PasswordResetVerifyPage /> },
            ],
          },
          {
            element: <RequireAuth />,
            children: [
              // A transaction's detail has its own URL (issue 25): the same dashboard, kept mounted, with its popup open.
              { path: '/account', element: <AccountPage />, children: [{ path: 'transactions/:hash', element: null }] },
              ...resolveLazyRoutes([
                ...protectedContentRoutes,
                ...walletRoutes,
                ...receiptsRoutes,
                ...purchasesRoutes,
                ...merchantKeysRoutes,
                ...paymentsRoutes,
                ...plansRoutes,
                ...profileRoutes,
                ...subscriptionsRoutes,
                ...contactRoutes,
              ]),
            ],
          },
          {
            // The point of sale's keypad opens offline from its service worker's copy (ADR 085),
            // while the session check waits for the connection.
            element: <RequireAuth offlineShell />,
            children: resolveLazyRoutes([
              { path: '/pos', lazy: async () => ({ Component: (await import('../features/pos/PosPage.js')).default }) },
            ]),
          },
          // Not guarded: when the session ends, a guard would redirect to /login before the page
          // could take the user to / as the spec says.
          { path: '/logout', element: <LogoutPage /> },
          // Signed in or not: the link mailed to prove the address (ADR 046) opens in any browser.
          { path: '/verify-email', element: <VerifyEmailPage /> },
          // An invoice's hosted page (issue 27): anyone with the link pays, signed in or not; and the payer's refund claim link (ADR 087).
          ...resolveLazyRoutes(invoicesRoutes),
          ...resolveLazyRoutes(contentRoutes),
          // A merchant's payment link (ADR 084): open to all, signed in or not.
          ...resolveLazyRoutes(paymentLinkRoutes),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

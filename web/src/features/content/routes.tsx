/**
 * The routes of the public pages and the sell page. Each page is its own chunk, loaded through
 * react-router's `lazy`; the shell's resolveLazyRoutes turns that into React.lazy with the spec's
 * 120 s chunk time limit.
 */
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/** Adapts a page module's default export to what `lazy` resolves to. */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/** Public pages, rendered inside the app shell (navigation and footer). */
export const contentRoutes: RouteObject[] = [
  { path: '/about', lazy: page(() => import('./AboutPage.js')) },
  { path: '/developers', lazy: page(() => import('./DevelopersPage.js')) },
  { path: '/developers/api', lazy: page(() => import('../reference/ApiReferencePage.js')) },
  { path: '/faqs', lazy: page(() => import('./FaqsPage.js')) },
  { path: '/privacy-policy', lazy: page(() => import('./PrivacyPolicyPage.js')) },
  { path: '/terms-of-service', lazy: page(() => import('./TermsOfServicePage.js')) },
  { path: '/wordpress', lazy: page(() => import('./WordpressPage.js')) },
];

/** Pages for signed-in users; the shell places them under its RequireAuth guard. */
export const protectedContentRoutes: RouteObject[] = [{ path: '/millix/sell', lazy: page(() => import('./SellPage.js')) }];

/**
 * Pages that must render outside the app shell: the embeddable checkout button sits in an iframe
 * on other sites, with a transparent background and no navigation or footer.
 */
export const bareRoutes: RouteObject[] = [{ path: '/checkout-buttons', lazy: page(() => import('./CheckoutButtonPage.js')) }];

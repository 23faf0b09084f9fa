/**
 * The subscription plan pages' protected routes (issue 13), each its own chunk, loaded through
 * react-router's `lazy`. 'create' is listed before '{id}' for readers; the router ranks static
 * segments first anyway.
 */
import type { RouteObject } from 'react-router';

export const plansRoutes: RouteObject[] = [
  { path: '/subscription-plans/all', lazy: async () => ({ Component: (await import('./PlansListPage.js')).default }) },
  { path: '/subscription-plans/create', lazy: async () => ({ Component: (await import('./PlanFormPages.js')).CreatePlanPage }) },
  { path: '/subscription-plans/:id', lazy: async () => ({ Component: (await import('./PlanPage.js')).default }) },
  { path: '/subscription-plans/:id/edit', lazy: async () => ({ Component: (await import('./PlanFormPages.js')).EditPlanPage }) },
  { path: '/subscription-plans/:id/delete', lazy: async () => ({ Component: (await import('./DeletePlanPage.js')).default }) },
  { path: '/subscription-plans/:id/subscribers', lazy: async () => ({ Component: (await import('./SubscribersPage.js')).default }) },
  { path: '/user/:username', lazy: async () => ({ Component: (await import('./UserPlansPage.js')).default }) },
];

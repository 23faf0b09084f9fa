/**
 * Route-level code splitting for the declarative router (BrowserRouter + useRoutes).
 *
 * Why not createBrowserRouter: the data router adds about 16 kB gzip to every page, the home page
 * included, and this app loads its data with TanStack Query rather than route loaders. Route
 * objects may still use react-router's `lazy` (function or per-property object form) for
 * Component or element; this module turns them into React.lazy elements. Data-router-only keys
 * (loader, action, ErrorBoundary, ...) would be silently ignored here, so they fail loudly.
 */
import { lazy, type ComponentType, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { withTimeout } from './withTimeout.js';

const dataRouterOnlyKeys = [
  'loader',
  'action',
  'shouldRevalidate',
  'handle',
  'errorElement',
  'ErrorBoundary',
  'hydrateFallbackElement',
  'HydrateFallback',
  'middleware',
] as const;

function assertNoDataRouterKeys(route: object, where: string): void {
  for (const key of dataRouterOnlyKeys) {
    if (key in route && (route as Record<string, unknown>)[key] !== undefined) {
      throw new Error(`Route ${where} uses "${key}", which only a data router runs; this app uses TanStack Query instead`);
    }
  }
}

/** A component whose code loads on first render, within the spec's lazy-chunk time limit. */
export function lazyComponent(load: () => Promise<ComponentType>, what: string): ComponentType {
  return lazy(() => withTimeout(load, what).then((Component) => ({ default: Component })));
}

/** What a route's `lazy` resolves to, reduced to the one thing this router renders. */
function toComponent(resolved: { Component?: ComponentType | null; element?: ReactNode }, where: string): ComponentType {
  assertNoDataRouterKeys(resolved, where);
  if (resolved.Component) return resolved.Component;
  if (resolved.element !== undefined) {
    const element = resolved.element;
    return function LazyRouteElement() {
      return <>{element}</>;
    };
  }
  throw new Error(`Route ${where}: lazy() gave neither Component nor element`);
}

async function loadLazyRoute(lazyDefinition: NonNullable<RouteObject['lazy']>, where: string): Promise<ComponentType> {
  if (typeof lazyDefinition === 'function') return toComponent(await lazyDefinition(), where);
  assertNoDataRouterKeys(lazyDefinition, where);
  const [Component, element] = await Promise.all([lazyDefinition.Component?.(), lazyDefinition.element?.()]);
  return toComponent({ Component, element }, where);
}

/** Turns route objects that use `lazy` into ones with lazily loaded elements, recursively. */
export function resolveLazyRoutes(routes: readonly RouteObject[]): RouteObject[] {
  return routes.map((route): RouteObject => {
    const where = route.path ?? (route.index ? '(index)' : '(layout)');
    assertNoDataRouterKeys(route, where);
    const children = route.children ? resolveLazyRoutes(route.children) : undefined;
    const { lazy: lazyDefinition, ...rest } = route;
    if (!lazyDefinition) return (children ? { ...rest, children } : rest) as RouteObject;
    const Page = lazyComponent(() => loadLazyRoute(lazyDefinition, where), `route ${where}`);
    return { ...rest, Component: undefined, element: <Page />, ...(children ? { children } : {}) } as RouteObject;
  });
}

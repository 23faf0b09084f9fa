// Proves the route lists the shell imports: the spec's paths (and /developers, ADR 031), each loading its own page lazily,
// with the sell page protected and the checkout button outside the shell.
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { bareRoutes, contentRoutes, protectedContentRoutes } from './routes.js';

const paths = (routes: RouteObject[]) => routes.map((route) => route.path);

describe('content routes', () => {
  it('given the route lists, when read, then they hold exactly the spec paths, each in one list', () => {
    expect(paths(contentRoutes)).toEqual([
      '/about',
      '/developers',
      '/developers/api',
      '/faqs',
      '/privacy-policy',
      '/terms-of-service',
      '/wordpress',
    ]);
    expect(paths(protectedContentRoutes)).toEqual(['/millix/sell']);
    expect(paths(bareRoutes)).toEqual(['/checkout-buttons']);
  });

  it('given each route, when its lazy loader runs, then it resolves to a page component and nothing else', async () => {
    for (const route of [...contentRoutes, ...protectedContentRoutes, ...bareRoutes]) {
      expect(route.Component, route.path).toBeUndefined();
      expect(typeof route.lazy, route.path).toBe('function');
      const resolved = await (route.lazy as () => Promise<RouteObject>)();
      expect(Object.keys(resolved), route.path).toEqual(['Component']);
      expect(typeof resolved.Component, route.path).toBe('function');
    }
  });
});

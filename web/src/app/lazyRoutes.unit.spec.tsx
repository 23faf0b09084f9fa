// Proves route objects using react-router's `lazy` render their lazily loaded page under the
// declarative router, and that data-router-only keys are refused instead of silently ignored.
import { Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { useRoutes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, type Rendered } from '../../test/renderForTest.js';
import { RouteErrorBoundary } from '../features/shell/RouteErrorBoundary.js';
import { waitFor } from '../../test/dom.js';
import { resolveLazyRoutes } from './lazyRoutes.js';

function Routes({ routes }: { routes: RouteObject[] }) {
  return <Suspense fallback={<p>loading</p>}>{useRoutes(routes)}</Suspense>;
}

function FaqsPage() {
  return <h1>FAQs</h1>;
}

function XPage() {
  return <h1>X</h1>;
}

let page: Rendered | undefined;
afterEach(() => page?.unmount());

describe('resolveLazyRoutes', () => {
  it('given a lazy function giving a Component, when its path is visited, then the page renders', async () => {
    const routes = resolveLazyRoutes([{ path: '/faqs', lazy: async () => ({ Component: FaqsPage }) }]);
    page = await render(<Routes routes={routes} />, { path: '/faqs' });
    await waitFor(() => expect(page?.container.querySelector('h1')?.textContent).toBe('FAQs'));
  });

  it('given the per-property lazy form and nested children, when a child is visited, then it renders', async () => {
    const routes = resolveLazyRoutes([{ path: '/a', children: [{ path: 'b', lazy: { element: async () => <h1>B</h1> } }] }]);
    page = await render(<Routes routes={routes} />, { path: '/a/b' });
    await waitFor(() => expect(page?.container.querySelector('h1')?.textContent).toBe('B'));
  });

  it('given a route with a loader, when resolved, then it is refused with the route named', () => {
    expect(() => resolveLazyRoutes([{ path: '/plans', loader: () => null }])).toThrow(/\/plans.*loader/);
  });

  it('given a lazy function that resolves to a loader, when visited, then the error card shows instead of a page without data', async () => {
    // React logs the caught error; the assertion below is what matters.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const routes = resolveLazyRoutes([{ path: '/x', lazy: async () => ({ Component: XPage, loader: () => null }) }]);
    page = await render(
      <RouteErrorBoundary>
        <Routes routes={routes} />
      </RouteErrorBoundary>,
      { path: '/x' },
    );
    await waitFor(() => expect(page?.container.querySelector('h1')?.textContent).toBe('This page could not be loaded'));
    expect(consoleError.mock.calls.flat().map(String).join(' ')).toMatch(/\/x.*loader/);
    consoleError.mockRestore();
  });
});

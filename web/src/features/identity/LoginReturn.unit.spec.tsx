// Proves the return to a shared page: a visitor opening /user/<name> or /contact is sent to
// sign-in, which says why ('Sign in to see bob_shop's plans', 'Sign in to contact us', also in
// Spanish) and, once signed in, opens that page; a crafted return path to another site
// ('//evil.example', 'https://evil.example') is ignored and sign-in opens /account.
import type { AppRouter } from '@quern/api/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { TRPCProvider } from '../../app/data/trpc.js';
import { byLabel, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import { RequireAuth, VisitorOnly } from '../auth/guards.js';
import { render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';
import { fakeTrpcFetch } from '../../../test/walletTestKit.js';
import { LoginPage } from './LoginPage.js';

let rendered: Rendered | undefined;
afterEach(() => rendered?.unmount());

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

async function openAsVisitor(path: string, language: TestLanguage = 'en') {
  const server = fakeTrpcFetch({ 'identity.login': () => ({ data: { id: 'user-1', email: 'bob@example.com' } }) });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: 'http://quern.test/trpc', fetch: server.fetch })] });
  rendered = await render(
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient} keyPrefix="visitor">
        <Where />
        <Routes>
          <Route element={<VisitorOnly />}>
            <Route path="/login" element={<LoginPage />} />
          </Route>
          <Route element={<RequireAuth />}>
            <Route path="/account" element={<p>Account page</p>} />
            <Route path="/user/:username" element={<p>Plans page</p>} />
            <Route path="/contact" element={<p>Contact page</p>} />
          </Route>
        </Routes>
      </TRPCProvider>
    </QueryClientProvider>,
    { language, path },
  );
  return rendered.container;
}

const where = (container: HTMLElement) => container.querySelector('[data-testid="location"]')?.textContent;
const reason = (container: HTMLElement) => container.querySelector('.auth-reason')?.textContent ?? null;

async function signIn(container: HTMLElement, language: TestLanguage = 'en') {
  typeInto(byLabel(container, language === 'en' ? 'E-mail' : 'Correo electrónico'), 'bob@example.com');
  typeInto(byLabel(container, language === 'en' ? 'Password' : 'Contraseña'), 'correct horse');
  await submit(container.querySelector('form') as HTMLFormElement);
}

describe('Sign-in for a shared page', () => {
  it("given a visitor opening /user/bob_shop, then sign-in says 'Sign in to see bob_shop's plans' and returns there", async () => {
    const container = await openAsVisitor('/user/bob_shop');
    expect(where(container)).toBe('/login?next=%2Fuser%2Fbob_shop');
    expect(reason(container)).toBe("Sign in to see bob_shop's plans");
    await signIn(container);
    await waitFor(() => expect(where(container)).toBe('/user/bob_shop'));
    expect(textOf(container)).toContain('Plans page');
  });

  it("given a visitor opening /contact, then sign-in says 'Sign in to contact us' and returns there", async () => {
    const container = await openAsVisitor('/contact');
    expect(reason(container)).toBe('Sign in to contact us');
    await signIn(container);
    await waitFor(() => expect(where(container)).toBe('/contact'));
  });

  it('given Spanish, then the reasons speak Spanish with usted', async () => {
    expect(reason(await openAsVisitor('/user/bob_shop', 'es'))).toBe('Inicie sesión para ver los planes de bob_shop');
    rendered?.unmount();
    expect(reason(await openAsVisitor('/contact', 'es'))).toBe('Inicie sesión para contactarnos');
  });

  it('given sign-in opened directly, then it gives no reason and opens /account', async () => {
    const container = await openAsVisitor('/login');
    expect(reason(container)).toBeNull();
    await signIn(container);
    await waitFor(() => expect(where(container)).toBe('/account'));
  });

  it.each(['//evil.example', 'https://evil.example', '/\\evil.example'])(
    'given the crafted return path %s, then sign-in ignores it and opens /account',
    async (crafted) => {
      const container = await openAsVisitor(`/login?next=${encodeURIComponent(crafted)}`);
      expect(reason(container)).toBeNull();
      await signIn(container);
      await waitFor(() => expect(where(container)).toBe('/account'));
    },
  );
});

// Proves the checkout popup's states against a fake tRPC server and a stand-in for PayPal's React
// buttons: a query without price/currency/to goes home; a bad cart or redirect shows its error and
// no Pay button; the cart shows as a table with the total; a visitor signs in inside the popup and
// stays on the same order (a wrong password shows the server's message); an unknown shop gets no
// Pay button; Pay now sends the query's order once however often it is clicked, posts the spec's
// message to the opener at the redirect's origin and closes; 4001 shows the spec's message and
// three top-ups, one of which goes through PayPal and then 'Complete order' pays; Spanish too.
import type { AppRouter } from '@quern/api/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRPCProvider } from '../../app/data/trpc.js';
import { byLabel, byRole, click, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import type { AuthState } from '../auth/authState.js';
import { type Rendered, render, visitor } from '../../../test/renderForTest.js';
import { type FakeCall, type FakeProcedures, fakeTrpcFetch, signedIn } from '../../../test/walletTestKit.js';
import CheckoutPage from './CheckoutPage.js';

vi.mock('@paypal/react-paypal-js', async () => {
  const { createElement, Fragment } = await import('react');
  interface ButtonsProps {
    createOrder(): Promise<string>;
    onApprove(data: { orderID: string }, actions: { restart(): Promise<void> }): Promise<void>;
    onError(error: unknown): void;
  }
  return {
    PayPalScriptProvider: ({ children }: { children: unknown }) => createElement(Fragment, null, children as never),
    usePayPalScriptReducer: () => [{ isPending: false, isRejected: false }, () => {}],
    PayPalButtons: (props: ButtonsProps) =>
      createElement(
        'button',
        {
          type: 'button',
          onClick: async () => {
            const orderID = await props.createOrder();
            await props.onApprove({ orderID }, { restart: async () => {} });
          },
        },
        'PayPal',
      ),
  };
});

const CART = JSON.stringify([
  { name: 'Tea', price: '100000', quantity: 3 },
  { name: 'Cup', price: '50000', quantity: 1 },
]);
const REDIRECT = 'https://shop.example:8443/thanks';

function checkoutPath(overrides: Record<string, string | null> = {}): string {
  const values: Record<string, string | null> = {
    cart: CART,
    price: '350000',
    currency: 'mlx',
    to: 'shop_one',
    redirect: REDIRECT,
    ...overrides,
  };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== null) params.set(key, value);
  return `/checkout?${params}`;
}

const paid = { data: { success: true, message: 'Payment complete.', token: 'token-1', order: 'order-1' } };
const short = { data: { success: false, code: 4001, message: 'Not enough MLX', data: { debit: '250000', rate: '0.0000125' } } };

function procedures(overrides: FakeProcedures = {}): FakeProcedures {
  return {
    'checkout.merchant': () => ({ data: { found: true, displayName: 'Mia Market', username: 'shop_one' } }),
    'checkout.pay': () => paid,
    'identity.user': () => ({ data: { username: 'ada_l', first_name: 'Ada', last_name: 'L', phone_number: '' } }),
    'wallet.balance': () => ({ data: { stable: '400000', unstable: '0' } }),
    'identity.login': () => ({ data: { id: 'user-1', email: 'ada@example.com' } }),
    'purchases.setup': () => ({
      data: { minUsdCents: '500', maxUsdCents: '50000', paypal: { clientId: 'local-client', sdkBaseUrl: '/paypal-local/sdk/js' } },
    }),
    'purchases.createOrder': () => ({ data: { id: 'PP-1', usdCents: '500', usdPerMlx: '0.0000125', mlx: '400000' } }),
    'purchases.capture': () => ({ data: { orderId: 'PP-1', status: 'COMPLETED', captureId: 'CAP-1', mlx: '400000' } }),
    'purchases.credit': () => ({ data: { success: true, id: 'purchase-CAP-1', orderId: 'PP-1', captureId: 'CAP-1', amount: '400000' } }),
    ...overrides,
  };
}

let rendered: Rendered | undefined;
afterEach(() => {
  rendered?.unmount();
  rendered = undefined;
  vi.restoreAllMocks();
  Reflect.deleteProperty(window, 'opener');
});

async function renderCheckout(options: { path?: string; auth?: AuthState; procedures?: FakeProcedures; language?: 'en' | 'es' } = {}) {
  const server = fakeTrpcFetch(procedures(options.procedures));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: 'http://quern.test/trpc', fetch: server.fetch })] });
  const result = await render(
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient} keyPrefix="test">
        <Routes>
          <Route path="/checkout" element={<CheckoutPage />} />
          <Route path="/" element={<p>Home page</p>} />
        </Routes>
      </TRPCProvider>
    </QueryClientProvider>,
    { auth: options.auth ?? signedIn, path: options.path ?? checkoutPath(), language: options.language ?? 'en' },
  );
  rendered = result;
  const callsTo = (path: string): FakeCall[] => server.calls.filter((call) => call.path === path);
  return { container: result.container, callsTo };
}

const cells = (container: HTMLElement) =>
  Array.from(container.querySelectorAll('table tr'), (row) => Array.from(row.children, (cell) => cell.textContent));

describe('CheckoutPage query', () => {
  it('given no price, currency or to, then the popup goes home', async () => {
    for (const missing of ['price', 'currency', 'to']) {
      const { container } = await renderCheckout({ path: checkoutPath({ [missing]: null }) });
      await waitFor(() => expect(textOf(container)).toBe('Home page'));
      rendered?.unmount();
      rendered = undefined;
    }
  });

  it('given a redirect that is not http(s), a wrong total or another currency, then its error and no Pay button or sign-in', async () => {
    const cases = [
      [{ redirect: 'javascript:alert(1)' }, "The shop's return address is not a valid web address."],
      [{ price: '1' }, "The cart's total does not match the price."],
      [{ currency: 'usd' }, 'Only MLX is accepted at checkout.'],
    ] as const;
    for (const [overrides, message] of cases) {
      const { container, callsTo } = await renderCheckout({ path: checkoutPath(overrides), auth: visitor });
      expect(container.querySelector('[role="alert"] h2')?.textContent).toBe('This checkout cannot be completed');
      expect(textOf(container)).toContain(message);
      expect(container.querySelectorAll('button, form, table')).toHaveLength(0);
      expect(callsTo('checkout.merchant')).toEqual([]);
      rendered?.unmount();
      rendered = undefined;
    }
  });
});

describe('CheckoutPage signed out', () => {
  it('given a visitor, then the logo, the cart table with its total and a sign-in form with Login; signing in keeps the order and offers Pay now', async () => {
    const { container, callsTo } = await renderCheckout({ auth: visitor });
    expect(container.querySelector('svg[role="img"], [aria-label="Quern"]')).not.toBeNull();
    expect(cells(container)).toEqual([
      ['Item', 'Price', 'Qty'],
      ['Tea', '100,000 MLX', '3'],
      ['Cup', '50,000 MLX', '1'],
      ['Total', '350,000 MLX'],
    ]);
    expect(byRole(container, 'button', 'Login')).toBeTruthy();
    typeInto(byLabel(container, 'E-mail'), 'ada@example.com');
    typeInto(byLabel(container, 'Password'), 'long enough secret');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => expect(byRole(container, 'button', 'Pay now')).toBeTruthy());
    expect(callsTo('identity.login').map((call) => call.input)).toEqual([{ email: 'ada@example.com', password: 'long enough secret' }]);
    expect(textOf(container)).toContain('Paying Mia Market');
    // The free-text name alone could be anyone's: the unique username shows beside it.
    expect(textOf(container)).toContain('Quern username: @shop_one');
    expect(cells(container)[3]).toEqual(['Total', '350,000 MLX']);
  });

  it('given a visitor, then Register and Forgot password links carry this exact checkout as the return path', async () => {
    const path = checkoutPath();
    const { container } = await renderCheckout({ auth: visitor, path });
    const next = (name: string) => new URL(byRole(container, 'link', name).getAttribute('href') ?? '', 'http://quern.test');
    expect(next('Register').pathname).toBe('/register');
    expect(next('Register').searchParams.get('next')).toBe(path);
    expect(next('Forgot password?').pathname).toBe('/password-reset');
    expect(next('Forgot password?').searchParams.get('next')).toBe(path);
  });

  it('given a wrong password, then the server’s message and still the form', async () => {
    const { container } = await renderCheckout({
      auth: visitor,
      procedures: {
        'identity.login': () => ({
          error: { status: 401, code: 'UNAUTHENTICATED', messageKey: 'errors:invalidCredentials', message: 'errors:invalidCredentials' },
        }),
      },
    });
    typeInto(byLabel(container, 'E-mail'), 'ada@example.com');
    typeInto(byLabel(container, 'Password'), 'wrong password here');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => expect(container.querySelector('.form-alert-error')?.textContent).toMatch(/\S/));
    expect(container.querySelector('.form-alert-error')?.textContent).not.toContain('errors:');
    expect(byRole(container, 'button', 'Login')).toBeTruthy();
  });
});

describe('CheckoutPage sign-in with two-factor', () => {
  it('given an account with two-factor on, when the password is right, then it asks for the code and signing in with it offers Pay now', async () => {
    const { container, callsTo } = await renderCheckout({
      auth: visitor,
      procedures: {
        'identity.login': () => ({ data: { two_factor_required: true, challenge: 'challenge-1' } }),
        'identity.loginTwoFactor': () => ({ data: { id: 'user-1', email: 'ada@example.com' } }),
      },
    });
    typeInto(byLabel(container, 'E-mail'), 'ada@example.com');
    typeInto(byLabel(container, 'Password'), 'long enough secret');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => byLabel(container, 'Code'));
    expect(byRole(container, 'button', 'Verify')).toBeTruthy();
    typeInto(byLabel(container, 'Code'), '123456');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => expect(byRole(container, 'button', 'Pay now')).toBeTruthy());
    expect(callsTo('identity.loginTwoFactor').map((call) => call.input)).toEqual([{ challenge: 'challenge-1', code: '123456' }]);
  });

  it('given a wrong code, then the server’s message and still the code form', async () => {
    const message = 'That code is not valid. Enter the current code from your authenticator app.';
    const { container } = await renderCheckout({
      auth: visitor,
      procedures: {
        'identity.login': () => ({ data: { two_factor_required: true, challenge: 'challenge-1' } }),
        'identity.loginTwoFactor': () => ({
          error: {
            status: 400,
            code: 'VALIDATION',
            messageKey: 'errors:twoFactorCodeInvalid',
            message,
            fields: { code: 'errors:twoFactorCodeInvalid' },
          },
        }),
      },
    });
    typeInto(byLabel(container, 'E-mail'), 'ada@example.com');
    typeInto(byLabel(container, 'Password'), 'long enough secret');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => byLabel(container, 'Code'));
    typeInto(byLabel(container, 'Code'), '000000');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => expect(container.querySelector('.form-alert-error')?.textContent).toBe(message));
    expect(byLabel(container, 'Code')).toBeTruthy();
  });

  it('given a recovery code instead, then it is sent as recovery_code', async () => {
    const { container, callsTo } = await renderCheckout({
      auth: visitor,
      procedures: {
        'identity.login': () => ({ data: { two_factor_required: true, challenge: 'challenge-1' } }),
        'identity.loginTwoFactor': () => ({ data: { id: 'user-1', email: 'ada@example.com' } }),
      },
    });
    typeInto(byLabel(container, 'E-mail'), 'ada@example.com');
    typeInto(byLabel(container, 'Password'), 'long enough secret');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => byRole(container, 'button', 'Use a recovery code instead'));
    click(byRole(container, 'button', 'Use a recovery code instead'));
    typeInto(byLabel(container, 'Recovery code'), 'abcde-12345');
    await submit(container.querySelector('form') as HTMLFormElement);
    await waitFor(() => expect(byRole(container, 'button', 'Pay now')).toBeTruthy());
    expect(callsTo('identity.loginTwoFactor').map((call) => call.input)).toEqual([
      { challenge: 'challenge-1', recovery_code: 'abcde-12345' },
    ]);
  });
});

describe('CheckoutPage signed in', () => {
  it('given an unknown shop, then its message and no Pay button', async () => {
    const { container } = await renderCheckout({ procedures: { 'checkout.merchant': () => ({ data: { found: false } }) } });
    await waitFor(() => expect(textOf(container)).toContain('The shop to be paid is not a user of this service.'));
    expect(container.querySelectorAll('button')).toHaveLength(0);
  });

  it('given Pay now clicked twice, then one payment of the query’s order, the message to the opener at the redirect’s origin, and the popup closes', async () => {
    const posted: unknown[][] = [];
    Object.defineProperty(window, 'opener', { value: { postMessage: (...args: unknown[]) => posted.push(args) }, configurable: true });
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    const { container, callsTo } = await renderCheckout();
    const pay = await waitFor(() => byRole(container, 'button', 'Pay now'));
    click(pay);
    click(pay);
    await waitFor(() => expect(textOf(container)).toContain('Payment complete'));
    expect(callsTo('checkout.pay').map((call) => call.input)).toEqual([
      {
        cart: [
          { name: 'Tea', price: '100000', quantity: '3' },
          { name: 'Cup', price: '50000', quantity: '1' },
        ],
        price: '350000',
        currency: 'mlx',
        to: 'shop_one',
      },
    ]);
    expect(posted).toEqual([
      [
        {
          origin: window.location.origin,
          url: window.location.href,
          target: 'checkout_window',
          event: 'checkout',
          success: true,
          token: 'token-1',
          order: 'order-1',
          timestamp: expect.any(Number),
        },
        'https://shop.example:8443',
      ],
    ]);
    expect(close).toHaveBeenCalledTimes(1);
    expect(byRole(container, 'link', 'Back to the shop').getAttribute('href')).toBe(REDIRECT);
  });

  it('given no opener, then nothing is posted, the popup stays and shows the done state', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    const { container } = await renderCheckout({ path: checkoutPath({ redirect: null }) });
    click(await waitFor(() => byRole(container, 'button', 'Pay now')));
    await waitFor(() => expect(textOf(container)).toContain('Your order order-1 is paid.'));
    expect(textOf(container)).toContain('You can close this window.');
    expect(close).not.toHaveBeenCalled();
  });

  it('given paying oneself, then the server’s message and Pay now again', async () => {
    const { container } = await renderCheckout({
      procedures: {
        'checkout.pay': () => ({
          error: {
            status: 400,
            code: 'VALIDATION',
            messageKey: 'errors:checkoutToSelf',
            message: 'errors:checkoutToSelf',
            fields: { to: 'errors:checkoutToSelf' },
          },
        }),
      },
    });
    click(await waitFor(() => byRole(container, 'button', 'Pay now')));
    await waitFor(() => expect(textOf(container)).toContain('You cannot pay your own shop.'));
    expect(byRole(container, 'button', 'Pay now')).toBeTruthy();
  });

  it('given 4001, then the spec’s message, three top-ups (5, 10, 15 USD); one through PayPal, then Complete order pays', async () => {
    let pays = 0;
    const { container, callsTo } = await renderCheckout({
      procedures: { 'checkout.pay': () => (++pays === 1 ? short : paid) },
    });
    click(await waitFor(() => byRole(container, 'button', 'Pay now')));
    await waitFor(() =>
      expect(textOf(container)).toContain(
        'You don’t have enough millix in Quern to complete this purchase. An additional 250,000 (mlx) is needed to complete this purchase.',
      ),
    );
    const options = Array.from(container.querySelectorAll('.checkout-topup-options button'), (b) => b.textContent);
    // Each says the MLX it buys at the answer's rate (0.0000125 USD per MLX: 5 USD buys 400,000).
    expect(options).toEqual(['Add 5.00 USD · 400,000 MLX', 'Add 10.00 USD · 800,000 MLX', 'Add 15.00 USD · 1,200,000 MLX']);
    click(byRole(container, 'button', 'Add 5.00 USD · 400,000 MLX'));
    click(await waitFor(() => byRole(container, 'button', 'PayPal')));
    await waitFor(() => expect(textOf(container)).toContain('Millix added successfully! Please proceed to complete your order.'));
    expect(callsTo('purchases.createOrder').map((call) => call.input)).toEqual([{ usd: '5.00' }]);
    click(byRole(container, 'button', 'Complete order'));
    await waitFor(() => expect(textOf(container)).toContain('Your order order-1 is paid.'));
    expect(callsTo('checkout.pay')).toHaveLength(2);
  });

  it('given a balance that covers the order, then who pays and the balance, and no shortfall', async () => {
    const { container } = await renderCheckout({ procedures: { 'wallet.balance': () => ({ data: { stable: '350000', unstable: '0' } }) } });
    await waitFor(() => expect(textOf(container)).toContain('Paying as @ada_l'));
    await waitFor(() => expect(textOf(container)).toContain('Your balance: 350,000 MLX'));
    expect(container.querySelector('[data-testid="checkout-shortfall"]')).toBeNull();
    expect(byRole(container, 'button', 'Pay now')).toBeTruthy();
  });

  it('given a short balance, then the shortfall (total - balance, the 4001 figure) before the click, said once after it', async () => {
    const { container } = await renderCheckout({
      procedures: { 'wallet.balance': () => ({ data: { stable: '100000', unstable: '0' } }), 'checkout.pay': () => short },
    });
    const shortfall = () => container.querySelector('[data-testid="checkout-shortfall"]');
    await waitFor(() =>
      expect(shortfall()?.textContent).toBe(
        'Your balance is not enough for this order. An additional 250,000 (mlx) is needed to complete this purchase.',
      ),
    );
    expect(textOf(container)).toContain('Your balance: 100,000 MLX');
    click(byRole(container, 'button', 'Pay now'));
    await waitFor(() => expect(textOf(container)).toContain('An additional 250,000 (mlx) is needed to complete this purchase.'));
    await waitFor(() => expect(shortfall()).toBeNull());
  });

  it('given the balance cannot be read, then it says so and Pay now stays', async () => {
    const { container } = await renderCheckout({
      procedures: { 'wallet.balance': () => ({ error: { status: 500, code: 'INTERNAL', messageKey: 'errors:internal', message: 'x' } }) },
    });
    await waitFor(() => expect(textOf(container)).toContain('Your balance cannot be shown right now.'));
    expect(byRole(container, 'button', 'Pay now')).toBeTruthy();
  });

  it('given Spanish, then the page speaks Spanish', async () => {
    const { container } = await renderCheckout({ language: 'es' });
    await waitFor(() => expect(byRole(container, 'button', 'Pagar ahora')).toBeTruthy());
    expect(container.querySelector('h1')?.textContent).toBe('Pago');
    expect(cells(container)[0]).toEqual(['Artículo', 'Precio', 'Cant.']);
    expect(cells(container)[1]).toEqual(['Tea', '100.000 MLX', '3']);
    expect(textOf(container)).toContain('Usuario de Quern: @shop_one');
  });
});

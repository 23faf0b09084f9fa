// Proves the profile's 'Delete account' section: the button opens a confirmation with the focus
// in it and Cancel clears it and gives the focus back; a code is asked for only when two-factor is
// on, and 'Use a recovery code' swaps it for a recovery code; a refused deletion shows the
// server's message and stays signed in; a deletion signs out and lands on / with the notice.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '@quern/api/router';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRPCProvider } from '../../app/data/trpc.js';
import { byLabel, byRole, click, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import { RequireAuth } from '../auth/guards.js';
import { render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';
import HomePage from '../home/HomePage.js';
import { type FakeAnswer, type FakeCall, type FakeProcedures, fakeTrpcFetch, signedIn } from '../../../test/walletTestKit.js';
import { DeleteAccountSection } from './DeleteAccountSection.js';

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => {
  rendered?.unmount();
  vi.restoreAllMocks();
});

const PASSWORD = 'correct horse battery';
const deleted = { message: 'Account deleted.' };

function server(overrides: FakeProcedures = {}, { twoFactor = false }: { twoFactor?: boolean } = {}): FakeProcedures {
  return {
    'identity.twoFactorStatus': () => ({ data: { enabled: twoFactor, recoveryCodesLeft: twoFactor ? 10 : 0 } }),
    'identity.deleteAccount': () => ({ data: deleted }),
    ...overrides,
  };
}

const refusal = (
  messageKey: string,
  message: string,
  fields: Record<string, string> = {},
  status = 400,
  params: Record<string, unknown> = {},
  /** The rule that refused, as the server names it beside the message key (RefusalError). */
  reason?: string,
): FakeAnswer => ({
  error: {
    status,
    code: status === 429 ? 'RATE_LIMITED' : status === 409 ? 'CONFLICT' : 'VALIDATION',
    messageKey,
    message,
    fields,
    params,
    ...(reason === undefined ? {} : { reason }),
  },
});

/**
 * The section on a guarded /profile for a signed-in user, beside the real home page and a /login
 * marker, so where a deletion leads (and whether the guard got there first) can be seen.
 */
async function renderSection(procedures: FakeProcedures, language: TestLanguage = 'en') {
  const fake = fakeTrpcFetch(procedures);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const trpcClient = createTRPCClient<AppRouter>({ links: [httpLink({ url: 'http://quern.test/trpc', fetch: fake.fetch })] });
  const page = await render(
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient} keyPrefix={signedIn.id ?? 'visitor'}>
        <Routes>
          <Route path="/" element={<HomePage />} />
          <Route path="/login" element={<p>Sign-in page</p>} />
          <Route element={<RequireAuth />}>
            <Route path="/profile" element={<DeleteAccountSection />} />
          </Route>
        </Routes>
      </TRPCProvider>
    </QueryClientProvider>,
    { language, auth: signedIn, path: '/profile' },
  );
  rendered = {
    calls: fake.calls,
    container: page.container,
    unmount() {
      page.unmount();
      queryClient.clear();
    },
  };
  // The two-factor status has answered once the section knows which fields to ask for.
  await waitFor(() => expect(fake.calls.some((call) => call.path === 'identity.twoFactorStatus')).toBe(true));
  await waitFor(() => byRole(page.container, 'button', language === 'en' ? 'Delete account' : 'Eliminar cuenta'));
  return page.container;
}

const deleteInputs = () => (rendered?.calls ?? []).filter((call) => call.path === 'identity.deleteAccount').map((call) => call.input);
const form = (container: HTMLElement) => container.querySelector('form') as HTMLFormElement;
const labels = (container: HTMLElement) => Array.from(container.querySelectorAll('label'), (label) => label.textContent);
const open = (container: HTMLElement) => click(byRole(container, 'button', 'Delete account'));

describe('DeleteAccountSection', () => {
  it('given two-factor off, when opened, then it asks for the password only, with the focus in it', async () => {
    const container = await renderSection(server());
    expect(textOf(container)).toContain('Your username stays reserved, so no one can take it over.');
    expect(textOf(container)).toContain('Your wallet must be empty first.');
    expect(container.querySelector('form')).toBeNull();

    open(container);

    const password = byLabel(container, 'Password');
    expect(labels(container)).toEqual(['Password']);
    expect(password.type).toBe('password');
    expect(password.autocomplete).toBe('current-password');
    expect(document.activeElement).toBe(password);
    expect(byRole(container, 'button', 'Delete my account').className).toContain('button-danger');
  });

  it('given typed text and an error, when cancelled, then the confirmation closes, the focus is back on the button, and reopening shows it empty', async () => {
    const container = await renderSection(server());
    open(container);
    await submit(form(container));
    expect(container.querySelector('#delete-account-password-error')?.textContent).toBe('Enter your password to delete your account.');
    typeInto(byLabel(container, 'Password'), PASSWORD);

    click(byRole(container, 'button', 'Cancel'));

    expect(container.querySelector('form')).toBeNull();
    expect(document.activeElement).toBe(byRole(container, 'button', 'Delete account'));
    open(container);
    expect(byLabel(container, 'Password').value).toBe('');
    expect(container.querySelector('.field-error')).toBeNull();
    expect(deleteInputs()).toEqual([]);
  });

  it('given two-factor on, when opened, then it asks for a code, and the toggle swaps it for a recovery code, which is sent', async () => {
    const container = await renderSection(server({}, { twoFactor: true }));
    open(container);
    const code = byLabel(container, 'Code');
    expect(labels(container)).toEqual(['Password', 'Code']);
    expect(code.inputMode).toBe('numeric');
    expect(code.autocomplete).toBe('one-time-code');
    typeInto(code, '123456');

    click(byRole(container, 'button', 'Use a recovery code'));

    expect(labels(container)).toEqual(['Password', 'Recovery code']);
    typeInto(byLabel(container, 'Password'), PASSWORD);
    await submit(form(container));
    expect(textOf(container)).toContain('Enter one of your recovery codes.');
    typeInto(byLabel(container, 'Recovery code'), 'abcd0-12345');
    await submit(form(container));
    await waitFor(() => expect(deleteInputs()).toEqual([{ password: PASSWORD, recovery_code: 'abcd0-12345' }]));

    rendered?.unmount();
    const again = await renderSection(server({}, { twoFactor: true }));
    open(again);
    click(byRole(again, 'button', 'Use a recovery code'));
    click(byRole(again, 'button', 'Use a code from the app'));
    expect(labels(again)).toEqual(['Password', 'Code']);
    typeInto(byLabel(again, 'Password'), PASSWORD);
    typeInto(byLabel(again, 'Code'), '123 456');
    await submit(form(again));
    await waitFor(() => expect(deleteInputs()).toEqual([{ password: PASSWORD, code: '123456' }]));
  });

  it('given two-factor on and a code that is not six digits, when submitted, then the field says so and nothing is sent', async () => {
    const container = await renderSection(server({}, { twoFactor: true }));
    open(container);
    typeInto(byLabel(container, 'Password'), PASSWORD);
    typeInto(byLabel(container, 'Code'), '12345');
    await submit(form(container));
    expect(container.querySelector('#delete-account-code-error')?.textContent).toBe(
      'That code is not valid. Enter the current code from your authenticator app.',
    );
    expect(byLabel(container, 'Code').getAttribute('aria-invalid')).toBe('true');
    expect(deleteInputs()).toEqual([]);
  });

  it.each([
    [
      'a wrong password',
      refusal('errors:wrongCurrentPassword', 'wrong', { current_password: 'errors:wrongCurrentPassword' }),
      'The current password is not correct.',
      'true',
    ],
    [
      'a wrong password the server does not tie to a field',
      refusal('errors:wrongCurrentPassword', 'wrong'),
      'The current password is not correct.',
      'true',
    ],
    [
      'a wallet that is not empty',
      refusal('errors:accountNotEmpty', 'not empty', {}, 409),
      'Your wallet must be empty before the account can be deleted: send your MLX to another wallet and wait for pending transactions to finish.',
      null,
    ],
    [
      'too many attempts',
      refusal('errors:tooManyAttempts', 'wait', {}, 429, { minutes: 15 }),
      'Too many failed sign-in attempts. Please try again in 15 minutes.',
      null,
    ],
  ])(
    'given %s, when submitted, then the server message shows in an alert and the user stays signed in on the page',
    async (_, answer, text, passwordInvalid) => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const container = await renderSection(server({ 'identity.deleteAccount': () => answer }));
      open(container);
      typeInto(byLabel(container, 'Password'), PASSWORD);
      await submit(form(container));

      await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe(text));
      const password = byLabel(container, 'Password');
      expect(password.getAttribute('aria-invalid')).toBe(passwordInvalid);
      expect(password.value).toBe(PASSWORD);
      expect(byRole(container, 'button', 'Delete my account').hasAttribute('disabled')).toBe(false);
      expect(textOf(container)).not.toContain('Sign-in page');
    },
  );

  it('given two-factor off as far as the page knew, when the server asks for a code, then the code field appears', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const container = await renderSection(
      server({
        'identity.deleteAccount': (_input, call) =>
          call === 0
            ? refusal(
                'errors:twoFactorCodeRequired',
                'Enter the code',
                { code: 'errors:twoFactorCodeRequired' },
                400,
                {},
                'twoFactorCodeRequired',
              )
            : { data: deleted },
      }),
    );
    open(container);
    typeInto(byLabel(container, 'Password'), PASSWORD);
    await submit(form(container));
    await waitFor(() => expect(labels(container)).toEqual(['Password', 'Code']));
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('Enter the code from your authenticator app.');
  });

  it('given the right password, when submitted, then the button waits, and then the user is signed out on / with the notice, not sent to /login', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const container = await renderSection(
      server({ 'identity.deleteAccount': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)) }),
    );
    open(container);
    typeInto(byLabel(container, 'Password'), PASSWORD);
    await submit(form(container));
    await waitFor(() => expect(deleteInputs()).toEqual([{ password: PASSWORD }]));
    const busy = byRole(container, 'button', 'Deleting…');
    expect(busy.hasAttribute('disabled')).toBe(true);
    await submit(form(container));
    expect(deleteInputs()).toHaveLength(1);

    answer({ data: deleted });

    const notice = await waitFor(() => {
      const element = container.querySelector('[role="status"]');
      expect(element?.textContent).toBe('Your account has been deleted.');
      return element;
    });
    expect(notice?.className).toBe('home__notice');
    // The home page for a visitor: signed out, so Register and Sign in are offered.
    expect(byRole(container, 'link', 'Register').getAttribute('href')).toBe('/register');
    expect(textOf(container)).not.toContain('Sign-in page');
    expect(container.querySelector('form')).toBeNull();
  });

  it('speaks Spanish', async () => {
    const container = await renderSection(server({}, { twoFactor: true }), 'es');
    click(byRole(container, 'button', 'Eliminar cuenta'));
    expect(labels(container)).toEqual(['Contraseña', 'Código']);
    expect(byRole(container, 'button', 'Usar un código de recuperación')).toBeDefined();
    expect(byRole(container, 'button', 'Eliminar mi cuenta')).toBeDefined();
    expect(textOf(container)).toContain('Su nombre de usuario queda reservado');
  });
});

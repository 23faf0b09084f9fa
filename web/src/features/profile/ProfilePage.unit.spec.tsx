// Proves the profile page: the guard's 'Loading...' and /login; the user's values; each editor's
// view and edit modes (Edit, Save updates the value and closes, Cancel closes unsaved); one field
// per save; 'Passwords do not match.' with nothing sent; Cancel on the password editor clearing
// its inputs and error; the server's message on a refused save; and Spanish.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { byLabel, byRole, click, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import { RequireAuth } from '../auth/guards.js';
import { render, type Rendered, visitor } from '../../../test/renderForTest.js';
import { type FakeCall, type FakeProcedures, installDialogStandIn, renderWalletPage, signedIn } from '../../../test/walletTestKit.js';
import ProfilePage from './ProfilePage.js';

beforeAll(installDialogStandIn);

let rendered: (Rendered & { calls?: FakeCall[] }) | undefined;
afterEach(() => {
  rendered?.unmount();
  vi.restoreAllMocks();
});
/** The spec logs profile save errors; the spy keeps them out of the test output and proves it. */
const logSpy = () => vi.spyOn(console, 'error').mockImplementation(() => undefined);

const ada = { username: 'ada_l', first_name: 'Ada', last_name: 'Lovelace', phone_number: '+15550102030' };
/** A fake server holding one user: updates change it, as the api does, and answer the profile. */
function userServer(overrides: FakeProcedures = {}): FakeProcedures {
  const user = { ...ada };
  return {
    'identity.user': () => ({ data: user }),
    // The two-factor row (TwoFactorSection.unit.spec.tsx proves it) loads its status too.
    'identity.twoFactorStatus': () => ({ data: { enabled: false, recoveryCodesLeft: 0 } }),
    'identity.update': (input) => {
      const { id: _id, current_password: _current, password: _password, ...fields } = input as Record<string, string>;
      Object.assign(user, fields);
      return { data: user };
    },
    ...overrides,
  };
}

async function renderPage(procedures: FakeProcedures, language: 'en' | 'es' = 'en') {
  rendered = await renderWalletPage(<ProfilePage />, { procedures, path: '/profile', language });
  const container = rendered.container;
  await waitFor(() => expect(container.querySelector('[data-testid="username-value"]')?.textContent).toBe('ada_l'));
  return container;
}

const value = (container: HTMLElement, id: string) => container.querySelector(`[data-testid="${id}-value"]`)?.textContent;
const updates = () => (rendered?.calls ?? []).filter((call) => call.path === 'identity.update').map((call) => call.input);
const form = (container: HTMLElement) => container.querySelector('form') as HTMLFormElement;

function guarded(auth: typeof visitor) {
  return render(
    <Routes>
      <Route element={<RequireAuth />}>
        <Route path="/profile" element={<ProfilePage />} />
      </Route>
      <Route path="/login" element={<p>Login page</p>} />
    </Routes>,
    { auth, path: '/profile' },
  );
}

describe('ProfilePage access', () => {
  it('given the session still loading, then it shows Loading...', async () => {
    rendered = await guarded({ ...visitor, loading: true });
    expect(textOf(rendered.container)).toBe('Loading...');
  });

  it('given a visitor, then it goes to /login', async () => {
    rendered = await guarded(visitor);
    await waitFor(() => expect(textOf(rendered!.container)).toBe('Login page'));
  });
});

describe('ProfilePage', () => {
  it('shows the username and the four values in view mode, asking for the signed-in user', async () => {
    const container = await renderPage(userServer());
    expect(container.querySelector('h1')?.textContent).toBe('Profile');
    expect([value(container, 'first_name'), value(container, 'last_name'), value(container, 'phone_number')]).toEqual([
      'Ada',
      'Lovelace',
      '+15550102030',
    ]);
    expect(textOf(container)).toContain('Password');
    expect(container.querySelectorAll('input')).toHaveLength(0);
    expect(rendered?.calls?.find((call) => call.path === 'identity.user')?.input).toEqual({ id: signedIn.id });
  });

  it('when a first name is edited and saved, then one field is sent, the saved value shows and the editor closes', async () => {
    const container = await renderPage(userServer());
    click(byRole(container, 'button', 'Edit First name'));
    const input = byLabel(container, 'First name');
    expect(input.value).toBe('Ada');
    typeInto(input, 'Grace');
    await submit(form(container));
    await waitFor(() => expect(value(container, 'first_name')).toBe('Grace'));
    expect(container.querySelectorAll('input')).toHaveLength(0);
    expect(updates()).toEqual([{ id: signedIn.id, first_name: 'Grace' }]);
  });

  it('when the phone is saved, then it shows the number as the server stored it', async () => {
    const container = await renderPage(userServer({ 'identity.update': () => ({ data: { ...ada, phone_number: '+15550109999' } }) }));
    click(byRole(container, 'button', 'Edit Phone number'));
    typeInto(byLabel(container, 'Phone number'), '+1 555 010 9999');
    await submit(form(container));
    await waitFor(() => expect(value(container, 'phone_number')).toBe('+15550109999'));
    expect(updates()).toEqual([{ id: signedIn.id, phone_number: '+1 555 010 9999' }]);
  });

  it('when an edit is cancelled, then nothing is sent and the old value shows', async () => {
    const container = await renderPage(userServer());
    click(byRole(container, 'button', 'Edit Last name'));
    typeInto(byLabel(container, 'Last name'), 'Byron');
    click(byRole(container, 'button', 'Cancel'));
    expect(value(container, 'last_name')).toBe('Lovelace');
    expect(updates()).toEqual([]);
  });

  it('when the server refuses a phone, then the editor stays open with its message', async () => {
    const logged = logSpy();
    const taken = 'An account with this phone number already exists.';
    const container = await renderPage(
      userServer({
        'identity.update': () => ({
          error: {
            status: 409,
            code: 'CONFLICT',
            messageKey: 'errors:phoneTaken',
            message: taken,
            fields: { phone_number: 'errors:phoneTaken' },
          },
        }),
      }),
    );
    click(byRole(container, 'button', 'Edit Phone number'));
    typeInto(byLabel(container, 'Phone number'), '+15550000000');
    await submit(form(container));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe(taken));
    expect(byLabel(container, 'Phone number').value).toBe('+15550000000');
    expect(logged).toHaveBeenCalledWith('[profile] save failed', expect.anything());
  });
});

describe('ProfilePage password', () => {
  const openPasswordEditor = (container: HTMLElement) => click(byRole(container, 'button', 'Edit Password'));

  it('given a confirmation that differs, when saved, then Passwords do not match. and nothing is sent', async () => {
    const container = await renderPage(userServer());
    openPasswordEditor(container);
    typeInto(byLabel(container, 'Current password'), 'old secret one');
    typeInto(byLabel(container, 'New password'), 'a new secret');
    typeInto(byLabel(container, 'Confirm new password'), 'a new secreT');
    await submit(form(container));
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('Passwords do not match.');
    expect(updates()).toEqual([]);
  });

  it('when cancelled, then the inputs and the error are cleared for the next edit', async () => {
    const container = await renderPage(userServer());
    openPasswordEditor(container);
    typeInto(byLabel(container, 'New password'), 'a new secret');
    typeInto(byLabel(container, 'Confirm new password'), 'different');
    await submit(form(container));
    expect(container.querySelector('[role="alert"]')).not.toBeNull();
    click(byRole(container, 'button', 'Cancel'));
    expect(container.querySelectorAll('input')).toHaveLength(0);
    openPasswordEditor(container);
    expect(['Current password', 'New password', 'Confirm new password'].map((label) => byLabel(container, label).value)).toEqual([
      '',
      '',
      '',
    ]);
    expect(container.querySelector('[role="alert"]')).toBeNull();
  });

  it('when matching passwords are saved, then the new and current passwords are sent and the editor closes', async () => {
    const container = await renderPage(userServer());
    openPasswordEditor(container);
    typeInto(byLabel(container, 'Current password'), 'old secret one');
    typeInto(byLabel(container, 'New password'), 'a new secret');
    typeInto(byLabel(container, 'Confirm new password'), 'a new secret');
    await submit(form(container));
    await waitFor(() => expect(textOf(container)).toContain('Password changed.'));
    expect(container.querySelectorAll('input')).toHaveLength(0);
    expect(updates()).toEqual([{ id: signedIn.id, password: 'a new secret', current_password: 'old secret one' }]);
  });

  it('given a wrong current password, when saved, then the server message shows and the editor stays', async () => {
    const logged = logSpy();
    const container = await renderPage(
      userServer({
        'identity.update': () => ({
          error: {
            status: 400,
            code: 'VALIDATION',
            messageKey: 'errors:wrongCurrentPassword',
            message: 'The current password is not correct.',
            fields: { current_password: 'errors:wrongCurrentPassword' },
          },
        }),
      }),
    );
    openPasswordEditor(container);
    typeInto(byLabel(container, 'Current password'), 'wrong');
    typeInto(byLabel(container, 'New password'), 'a new secret');
    typeInto(byLabel(container, 'Confirm new password'), 'a new secret');
    await submit(form(container));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('The current password is not correct.'));
    expect(byLabel(container, 'New password').value).toBe('a new secret');
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it('speaks Spanish', async () => {
    const container = await renderPage(userServer(), 'es');
    expect(container.querySelector('h1')?.textContent).toBe('Perfil');
    click(byRole(container, 'button', 'Editar Contraseña'));
    typeInto(byLabel(container, 'Contraseña nueva'), 'uno');
    typeInto(byLabel(container, 'Confirme la contraseña nueva'), 'dos');
    await submit(form(container));
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('Las contraseñas no coinciden.');
  });
});

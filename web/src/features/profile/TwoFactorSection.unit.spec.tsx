// Proves the profile's two-factor row: off, 'Turn on' shows the QR code and the secret as text
// and asks for a 'Code'; a refused code keeps the form with the server's message; a valid one
// shows the ten recovery codes once; on, turning off sends the password and a code; and Spanish.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byRole, click, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import { type FakeCall, type FakeProcedures, renderWalletPage } from '../../../test/walletTestKit.js';
import { TwoFactorSection } from './TwoFactorSection.js';

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => {
  rendered?.unmount();
  vi.restoreAllMocks();
});

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-12345`);
const enrollment = {
  enrollment_id: 'e-1',
  secret: SECRET,
  otpauth_uri: `otpauth://totp/Quern:ada?secret=${SECRET}`,
  qr_svg: '<svg></svg>',
};

/** A fake server that turns two-factor on or off as the api does. */
function server(overrides: FakeProcedures = {}): FakeProcedures {
  let enabled = false;
  return {
    'identity.twoFactorStatus': () => ({ data: { enabled, recoveryCodesLeft: enabled ? 10 : 0 } }),
    'identity.startTwoFactor': () => ({ data: enrollment }),
    'identity.confirmTwoFactor': () => {
      enabled = true;
      return { data: { recovery_codes: codes } };
    },
    'identity.disableTwoFactor': () => {
      enabled = false;
      return { data: { success: true } };
    },
    ...overrides,
  };
}

async function renderSection(procedures: FakeProcedures, language: 'en' | 'es' = 'en') {
  rendered = await renderWalletPage(<TwoFactorSection />, { procedures, path: '/profile', language });
  return rendered.container;
}
const inputsOf = (path: string) => (rendered?.calls ?? []).filter((call) => call.path === path).map((call) => call.input);
const form = (container: HTMLElement) => container.querySelector('form') as HTMLFormElement;

describe('TwoFactorSection', () => {
  it('when turned on with a valid code, then it showed the QR and the secret, and shows the recovery codes once', async () => {
    const container = await renderSection(server());
    await waitFor(() => expect(textOf(container)).toContain('Off: signing in asks only for your password.'));
    click(byRole(container, 'button', 'Turn on'));
    await waitFor(() => expect(container.querySelector('[data-testid="two-factor-secret"]')?.textContent).toBe(SECRET));
    expect(container.querySelector('img')?.getAttribute('src')).toBe(`data:image/svg+xml;utf8,${encodeURIComponent('<svg></svg>')}`);
    typeInto(byLabel(container, 'Code'), '123456');
    await submit(form(container));
    await waitFor(() => expect(container.querySelectorAll('[data-testid="recovery-codes"] li')).toHaveLength(10));
    expect(inputsOf('identity.confirmTwoFactor')).toEqual([{ enrollment_id: 'e-1', code: '123456' }]);
    click(byRole(container, 'button', 'I have saved them'));
    await waitFor(() => expect(textOf(container)).toContain('Recovery codes left: 10'));
    expect(container.querySelector('[data-testid="recovery-codes"]')).toBeNull();
  });

  it('when the code is refused, then the message shows and the form stays', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const message = 'That code is not valid. Enter the current code from your authenticator app.';
    const container = await renderSection(
      server({
        'identity.confirmTwoFactor': () => ({
          error: {
            status: 400,
            code: 'VALIDATION',
            messageKey: 'errors:twoFactorCodeInvalid',
            message,
            fields: { code: 'errors:twoFactorCodeInvalid' },
          },
        }),
      }),
    );
    await waitFor(() => byRole(container, 'button', 'Turn on'));
    click(byRole(container, 'button', 'Turn on'));
    await waitFor(() => byLabel(container, 'Code'));
    typeInto(byLabel(container, 'Code'), '000000');
    await submit(form(container));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe(message));
    expect(byLabel(container, 'Code').value).toBe('000000');
    expect(container.querySelector('[data-testid="recovery-codes"]')).toBeNull();
  });

  it('when on, turning it off sends the password and a code', async () => {
    const procedures = server();
    const container = await renderSection(procedures);
    await waitFor(() => byRole(container, 'button', 'Turn on'));
    click(byRole(container, 'button', 'Turn on'));
    await waitFor(() => byLabel(container, 'Code'));
    typeInto(byLabel(container, 'Code'), '123456');
    await submit(form(container));
    await waitFor(() => byRole(container, 'button', 'I have saved them'));
    click(byRole(container, 'button', 'I have saved them'));
    await waitFor(() => byRole(container, 'button', 'Turn off'));
    click(byRole(container, 'button', 'Turn off'));
    typeInto(byLabel(container, 'Password'), 'correct horse battery');
    typeInto(byLabel(container, 'Code'), '654321');
    await submit(form(container));
    await waitFor(() => expect(textOf(container)).toContain('Off: signing in asks only for your password.'));
    expect(inputsOf('identity.disableTwoFactor')).toEqual([{ password: 'correct horse battery', code: '654321' }]);
  });

  it('speaks Spanish', async () => {
    const container = await renderSection(server(), 'es');
    await waitFor(() => byRole(container, 'button', 'Activar'));
    expect(textOf(container)).toContain('Autenticación en dos pasos');
  });
});

// Proves the API Direct page's states: no key ('No data' card with 'No key available. Please
// generate one.', Delete disabled), a masked key, a generated key shown in full once with a copy
// button, delete back to no key, the spec's two failure messages, the warning, and Spanish; with a
// key in place Generate and Delete ask first in a dialog (Cancel calls nothing), and the password
// step (ADR 045) still follows the answer.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byLabel, byRole, click, textOf, typeInto, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import {
  type FakeAnswer,
  type FakeCall,
  type FakeProcedures,
  installDialogStandIn,
  renderWalletPage,
} from '../../../test/walletTestKit.js';
import ApiDirectPage from './ApiDirectPage.js';

beforeAll(installDialogStandIn);

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => rendered?.unmount());

const FULL_KEY = `qk_live_${'Ab3_'.repeat(10)}xyZ9`;
const MASKED = 'qk_live_…xyZ9';
const noKey: FakeAnswer = { data: { status: 'success', content: { api_key: null } } };
const maskedKey: FakeAnswer = { data: { status: 'success', content: { api_key: MASKED } } };
const failure: FakeAnswer = { error: { status: 500, code: 'INTERNAL', messageKey: 'errors:internal', message: 'Something went wrong.' } };

async function renderPage(procedures: FakeProcedures, language: 'en' | 'es' = 'en') {
  rendered = await renderWalletPage(<ApiDirectPage />, { procedures, path: '/api-direct', language });
  return rendered.container;
}

const keyText = (container: HTMLElement) => container.querySelector('[data-testid="direct-key"]')?.textContent ?? null;
const button = (container: HTMLElement, name: string) => byRole(container, 'button', name) as HTMLButtonElement;
const confirmDialog = (container: HTMLElement) => container.querySelector<HTMLElement>('dialog[role="alertdialog"]');
const callsTo = (path: string) => rendered?.calls.filter((c) => c.path === path).length ?? 0;
const generated: FakeAnswer = { data: { status: 'success', message: 'API key generated.', content: { api_key: FULL_KEY } } };
const reauthRequired: FakeAnswer = {
  error: {
    status: 403,
    code: 'REAUTHENTICATION_REQUIRED',
    messageKey: 'errors:reauthenticationRequired',
    message: 'Confirm your password.',
  },
};

describe('ApiDirectPage', () => {
  it('given no key, then it shows the No data card, the warning, Generate, and a disabled Delete', async () => {
    const container = await renderPage({ 'direct.keyGet': () => noKey });
    await waitFor(() => expect(textOf(container)).toContain('No key available. Please generate one.'));
    expect(container.querySelector('[data-testid="direct-no-data"]')?.textContent).toContain('No data');
    expect(textOf(container)).toContain('Generating a new key invalidates the previous one at once.');
    expect(container.querySelector('h1')?.textContent).toBe('API Direct');
    expect(button(container, 'Generate').disabled).toBe(false);
    expect(button(container, 'Delete').disabled).toBe(true);
  });

  it('given a key, then it shows it masked, without a copy button', async () => {
    const container = await renderPage({ 'direct.keyGet': () => maskedKey });
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    expect(container.querySelector('.copy-button')).toBeNull();
    expect(button(container, 'Delete').disabled).toBe(false);
  });

  it('when Generate succeeds, then the full key is shown once with Copy; a reload would show it masked', async () => {
    const container = await renderPage({
      // The first read has no key; after generating, key-get answers masked, as the api does.
      'direct.keyGet': (_input, call) => (call === 0 ? noKey : maskedKey),
      'direct.keyGenerate': () => ({ data: { status: 'success', message: 'API key generated.', content: { api_key: FULL_KEY } } }),
    });
    await waitFor(() => expect(textOf(container)).toContain('No key available'));
    click(button(container, 'Generate'));
    await waitFor(() => expect(keyText(container)).toBe(FULL_KEY));
    expect(button(container, 'Copy')).toBeTruthy();
    expect(textOf(container)).toContain('it is shown only this once');
    expect(rendered?.calls.filter((c) => c.path === 'direct.keyGet').length).toBeGreaterThanOrEqual(2);
  });

  it('when Generate fails, then it says Key generation failed. Please try again.', async () => {
    const container = await renderPage({ 'direct.keyGet': () => noKey, 'direct.keyGenerate': () => failure });
    await waitFor(() => expect(button(container, 'Generate').disabled).toBe(false));
    click(button(container, 'Generate'));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('Key generation failed. Please try again.'));
    expect(textOf(container)).toContain('No key available. Please generate one.');
  });

  it('when Delete succeeds, then the page shows no key again', async () => {
    const container = await renderPage({
      'direct.keyGet': (_input, call) => (call === 0 ? maskedKey : noKey),
      'direct.keyDelete': () => ({ data: { status: 'success', message: 'API key deleted.' } }),
    });
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    click(button(container, 'Delete'));
    click(button(container, 'Delete key'));
    await waitFor(() => expect(textOf(container)).toContain('No key available. Please generate one.'));
    expect(keyText(container)).toBeNull();
  });

  it('when Delete fails, then it says Key removal failed. and the key stays', async () => {
    const container = await renderPage({ 'direct.keyGet': () => maskedKey, 'direct.keyDelete': () => 'network-failure' });
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    click(button(container, 'Delete'));
    click(button(container, 'Delete key'));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('Key removal failed.'));
    expect(keyText(container)).toBe(MASKED);
  });

  it('given no key, when Generate is clicked, then no confirmation is asked', async () => {
    const container = await renderPage({
      'direct.keyGet': (_input, call) => (call === 0 ? noKey : maskedKey),
      'direct.keyGenerate': () => generated,
    });
    await waitFor(() => expect(textOf(container)).toContain('No key available'));
    click(button(container, 'Generate'));
    expect(confirmDialog(container)).toBeNull();
    await waitFor(() => expect(keyText(container)).toBe(FULL_KEY));
  });

  it('given a key, when Generate is clicked, then a dialog says integrations stop at once, and Cancel calls nothing', async () => {
    const container = await renderPage({ 'direct.keyGet': () => maskedKey, 'direct.keyGenerate': () => generated });
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    click(button(container, 'Generate'));
    const dialog = confirmDialog(container);
    expect(dialog?.textContent).toContain('Replace your API key?');
    expect(dialog?.textContent).toContain('Integrations using the current key stop working at once.');
    click(button(container, 'Cancel'));
    await waitFor(() => expect(confirmDialog(container)).toBeNull());
    expect(callsTo('direct.keyGenerate')).toBe(0);
    expect(keyText(container)).toBe(MASKED);
  });

  it('given a key, when Replace key is confirmed, then the new key is shown', async () => {
    const container = await renderPage({ 'direct.keyGet': () => maskedKey, 'direct.keyGenerate': () => generated });
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    click(button(container, 'Generate'));
    click(button(container, 'Replace key'));
    await waitFor(() => expect(keyText(container)).toBe(FULL_KEY));
    expect(confirmDialog(container)).toBeNull();
    expect(callsTo('direct.keyGenerate')).toBe(1);
  });

  it('when Delete is clicked, then a dialog asks first, and Cancel keeps the key', async () => {
    const container = await renderPage({
      'direct.keyGet': () => maskedKey,
      'direct.keyDelete': () => ({ data: { status: 'success', message: 'API key deleted.' } }),
    });
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    click(button(container, 'Delete'));
    expect(confirmDialog(container)?.textContent).toContain('Delete your API key?');
    expect(confirmDialog(container)?.textContent).toContain('Integrations using the current key stop working at once.');
    click(button(container, 'Cancel'));
    await waitFor(() => expect(confirmDialog(container)).toBeNull());
    expect(callsTo('direct.keyDelete')).toBe(0);
    expect(keyText(container)).toBe(MASKED);
  });

  it('when the server asks for the password after Replace key, then the password dialog follows and the call is retried', async () => {
    const container = await renderPage({
      'direct.keyGet': () => maskedKey,
      'direct.keyGenerate': (_input, call) => (call === 0 ? reauthRequired : generated),
      'identity.twoFactorStatus': () => ({ data: { enabled: false } }),
      'identity.reauthenticate': () => ({ data: { status: 'success' } }),
    });
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    click(button(container, 'Generate'));
    click(button(container, 'Replace key'));
    await waitFor(() => expect(textOf(container)).toContain("Confirm it's you"));
    typeInto(byLabel(container, 'Password'), 'secret password');
    click(button(container, 'Confirm'));
    await waitFor(() => expect(keyText(container)).toBe(FULL_KEY));
    expect(callsTo('direct.keyGenerate')).toBe(2);
    expect(callsTo('identity.reauthenticate')).toBe(1);
  });

  it('in Spanish, the confirmation speaks of usted', async () => {
    const container = await renderPage({ 'direct.keyGet': () => maskedKey }, 'es');
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    click(button(container, 'Eliminar'));
    expect(confirmDialog(container)?.textContent).toContain('¿Eliminar su clave de API?');
    expect(confirmDialog(container)?.textContent).toContain('Las integraciones que usan la clave actual dejan de funcionar de inmediato.');
    expect(button(container, 'Eliminar clave')).toBeTruthy();
    click(button(container, 'Cancelar'));
  });

  it('in Spanish, then the texts are Spanish', async () => {
    const container = await renderPage({ 'direct.keyGet': () => noKey }, 'es');
    await waitFor(() => expect(textOf(container)).toContain('No hay ninguna clave disponible. Por favor, genere una.'));
    expect(button(container, 'Generar')).toBeTruthy();
    expect(button(container, 'Eliminar').disabled).toBe(true);
  });
});

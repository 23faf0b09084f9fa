// Proves the API Direct page's states: no key ('No data' card with 'No key available. Please
// generate one.', Delete disabled), a masked key, a generated key shown in full once with a copy
// button, delete back to no key, the spec's two failure messages, the warning, and Spanish.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byRole, click, textOf, waitFor } from '../../test/dom.js';
import type { Rendered } from '../content/renderForTest.js';
import { type FakeAnswer, type FakeCall, type FakeProcedures, installDialogStandIn, renderWalletPage } from '../wallet/testKit.js';
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
    await waitFor(() => expect(textOf(container)).toContain('No key available. Please generate one.'));
    expect(keyText(container)).toBeNull();
  });

  it('when Delete fails, then it says Key removal failed. and the key stays', async () => {
    const container = await renderPage({ 'direct.keyGet': () => maskedKey, 'direct.keyDelete': () => 'network-failure' });
    await waitFor(() => expect(keyText(container)).toBe(MASKED));
    click(button(container, 'Delete'));
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('Key removal failed.'));
    expect(keyText(container)).toBe(MASKED);
  });

  it('in Spanish, then the texts are Spanish', async () => {
    const container = await renderPage({ 'direct.keyGet': () => noKey }, 'es');
    await waitFor(() => expect(textOf(container)).toContain('No hay ninguna clave disponible. Por favor, genera una.'));
    expect(button(container, 'Generar')).toBeTruthy();
    expect(button(container, 'Eliminar').disabled).toBe(true);
  });
});

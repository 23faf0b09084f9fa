// Proves the contact and support forms: the fields checked with the server's messages first, a missing captcha named by the widget in use ('Verify ALTCHA…' for the built-in one, 'Verify reCAPTCHA' for Google's) and nothing sent, 'reCAPTCHA verification failed' when the check does not pass (nothing sent), and the Success sheet (Ok) or the Error sheet (Try again) with the server's message; /support sends the signed-in user's own id, /contact the typed 'Your email'.
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { byLabel, byRole, click, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import { type FakeCall, type FakeProcedures, installDialogStandIn, renderWalletPage, signedIn } from '../../../test/walletTestKit.js';
import { ContactPage, SupportPage } from './ContactPage.js';

// The real widget needs workers and a server; here the test plays its part (a statechange event).
vi.mock('./loadAltcha.js', () => ({ registerAltcha: () => {} }));

beforeAll(installDialogStandIn);

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => rendered?.unmount());

const verified: FakeProcedures[string] = () => ({ data: { success: true, message: 'Verification passed.' } });
const sentOk: FakeProcedures[string] = () => ({ data: { message: 'Your message was sent. We will reply to ada@example.com.' } });

const altcha: FakeProcedures[string] = () => ({ data: { provider: 'altcha' } });

async function renderForm(page: 'contact' | 'support', procedures: FakeProcedures, language: 'en' | 'es' = 'en') {
  rendered = await renderWalletPage(page === 'contact' ? <ContactPage /> : <SupportPage />, {
    procedures: { 'contact.captchaConfig': altcha, ...procedures },
    path: `/${page}`,
    language,
  });
  const { container } = rendered;
  const form = container.querySelector('form') as HTMLFormElement;
  const sheet = () => container.querySelector('dialog[open]');
  const callsTo = (path: string) => (rendered?.calls ?? []).filter((call) => call.path === path).map((call) => call.input);
  return { container, form, sheet, callsTo };
}

function typeDetails(container: HTMLElement, value: string) {
  const area = container.querySelector('textarea') as HTMLTextAreaElement;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  act(() => {
    setValue?.call(area, value);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function solveCaptcha(container: HTMLElement, payload = 'solved-payload') {
  const widget = await waitFor(() => {
    const element = container.querySelector('altcha-widget');
    if (!element) throw new Error('no widget yet');
    return element as HTMLElement;
  });
  act(() => {
    widget.dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload } }));
  });
}

describe('support form', () => {
  it('given the page, then it shows Subject, Details, the captcha widget and Send, without Your email', async () => {
    const { container } = await renderForm('support', {});
    expect(container.querySelector('h1')?.textContent).toBe('Support');
    expect(byLabel(container, 'Subject')).toBeTruthy();
    expect(container.querySelector('label[for="contact-details"]')?.textContent).toBe('Details');
    await waitFor(() => expect(container.querySelector('altcha-widget')?.getAttribute('challenge')).toBe('/api/captcha/challenge'));
    expect(byRole(container, 'button', 'Send')).toBeTruthy();
    expect(() => byLabel(container, 'Your email')).toThrow();
  });

  it('given empty fields, when sent, then each says all fields are required and nothing is called', async () => {
    const { container, form, callsTo } = await renderForm('support', { 'contact.verify': verified });
    await submit(form);
    await waitFor(() => expect(textOf(container)).toContain('All fields are required'));
    expect(callsTo('contact.verify')).toEqual([]);
  });

  it('given the fields but no solved ALTCHA, when sent, then the message names ALTCHA and nothing is called', async () => {
    const { container, form, callsTo } = await renderForm('support', { 'contact.verify': verified, 'contact.sendSupport': sentOk });
    typeInto(byLabel(container, 'Subject'), 'Stuck');
    typeDetails(container, 'My send is pending');
    await submit(form);
    await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe("Verify ALTCHA: tick “I'm not a robot”"));
    expect(callsTo('contact.verify')).toEqual([]);
    expect(callsTo('contact.sendSupport')).toEqual([]);
  });

  it('given a captcha the server does not accept, when sent, then the Error sheet says reCAPTCHA verification failed and nothing is sent', async () => {
    const { container, form, sheet, callsTo } = await renderForm('support', {
      'contact.verify': () => ({ data: { success: false, message: 'reCAPTCHA verification failed' } }),
      'contact.sendSupport': sentOk,
    });
    typeInto(byLabel(container, 'Subject'), 'Stuck');
    typeDetails(container, 'My send is pending');
    await solveCaptcha(container);
    await submit(form);
    await waitFor(() => expect(sheet()?.querySelector('h2')?.textContent).toBe('Error'));
    expect(sheet()?.textContent).toContain('reCAPTCHA verification failed');
    expect(byRole(sheet() as HTMLElement, 'button', 'Try again')).toBeTruthy();
    expect(callsTo('contact.sendSupport')).toEqual([]);
  });

  it("given a solved captcha, when sent, then the user's own id goes with it and the Success sheet shows the server's message with Ok", async () => {
    const { container, form, sheet, callsTo } = await renderForm('support', { 'contact.verify': verified, 'contact.sendSupport': sentOk });
    typeInto(byLabel(container, 'Subject'), 'Stuck');
    typeDetails(container, 'My send is pending');
    await solveCaptcha(container, 'payload-1');
    await submit(form);
    await waitFor(() => expect(sheet()?.querySelector('h2')?.textContent).toBe('Success'));
    expect(sheet()?.textContent).toContain('Your message was sent. We will reply to ada@example.com.');
    expect(callsTo('contact.verify')).toEqual([{ response: 'payload-1' }]);
    expect(callsTo('contact.sendSupport')).toEqual([
      { userId: signedIn.id, subject: 'Stuck', text: 'My send is pending', captcha: 'payload-1' },
    ]);
    click(byRole(sheet() as HTMLElement, 'button', 'Ok'));
    await waitFor(() => expect(sheet()).toBeNull());
  });

  it("given the server refuses the send, then the Error sheet shows the server's message and Try again", async () => {
    const { container, form, sheet } = await renderForm('support', {
      'contact.verify': verified,
      'contact.sendSupport': () => ({
        error: { status: 429, code: 'RATE_LIMITED', messageKey: 'errors:tooManyMessages', message: 'Too many', params: { minutes: 12 } },
      }),
    });
    typeInto(byLabel(container, 'Subject'), 'Stuck');
    typeDetails(container, 'Again');
    await solveCaptcha(container);
    await submit(form);
    await waitFor(() => expect(sheet()?.textContent).toContain('Too many messages. Try again in 12 minutes.'));
    expect(sheet()?.querySelector('h2')?.textContent).toBe('Error');
  });
});

describe('support form with reCAPTCHA', () => {
  it("given the server says reCAPTCHA and no token, when sent, then Verify reCAPTCHA (the spec's text) and nothing is called", async () => {
    (globalThis as unknown as { grecaptcha: unknown }).grecaptcha = { render: () => 1, reset: () => undefined };
    try {
      const { container, form, callsTo } = await renderForm('support', {
        'contact.captchaConfig': () => ({ data: { provider: 'recaptcha', siteKey: 'site-key-1' } }),
        'contact.verify': verified,
      });
      typeInto(byLabel(container, 'Subject'), 'Stuck');
      typeDetails(container, 'Pending');
      await waitFor(() => expect(container.querySelector('[data-testid="recaptcha"]')).not.toBeNull());
      await submit(form);
      await waitFor(() => expect(container.querySelector('[role="alert"]')?.textContent).toBe('Verify reCAPTCHA'));
      expect(callsTo('contact.verify')).toEqual([]);
    } finally {
      delete (globalThis as unknown as { grecaptcha?: unknown }).grecaptcha;
    }
  });

  it("given the server says reCAPTCHA, then Google's widget is rendered with the site key and its token is what the send spends", async () => {
    const rendering: Array<Record<string, unknown>> = [];
    const resets: number[] = [];
    (globalThis as unknown as { grecaptcha: unknown }).grecaptcha = {
      render: (_box: HTMLElement, options: Record<string, unknown>) => rendering.push(options),
      reset: (id: number) => resets.push(id),
    };
    try {
      const { container, form, sheet, callsTo } = await renderForm('support', {
        'contact.captchaConfig': () => ({ data: { provider: 'recaptcha', siteKey: 'site-key-1' } }),
        'contact.verify': verified,
        'contact.sendSupport': sentOk,
      });
      await waitFor(() => expect(rendering).toHaveLength(1));
      expect(container.querySelector('altcha-widget')).toBeNull();
      expect(rendering[0]?.sitekey).toBe('site-key-1');
      typeInto(byLabel(container, 'Subject'), 'Stuck');
      typeDetails(container, 'Pending');
      const solved = rendering[0]?.callback as ((token: string) => void) | undefined;
      act(() => solved?.('google-token'));
      await submit(form);
      await waitFor(() => expect(sheet()?.querySelector('h2')?.textContent).toBe('Success'));
      expect(callsTo('contact.verify')).toEqual([{ response: 'google-token' }]);
      expect(resets).toEqual([1]);
    } finally {
      delete (globalThis as unknown as { grecaptcha?: unknown }).grecaptcha;
    }
  });
});

describe('contact form', () => {
  it("given the signed-in page, then 'Your email' holds the account's address and the send carries what is typed", async () => {
    const { container, form, sheet, callsTo } = await renderForm('contact', { 'contact.verify': verified, 'contact.sendContact': sentOk });
    expect(byLabel(container, 'Your email').value).toBe(signedIn.email);
    typeInto(byLabel(container, 'Your email'), 'other@example.com');
    typeInto(byLabel(container, 'Subject'), 'Hello');
    typeDetails(container, 'A question');
    await solveCaptcha(container, 'payload-2');
    await submit(form);
    await waitFor(() => expect(sheet()?.querySelector('h2')?.textContent).toBe('Success'));
    expect(callsTo('contact.sendContact')).toEqual([
      { from: 'other@example.com', subject: 'Hello', text: 'A question', captcha: 'payload-2' },
    ]);
  });

  it('given a bad address, then it is named on the field and nothing is called', async () => {
    const { container, form, callsTo } = await renderForm('contact', { 'contact.verify': verified });
    typeInto(byLabel(container, 'Your email'), 'not an address');
    typeInto(byLabel(container, 'Subject'), 'Hello');
    typeDetails(container, 'A question');
    await submit(form);
    await waitFor(() => expect(container.querySelector('#contact-from-error')).not.toBeNull());
    expect(callsTo('contact.verify')).toEqual([]);
  });

  it('given Spanish, then the labels are Spanish', async () => {
    const { container } = await renderForm('contact', {}, 'es');
    expect(byLabel(container, 'Su correo electrónico')).toBeTruthy();
    expect(byRole(container, 'button', 'Enviar')).toBeTruthy();
  });
});

// Proves the send page checks input with the server's messages before sending, sends the amount
// without separators, the fixed fee and an idempotency key, shows 'Transaction in progress' then
// 'Transaction successful' (Ok goes to /account) or 'Transaction failed' with the server's
// message (Go to account, Try again), and reuses the key only when a retry may repeat a send.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byLabel, byRole, click, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import SendPage from './SendPage.js';
import {
  type FakeAnswer,
  type FakeCall,
  type FakeProcedures,
  installDialogStandIn,
  renderWalletPage,
} from '../../../test/walletTestKit.js';

beforeAll(installDialogStandIn);

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => rendered?.unmount());

const balance: FakeProcedures[string] = () => ({ data: { stable: '2500000', unstable: '0' } });
const sent: FakeAnswer = { data: { transferId: 'transfer-1', status: 'reserved' } };
// As the api answers it: the amount field named, the amounts as wire digits.
const insufficient: FakeAnswer = {
  error: {
    status: 409,
    code: 'CONFLICT',
    messageKey: 'errors:insufficientFunds',
    message: 'Insufficient funds',
    fields: { amount: 'errors:insufficientFunds' },
    params: { requiredMlx: '3001000', availableMlx: '2500000' },
  },
};

/** As the api answers a Quern user's name or e-mail: the username ('bob@example.com' is bob). */
const knownUser: FakeProcedures[string] = (input) => {
  const to = String((input as { to: string }).to).trim();
  return /^[0-9a-zA-Z]{30,}$/.test(to)
    ? { data: { kind: 'external', address: to } }
    : {
        data: {
          kind: 'user',
          username: to.split('@')[0]?.toLowerCase(),
          address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT0a01BoatSLRHtKNngkdXEeobR76b53LETtpyT',
        },
      };
};

async function renderSend(send: FakeProcedures[string], language: 'en' | 'es' = 'en', recipient: FakeProcedures[string] = knownUser) {
  rendered = await renderWalletPage(<SendPage />, {
    procedures: { 'wallet.balance': balance, 'wallet.send': send, 'wallet.recipient': recipient },
    path: '/millix/send',
    language,
  });
  const { container } = rendered;
  const form = container.querySelector('form') as HTMLFormElement;
  const dialogTitle = () => container.querySelector('dialog[open] h2')?.textContent ?? null;
  const sends = () =>
    (rendered?.calls ?? []).filter((call) => call.path === 'wallet.send').map((call) => call.input as Record<string, string>);
  return { container, form, dialogTitle, sends };
}

const fill = (container: HTMLElement, to: string, amount: string) => {
  typeInto(byLabel(container, 'To'), to);
  typeInto(byLabel(container, 'Amount'), amount);
};

describe('SendPage form', () => {
  it('given the page, then it shows to, amount, the disabled 1,000 fee, Send and the available balance', async () => {
    const { container } = await renderSend(() => sent);
    expect(container.querySelector('h1')?.textContent).toBe('Send millix');
    const fee = byLabel(container, 'Fee');
    expect(fee.disabled).toBe(true);
    expect(fee.value).toBe('1,000');
    expect(byRole(container, 'button', 'Send')).toBeTruthy();
    await waitFor(() => expect(textOf(container)).toContain('Available: 2,500,000 MLX'));
  });

  it('given empty fields, when sent, then the server’s messages show on the fields and nothing is sent', async () => {
    const { container, form, sends } = await renderSend(() => sent);
    await submit(form);
    expect(container.querySelector('#send-to-error')?.textContent).toBe('All fields are required');
    expect(container.querySelector('#send-amount-error')?.textContent).toBe(
      'Please enter a whole number of MLX, using digits only (thousands separators are allowed).',
    );
    expect(byLabel(container, 'To').getAttribute('aria-invalid')).toBe('true');
    expect(sends()).toEqual([]);

    typeInto(byLabel(container, 'Amount'), '25');
    expect(container.querySelector('#send-amount-error')).toBeNull();
    expect(container.querySelector('#send-to-error')?.textContent).toBe('All fields are required');
  });

  it('given a recipient that is no address, username or e-mail, when sent, then the field says so', async () => {
    const { container, form, sends } = await renderSend(() => sent);
    fill(container, 'x'.repeat(40), '5');
    await submit(form);
    expect(container.querySelector('#send-to-error')?.textContent).toBe('Invalid address');
    fill(container, 'bob@', '5');
    await submit(form);
    expect(container.querySelector('#send-to-error')?.textContent).toBe('Please enter a valid e-mail address.');
    expect(sends()).toEqual([]);
  });
});

describe('SendPage amount', () => {
  const sendButton = (container: HTMLElement, name = 'Send') => byRole(container, 'button', name) as HTMLButtonElement;
  const amountError = (container: HTMLElement) => container.querySelector('#send-amount-error')?.textContent ?? null;
  const summary = (container: HTMLElement) => textOf(container.querySelector('.send-summary') as HTMLElement);

  it.each(['12.5', '12,5', '1x', '1,00', ',100', '12.500'])(
    'given %j in English, then it stays as typed, the field says whole MLX only, Send is disabled and nothing is sent',
    async (typed) => {
      const { container, form, sends } = await renderSend(() => sent);
      fill(container, 'bob', typed);
      const amount = byLabel(container, 'Amount');
      expect(amount.value).toBe(typed);
      expect(amountError(container)).toBe('Whole MLX only, for example 12,500');
      expect(amount.getAttribute('aria-invalid')).toBe('true');
      expect(sendButton(container).disabled).toBe(true);
      expect(summary(container)).toBe('');
      await submit(form);
      expect(sends()).toEqual([]);
    },
  );

  it.each(['12,500', '12.5', '12,5', '1x'])('given %j in Spanish, then it is refused with the Spanish example', async (typed) => {
    const { container, sends, form } = await renderSend(() => sent, 'es');
    typeInto(byLabel(container, 'Para'), 'bob');
    typeInto(byLabel(container, 'Importe'), typed);
    expect(byLabel(container, 'Importe').value).toBe(typed);
    expect(amountError(container)).toBe('Solo MLX enteros, por ejemplo 12.500');
    expect(sendButton(container, 'Enviar').disabled).toBe(true);
    await submit(form);
    expect(sends()).toEqual([]);
  });

  it('given zero or more than the supply, then the field says so and Send is disabled', async () => {
    const { container } = await renderSend(() => sent);
    fill(container, 'bob', '0');
    expect(amountError(container)).toBe('Enter an amount of at least 1 MLX.');
    expect(sendButton(container).disabled).toBe(true);
    fill(container, 'bob', '9,000,000,000,000,001');
    expect(amountError(container)).toBe('The amount is larger than the total millix supply.');
    expect(sendButton(container).disabled).toBe(true);
  });

  it('given a bad amount corrected, then the message goes, Send is enabled and the summary shows', async () => {
    const { container } = await renderSend(() => sent);
    fill(container, 'bob', '12.5');
    typeInto(byLabel(container, 'Amount'), '12500');
    expect(byLabel(container, 'Amount').value).toBe('12,500');
    expect(amountError(container)).toBeNull();
    expect(sendButton(container).disabled).toBe(false);
    await waitFor(() => expect(summary(container)).toBe('You are sendingTobob, a Quern userAmount12,500 MLXFee1,000 MLXTotal13,500 MLX'));
    expect(container.querySelector('.send-below-fee')).toBeNull();
  });

  it('given a millix address, then the summary shows it shortened', async () => {
    const address = '16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM0a016UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM';
    const { container } = await renderSend(() => sent);
    fill(container, address, '2000');
    await waitFor(() => expect(summary(container)).toContain('To16UwLL9Ris…BQ7wMtjvM, outside Quern (through the millix network)'));
    expect(container.querySelector('.send-summary dd')?.getAttribute('title')).toBe(address);
  });

  it('given an amount below the fee, then a warning says the fee is more, in English and Spanish', async () => {
    const { container } = await renderSend(() => sent);
    fill(container, 'bob@example.com', '1');
    await waitFor(() => expect(summary(container)).toContain('Tobob, a Quern userAmount1 MLXFee1,000 MLXTotal1,001 MLX'));
    expect(textOf(container.querySelector('.send-below-fee') as HTMLElement)).toBe('The fee (1,000 MLX) is more than the amount you send.');
    expect(sendButton(container).disabled).toBe(false);
    fill(container, 'bob@example.com', '1000');
    expect(container.querySelector('.send-below-fee')).toBeNull();
    rendered?.unmount();

    const spanish = await renderSend(() => sent, 'es');
    typeInto(byLabel(spanish.container, 'Para'), 'bob');
    typeInto(byLabel(spanish.container, 'Importe'), '999');
    await waitFor(() =>
      expect(summary(spanish.container)).toBe(
        'Va a enviarParabob, usuario de QuernImporte999 MLXComisión1000 MLXTotal1999 MLXLa comisión (1000 MLX) es mayor que el importe que usted envía.',
      ),
    );
  });
});

describe('SendPage recipient', () => {
  const summary = (container: HTMLElement) => textOf(container.querySelector('.send-summary') as HTMLElement);
  const lookups = () => (rendered?.calls ?? []).filter((call) => call.path === 'wallet.recipient').map((call) => call.input);

  it('given a name being typed, then it says it is checking, and asks once typing pauses, not per keystroke', async () => {
    const { container } = await renderSend(() => sent);
    typeInto(byLabel(container, 'Amount'), '5000');
    for (const partial of ['b', 'bo', 'bob', 'bob_', 'bob_s']) typeInto(byLabel(container, 'To'), partial);
    expect(summary(container)).toContain('Checking who this is...');
    await waitFor(() => expect(summary(container)).toContain('Tobob_s, a Quern user'));
    expect(lookups()).toEqual([{ to: 'bob_s' }]);
  });

  it('given a name no account has, then the summary warns before Send is pressed, in English and Spanish', async () => {
    const unknown: FakeProcedures[string] = () => ({ data: { kind: 'unknown' } });
    const { container } = await renderSend(() => sent, 'en', unknown);
    fill(container, 'bobb', '5000');
    await waitFor(() =>
      expect(textOf(container.querySelector('.send-recipient-warning') as HTMLElement)).toBe(
        'No Quern account has this username or e-mail. Check it before you send.',
      ),
    );
    expect(container.querySelector('[data-testid="send-recipient"]')?.textContent).toBe('bobb');
    rendered?.unmount();

    const spanish = await renderSend(() => sent, 'es', unknown);
    typeInto(byLabel(spanish.container, 'Para'), 'bobb');
    typeInto(byLabel(spanish.container, 'Importe'), '5000');
    await waitFor(() =>
      expect(textOf(spanish.container.querySelector('.send-recipient-warning') as HTMLElement)).toBe(
        'Ninguna cuenta de Quern tiene este nombre de usuario o correo electrónico. Revíselo antes de enviar.',
      ),
    );
  });

  it("given an e-mail Send would refuse, then the summary shows Send's own message", async () => {
    const unverified: FakeProcedures[string] = () => ({
      error: {
        status: 400,
        code: 'VALIDATION',
        messageKey: 'errors:recipientEmailUnverified',
        message: 'unverified',
        fields: { to: 'errors:recipientEmailUnverified' },
      },
    });
    const { container } = await renderSend(() => sent, 'en', unverified);
    fill(container, 'new@example.com', '5000');
    await waitFor(() => expect(container.querySelector('.send-recipient-warning')).not.toBeNull());
    expect(textOf(container.querySelector('.send-recipient-warning') as HTMLElement)).not.toContain('errors:');
  });

  it('given the lookup over its budget, then the summary just shows what was typed', async () => {
    const limited: FakeProcedures[string] = () => ({
      error: { status: 429, code: 'RATE_LIMITED', messageKey: 'errors:tooManyRequests', message: 'Too many' },
    });
    const { container } = await renderSend(() => sent, 'en', limited);
    fill(container, 'bob', '5000');
    await waitFor(() => expect(summary(container)).toBe('You are sendingTobobAmount5,000 MLXFee1,000 MLXTotal6,000 MLX'));
    expect(container.querySelector('.send-recipient-warning')).toBeNull();
  });
});

describe('SendPage dialogs', () => {
  it('given a valid send, then progress shows, the request carries bare digits, the fee and a key, and Ok goes to /account', async () => {
    let answer: (value: FakeAnswer) => void = () => {};
    const { container, form, dialogTitle, sends } = await renderSend(() => new Promise<FakeAnswer>((resolve) => (answer = resolve)));
    fill(container, ' bob ', '1,234,567');
    expect(byLabel(container, 'Amount').value).toBe('1,234,567');
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction in progress'));
    const [request] = sends();
    expect(request).toEqual({ to: 'bob', amount: '1234567', fee: '1000', idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    answer(sent);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction successful'));
    expect(textOf(container)).toContain('1,234,567 MLX is on its way to bob.');
    expect(container.querySelector('dialog[open]')?.getAttribute('role')).toBe('alertdialog');
    click(byRole(container, 'button', 'Ok'));
    await waitFor(() => expect(textOf(container)).toContain('Account page'));
  });

  it('given the server refuses (insufficient funds), then Transaction failed shows its message; Try again keeps the details and sends with a new key', async () => {
    let call = 0;
    const { container, form, dialogTitle, sends } = await renderSend(() => (call++ === 0 ? insufficient : sent));
    fill(container, 'bob', '3000000');
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction failed'), 3_000);
    expect(textOf(container.querySelector('dialog[open]') as HTMLElement)).toContain(
      'Insufficient funds: this send needs 3,001,000 MLX including the fee, and 2,500,000 MLX is available.',
    );
    click(byRole(container, 'button', 'Try again'));
    expect(container.querySelector('dialog[open]')).toBeNull();
    expect(byLabel(container, 'Amount').value).toBe('3,000,000');
    await waitFor(() =>
      expect(container.querySelector('#send-amount-error')?.textContent).toBe(
        'Insufficient funds: this send needs 3,001,000 MLX including the fee, and 2,500,000 MLX is available.',
      ),
    );
    expect(document.activeElement).toBe(byLabel(container, 'Amount'));
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction successful'), 3_000);
    const [first, second] = sends();
    expect(second?.idempotencyKey).not.toBe(first?.idempotencyKey);
  });

  it('given an unknown recipient, then the failure names it and the To field is marked after Try again', async () => {
    const unknown: FakeAnswer = {
      error: {
        status: 404,
        code: 'NOT_FOUND',
        messageKey: 'errors:unknownRecipient',
        message: 'No user',
        fields: { to: 'errors:unknownRecipient' },
      },
    };
    const { container, form, dialogTitle } = await renderSend(() => unknown);
    fill(container, 'nobody_here', '10');
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction failed'), 3_000);
    expect(textOf(container.querySelector('dialog[open]') as HTMLElement)).toContain('No user with this username or e-mail was found.');
    click(byRole(container, 'button', 'Try again'));
    await waitFor(() =>
      expect(container.querySelector('#send-to-error')?.textContent).toBe('No user with this username or e-mail was found.'),
    );
    expect(document.activeElement).toBe(byLabel(container, 'To'));
  });

  it('given a lost connection, then the retry of the same details reuses the key, so the server can never send twice', async () => {
    let call = 0;
    const { container, form, dialogTitle, sends } = await renderSend(() => (call++ === 0 ? 'network-failure' : sent));
    fill(container, 'bob', '10');
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction failed'), 3_000);
    expect(textOf(container.querySelector('dialog[open]') as HTMLElement)).toContain('Something went wrong. Please try again.');
    click(byRole(container, 'button', 'Try again'));
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction successful'), 3_000);
    const [first, second] = sends();
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
  });

  it('given an unexpected server error (500), then the retry of the same details reuses the key: the first may have been recorded', async () => {
    let call = 0;
    const internal: FakeAnswer = {
      error: { status: 500, code: 'INTERNAL', messageKey: 'errors:internal', message: 'Something went wrong', fields: {}, params: {} },
    };
    const { container, form, dialogTitle, sends } = await renderSend(() => (call++ === 0 ? internal : sent));
    fill(container, 'bob', '10');
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction failed'), 3_000);
    click(byRole(container, 'button', 'Try again'));
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction successful'), 3_000);
    const [first, second] = sends();
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
  });

  it('given a failure, when Go to account is pressed, then the dashboard opens', async () => {
    const { container, form, dialogTitle } = await renderSend(() => insufficient);
    fill(container, 'bob', '10');
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transaction failed'), 3_000);
    click(byRole(container, 'button', 'Go to account'));
    await waitFor(() => expect(textOf(container)).toContain('Account page'));
  });

  it('given Spanish, then the dialogs and the grouped amount are Spanish', async () => {
    const { container, form, dialogTitle } = await renderSend(() => sent, 'es');
    typeInto(byLabel(container, 'Para'), 'bob');
    typeInto(byLabel(container, 'Importe'), '1234567');
    expect(byLabel(container, 'Importe').value).toBe('1.234.567');
    await submit(form);
    await waitFor(() => expect(dialogTitle()).toBe('Transacción realizada'), 3_000);
    expect(byRole(container, 'button', 'Aceptar')).toBeTruthy();
  });
});

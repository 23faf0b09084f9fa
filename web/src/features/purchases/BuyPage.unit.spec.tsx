// Proves the Buy page's states against a fake tRPC server and a stand-in for PayPal's React
// buttons (which call createOrder and onApprove as the SDK does): the form shows the spec's title,
// rate, exchange box, USD/MLX selector and limits; Continue's refusals appear in the error dialog
// with Ok, in the spec's order; a valid amount opens 'Purchase N MLX for X USD' with PayPal's
// buttons loaded with the server's settings; a completed capture is credited and the success
// dialog shows the status and the capture id; a declined card restarts the payment and says that
// nothing was charged, as does a closed PayPal window, until the next attempt; other issues,
// a refused order and a pending capture each say so; and Change amount goes back with the amount.
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byRole, click, submit, textOf, typeInto, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import {
  type FakeAnswer,
  type FakeCall,
  type FakeProcedures,
  installDialogStandIn,
  renderWalletPage,
} from '../../../test/walletTestKit.js';
import BuyPage from './BuyPage.js';

/**
 * What the stand-in for @paypal/react-paypal-js saw: the script options and each restart. `window`
 * plays the buyer in PayPal's window before each approval: it may take its time, or close the
 * window (the SDK then calls onCancel instead of onApprove).
 */
const paypal = vi.hoisted(() => ({
  options: [] as Record<string, unknown>[],
  restarts: 0,
  window: null as null | (() => Promise<'approve' | 'close'>),
}));

vi.mock('@paypal/react-paypal-js', async () => {
  const { createElement, Fragment } = await import('react');
  interface ButtonsProps {
    createOrder(): Promise<string>;
    onApprove(data: { orderID: string }, actions: { restart(): Promise<void> }): Promise<void>;
    onCancel(data: { orderID: string }): void;
    onError(error: unknown): void;
  }
  /** As the SDK does on a click: createOrder, then onApprove, again after each actions.restart(). */
  async function checkout(props: ButtonsProps): Promise<void> {
    let orderID: string;
    try {
      orderID = await props.createOrder();
    } catch (error) {
      props.onError(error);
      return;
    }
    for (;;) {
      let restarted = false;
      const restart = async () => {
        restarted = true;
        paypal.restarts += 1;
      };
      if ((await paypal.window?.()) === 'close') {
        props.onCancel({ orderID });
        return;
      }
      await props.onApprove({ orderID }, { restart });
      if (!restarted) return;
    }
  }
  return {
    PayPalScriptProvider({ options, children }: { options: Record<string, unknown>; children: unknown }) {
      paypal.options.push(options);
      return createElement(Fragment, null, children as never);
    },
    usePayPalScriptReducer: () => [{ isPending: false, isRejected: false, isResolved: true, isInitial: false, options: {} }, () => {}],
    PayPalButtons: (props: ButtonsProps) => createElement('button', { type: 'button', onClick: () => void checkout(props) }, 'PayPal'),
  };
});

beforeAll(installDialogStandIn);
beforeEach(() => {
  paypal.options.length = 0;
  paypal.restarts = 0;
  paypal.window = null;
});

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => rendered?.unmount());

const ORDER_ID = '5O190127TN364715T';
const CAPTURE_ID = '3C679366HH908993F';
/** 1 USD = 80,000 MLX. */
const RATE = '0.0000125';

const setup: FakeAnswer = {
  data: { minUsdCents: '500', maxUsdCents: '50000', paypal: { clientId: 'local-client', sdkBaseUrl: '/paypal-local/sdk/js' } },
};
const order = (usd: string, mlx: string): FakeAnswer => ({
  data: { id: ORDER_ID, usdCents: String(Math.round(Number(usd) * 100)), usdPerMlx: RATE, mlx },
});
const completed: FakeAnswer = { data: { orderId: ORDER_ID, status: 'COMPLETED', captureId: CAPTURE_ID, mlx: '800000' } };
const credited: FakeAnswer = {
  data: { success: true, id: `purchase-${CAPTURE_ID}`, orderId: ORDER_ID, captureId: CAPTURE_ID, amount: '800000' },
};
const declined = (issue: string, description: string): FakeAnswer => ({
  data: { orderId: ORDER_ID, status: 'DECLINED', issue, description, mlx: '800000' },
});
const alreadyCredited = {
  error: { status: 409, code: 'CONFLICT', messageKey: 'errors:purchaseAlreadyCredited', message: 'Already credited' },
};
const refusal = (status: number, code: string, messageKey: string, params: Record<string, unknown> = {}): FakeAnswer => ({
  error: { status, code, messageKey, message: messageKey, params },
});

function procedures(overrides: FakeProcedures = {}): FakeProcedures {
  return {
    'wallet.rate': () => ({ data: { rate: RATE } }),
    'purchases.setup': () => setup,
    'purchases.reserveBalance': () => ({ data: { mlx: '1000000000000' } }),
    'purchases.createOrder': () => order('10.00', '800000'),
    'purchases.capture': () => completed,
    'purchases.credit': () => credited,
    ...overrides,
  };
}

async function renderBuy(overrides: FakeProcedures = {}, language: 'en' | 'es' = 'en') {
  rendered = await renderWalletPage(<BuyPage />, { procedures: procedures(overrides), path: '/millix/buy', language });
  const { container } = rendered;
  const form = () => container.querySelector('form') as HTMLFormElement;
  const dialog = () => container.querySelector('dialog[open]') as HTMLElement | null;
  const dialogTitle = () => dialog()?.querySelector('h2')?.textContent ?? null;
  const callsTo = (path: string) => (rendered?.calls ?? []).filter((call) => call.path === path);
  return { container, form, dialog, dialogTitle, callsTo };
}

const amountInput = (container: HTMLElement) => container.querySelector<HTMLInputElement>('#buy-amount') as HTMLInputElement;
const currencySelect = (container: HTMLElement) => container.querySelector<HTMLSelectElement>('#buy-currency') as HTMLSelectElement;
const exchange = (container: HTMLElement) => container.querySelector('output')?.textContent;

function chooseCurrency(container: HTMLElement, currency: 'USD' | 'MLX'): void {
  const select = currencySelect(container);
  const setValue = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')?.set;
  act(() => {
    setValue?.call(select, currency);
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

async function continueWith(container: HTMLElement, form: () => HTMLFormElement, usd: string): Promise<void> {
  await waitFor(() => expect(textOf(container)).toContain('1 USD = 80,000 MLX'));
  typeInto(amountInput(container), usd);
  await submit(form());
}

describe('BuyPage form', () => {
  it('given the page, then the title, the rate, the exchange box, the amount with USD and MLX, the limits and Continue', async () => {
    const { container } = await renderBuy();
    expect(container.querySelector('h1')?.textContent).toBe('Buy millix - Purchase millix with PayPal');
    await waitFor(() => expect(container.querySelector('.buy-rate')?.textContent).toBe('1 USD = 80,000 MLX'));
    expect(byLabel(container, 'Purchase amount')).toBe(amountInput(container));
    expect([...currencySelect(container).options].map((option) => option.value)).toEqual(['USD', 'MLX']);
    expect(currencySelect(container).getAttribute('aria-label')).toBe('Currency');
    expect(textOf(container)).toContain('Minimum purchase 5 USD, maximum 500 USD.');
    expect(exchange(container)).toBe('0 MLX');
    expect(byRole(container, 'button', 'Continue')).toBeTruthy();
  });

  it('given USD typed, then the box shows the MLX it buys; leaving the field shows two decimals', async () => {
    const { container } = await renderBuy();
    await waitFor(() => expect(textOf(container)).toContain('1 USD = 80,000 MLX'));
    typeInto(amountInput(container), '12,5');
    expect(amountInput(container).value).toBe('12.5');
    expect(exchange(container)).toBe('1,000,000 MLX');
    act(() => {
      amountInput(container).focus();
      amountInput(container).blur();
    });
    await waitFor(() => expect(amountInput(container).value).toBe('12.50'));
  });

  it('given MLX chosen, then the amount converts, is grouped as typed, and the box shows the USD it costs', async () => {
    const { container } = await renderBuy();
    await waitFor(() => expect(textOf(container)).toContain('1 USD = 80,000 MLX'));
    typeInto(amountInput(container), '10');
    chooseCurrency(container, 'MLX');
    await waitFor(() => expect(amountInput(container).value).toBe('800,000'));
    expect(container.textContent).toContain('You pay');
    expect(exchange(container)).toBe('10.00 USD');
    typeInto(amountInput(container), '1000001');
    expect(amountInput(container).value).toBe('1,000,001');
    expect(exchange(container)).toBe('12.51 USD');
    chooseCurrency(container, 'USD');
    await waitFor(() => expect(amountInput(container).value).toBe('12.51'));
    expect(exchange(container)).toBe('1,000,800 MLX');
  });

  it('given Spanish, then the texts are Spanish and USD takes a decimal comma', async () => {
    const { container } = await renderBuy({}, 'es');
    expect(container.querySelector('h1')?.textContent).toBe('Comprar millix - Compre millix con PayPal');
    await waitFor(() => expect(container.querySelector('.buy-rate')?.textContent).toBe('1 USD = 80.000 MLX'));
    typeInto(amountInput(container), '12.5');
    expect(amountInput(container).value).toBe('12,5');
    expect(exchange(container)).toBe('1.000.000 MLX');
    expect(byRole(container, 'button', 'Continuar')).toBeTruthy();
  });
});

describe('BuyPage checks on Continue', () => {
  it('given 4 USD, then the limits message in the error dialog, the reserve not asked, and Ok closes it', async () => {
    const { container, form, dialogTitle, dialog, callsTo } = await renderBuy();
    await continueWith(container, form, '4');
    await waitFor(() => expect(dialogTitle()).toBe('Error'));
    expect(dialog()?.querySelector('p')?.textContent).toBe('Purchase amount must be between 5 USD - 500 USD');
    expect(dialog()?.getAttribute('role')).toBe('alertdialog');
    expect(callsTo('purchases.reserveBalance')).toEqual([]);
    click(byRole(container, 'button', 'Ok'));
    expect(dialog()).toBeNull();
    expect(amountInput(container).value).toBe('4');
    await waitFor(() => expect(document.activeElement).toBe(amountInput(container)));
  });

  it('given no rate, then the rate message comes first, even for an amount outside the limits', async () => {
    const { container, form, dialog } = await renderBuy({ 'wallet.rate': () => ({ data: { rate: null } }) });
    await waitFor(() => expect(textOf(container)).toContain('The exchange rate is not available right now.'));
    typeInto(amountInput(container), '4');
    expect(exchange(container)).toBe('— MLX');
    await submit(form());
    await waitFor(() => expect(dialog()?.querySelector('p')?.textContent).toBe('Unable to get current exchange rate. Please try later.'));
  });

  it('given the reserve balance call fails, then its message (and the failure is logged)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container, form, dialog } = await renderBuy({
      'purchases.reserveBalance': () => refusal(500, 'INTERNAL', 'errors:internal'),
    });
    await continueWith(container, form, '10');
    await waitFor(() => expect(dialog()?.querySelector('p')?.textContent).toBe('Failed to get reserve balance. Please try later.'));
    expect(logged).toHaveBeenCalledWith('Buy: the reserve balance could not be read', expect.anything());
    logged.mockRestore();
  });

  it('given a reserve below 500 USD’s worth (40,000,000 MLX), then currently unavailable', async () => {
    const { container, form, dialog } = await renderBuy({ 'purchases.reserveBalance': () => ({ data: { mlx: '39999999' } }) });
    await continueWith(container, form, '10');
    await waitFor(() => expect(dialog()?.querySelector('p')?.textContent).toBe('Currently unavailable. Please try later.'));
  });
});

describe('BuyPage PayPal view', () => {
  it('given a valid amount, then the purchase line, PayPal loaded with the server’s settings, and Change amount goes back', async () => {
    const { container, form } = await renderBuy();
    await continueWith(container, form, '10');
    await waitFor(() => expect(container.querySelector('h2')?.textContent).toBe('Purchase 800,000 MLX for 10.00 USD'));
    await waitFor(() => expect(byRole(container, 'button', 'PayPal')).toBeTruthy());
    expect(paypal.options.at(-1)).toEqual({
      clientId: 'local-client',
      sdkBaseUrl: '/paypal-local/sdk/js',
      currency: 'USD',
      intent: 'capture',
      components: 'buttons',
      enableFunding: 'card,credit',
      disableFunding: 'paylater',
      locale: 'en_US',
    });
    click(byRole(container, 'button', 'Change amount'));
    await waitFor(() => expect(amountInput(container).value).toBe('10'));
    expect(document.activeElement).toBe(amountInput(container));
  });

  it('given approval and a completed capture, then the credit is claimed for the capture and the success dialog shows its status and id', async () => {
    const { container, form, dialog, dialogTitle, callsTo } = await renderBuy();
    await continueWith(container, form, '10');
    await waitFor(() => byRole(container, 'button', 'PayPal'));
    const rateCallsBefore = callsTo('wallet.rate').length;
    click(byRole(container, 'button', 'PayPal'));
    await waitFor(() => expect(dialogTitle()).toBe('Payment successful'));
    expect(callsTo('purchases.createOrder').map((call) => call.input)).toEqual([{ usd: '10.00' }]);
    expect(callsTo('purchases.capture').map((call) => call.input)).toEqual([{ orderId: ORDER_ID }]);
    expect(callsTo('purchases.credit').map((call) => call.input)).toEqual([{ id: CAPTURE_ID, amount: '800000' }]);
    const text = textOf(dialog() as HTMLElement);
    expect(text).toContain('800,000 MLX has been added to your wallet.');
    expect(text).toContain('StatusCOMPLETED');
    expect(text).toContain(`Transaction ID${CAPTURE_ID}`);
    // The wallet's queries are refreshed: the rate is the one this page shows, so it is refetched.
    await waitFor(() => expect(callsTo('wallet.rate').length).toBeGreaterThan(rateCallsBefore));
    click(byRole(container, 'button', 'Ok'));
    await waitFor(() => expect(textOf(container)).toContain('Account page'));
  });

  it('given the worker credited first (CONFLICT already credited), then it is still a success', async () => {
    const { container, form, dialogTitle } = await renderBuy({
      'purchases.credit': () => ({ error: { ...alreadyCredited.error, reason: 'alreadyCredited' } }),
    });
    await continueWith(container, form, '10');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    await waitFor(() => expect(dialogTitle()).toBe('Payment successful'));
  });

  it('given a declined card (INSTRUMENT_DECLINED), then the payment restarts and the next approval succeeds', async () => {
    const { container, form, dialogTitle, callsTo } = await renderBuy({
      'purchases.capture': (_input, call) => (call === 0 ? declined('INSTRUMENT_DECLINED', 'The card was declined.') : completed),
    });
    await continueWith(container, form, '10');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    await waitFor(() => expect(dialogTitle()).toBe('Payment successful'));
    expect(paypal.restarts).toBe(1);
    expect(callsTo('purchases.capture')).toHaveLength(2);
    expect(callsTo('purchases.credit')).toHaveLength(1);
  });

  it('given a declined card, then the page says nothing was charged while PayPal starts over, until the next approval', async () => {
    let approveNext: () => void = () => {};
    let windows = 0;
    // The first approval comes at once; the one after the restart waits for the test.
    paypal.window = () =>
      windows++ === 0 ? Promise.resolve('approve') : new Promise((resolve) => (approveNext = () => resolve('approve')));
    const { container, form, dialogTitle } = await renderBuy({
      'purchases.capture': (_input, call) => (call === 0 ? declined('INSTRUMENT_DECLINED', 'The card was declined.') : completed),
    });
    await continueWith(container, form, '10');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    const notice = () => container.querySelector('[data-testid="buy-notice"]');
    await waitFor(() => expect(notice()?.textContent).toBe('Your card was declined. Nothing was charged. Try another card.'));
    expect(notice()?.getAttribute('role')).toBe('alert');
    expect(dialogTitle()).toBeNull();
    approveNext();
    await waitFor(() => expect(dialogTitle()).toBe('Payment successful'));
    expect(notice()).toBeNull();
  });

  it("given PayPal's window closed, then Payment cancelled. Nothing was charged., until a new attempt starts", async () => {
    paypal.window = async () => 'close';
    const { container, form, callsTo } = await renderBuy();
    await continueWith(container, form, '10');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    const notice = () => container.querySelector('[data-testid="buy-notice"]');
    await waitFor(() => expect(notice()?.textContent).toBe('Payment cancelled. Nothing was charged.'));
    expect(notice()?.getAttribute('role')).toBe('status');
    expect(callsTo('purchases.capture')).toEqual([]);
    let open: () => void = () => {};
    paypal.window = () => new Promise((resolve) => (open = () => resolve('approve')));
    click(byRole(container, 'button', 'PayPal'));
    await waitFor(() => expect(notice()).toBeNull());
    open();
  });

  it('in Spanish, the declined and cancelled notices speak of usted', async () => {
    let closeNext: () => void = () => {};
    let windows = 0;
    // Declined first; then the buyer closes PayPal's window instead of trying another card.
    paypal.window = () => (windows++ === 0 ? Promise.resolve('approve') : new Promise((resolve) => (closeNext = () => resolve('close'))));
    const { container, form } = await renderBuy({ 'purchases.capture': () => declined('INSTRUMENT_DECLINED', 'Tarjeta rechazada.') }, 'es');
    await waitFor(() => expect(textOf(container)).toContain('1 USD = 80.000 MLX'));
    typeInto(amountInput(container), '10');
    await submit(form());
    const notice = () => container.querySelector('[data-testid="buy-notice"]');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    await waitFor(() => expect(notice()?.textContent).toBe('Su tarjeta fue rechazada. No se ha cobrado nada. Pruebe con otra tarjeta.'));
    closeNext();
    await waitFor(() => expect(notice()?.textContent).toBe('Pago cancelado. No se ha cobrado nada.'));
  });

  it('given another issue, then its description in the error dialog and nothing credited', async () => {
    const { container, form, dialog, dialogTitle, callsTo } = await renderBuy({
      'purchases.capture': () => declined('PAYER_ACTION_REQUIRED', 'The payer must take an action.'),
    });
    await continueWith(container, form, '10');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    await waitFor(() => expect(dialogTitle()).toBe('Error'));
    expect(dialog()?.querySelector('p')?.textContent).toBe('The payer must take an action.');
    expect(paypal.restarts).toBe(0);
    expect(callsTo('purchases.credit')).toEqual([]);
  });

  it('given a capture still pending, then the processing dialog and nothing credited by the page', async () => {
    const { container, form, dialog, dialogTitle, callsTo } = await renderBuy({
      'purchases.capture': () => ({ data: { orderId: ORDER_ID, status: 'PENDING', mlx: '800000' } }),
    });
    await continueWith(container, form, '10');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    await waitFor(() => expect(dialogTitle()).toBe('Payment processing'));
    expect(dialog()?.querySelector('p')?.textContent).toBe(
      'Your payment is being processed. The 800,000 MLX will appear in your wallet shortly.',
    );
    expect(callsTo('purchases.credit')).toEqual([]);
  });

  it('given the server refuses the order, then its message once, and no capture', async () => {
    const { container, form, dialog, callsTo } = await renderBuy({
      'purchases.createOrder': () =>
        refusal(400, 'VALIDATION', 'errors:paymentProviderIssue', { issue: 'AMOUNT_NOT_ALLOWED', description: 'Amount not allowed.' }),
    });
    await continueWith(container, form, '10');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    await waitFor(() => expect(dialog()?.querySelector('p')?.textContent).toBe('Amount not allowed.'));
    expect(container.querySelectorAll('dialog[open]')).toHaveLength(1);
    expect(callsTo('purchases.capture')).toEqual([]);
  });

  it('given the server prices the order differently (the rate moved), then the purchase line shows what will be credited', async () => {
    const { container, form } = await renderBuy({ 'purchases.createOrder': () => order('10.00', '790000') });
    await continueWith(container, form, '10');
    await waitFor(() => click(byRole(container, 'button', 'PayPal')));
    await waitFor(() => expect(container.querySelector('h2')?.textContent).toBe('Purchase 790,000 MLX for 10.00 USD'));
  });
});

// Proves the detail popup shows ID, upper-case type, full addresses, the amount with sign, colour
// class and icon for credits and debits, the date from transaction_date falling back to
// create_date, numbers in the language on screen, what a PayPal purchase, refund or chargeback was
// with PayPal's order, transaction and refund or chargeback ids, what a checkout payment was with
// its order id, and that it closes on the backdrop and Escape.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { byRole, click, textOf } from '../../../test/dom.js';
import { render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';
import { ADDRESS_A, ADDRESS_B, completed, HASH_1, installDialogStandIn, pending } from '../../../test/walletTestKit.js';
import { TransactionDialog } from './TransactionDialog.js';
import type { WalletTransaction } from './walletFormat.js';

// Dates are shown in the viewer's time zone; the expectations below are written for UTC.
process.env.TZ = 'UTC';
beforeAll(installDialogStandIn);

let rendered: Rendered | undefined;
afterEach(() => rendered?.unmount());

async function renderDialog(transaction: WalletTransaction | null, language: TestLanguage = 'en') {
  const onClose = vi.fn();
  rendered = await render(<TransactionDialog transaction={transaction} language={language} onClose={onClose} />, { language });
  const dialog = rendered.container.querySelector('dialog');
  const value = (term: string) => {
    const dt = [...(dialog?.querySelectorAll('dt') ?? [])].find((element) => element.textContent === term);
    return dt?.nextElementSibling as HTMLElement | undefined;
  };
  return { dialog, onClose, value };
}

describe('TransactionDialog', () => {
  it('given a completed credit, then it shows its hash, RECEIVED, both addresses, +amount in green with the credit icon, and its date', async () => {
    const { dialog, value } = await renderDialog(completed({ from_user: { username: 'bob' } }));
    expect(dialog?.hasAttribute('open')).toBe(true);
    expect(dialog?.getAttribute('aria-labelledby')).toBe(dialog?.querySelector('h2')?.id);
    expect(dialog?.querySelector('h2')?.textContent).toBe('Transaction details');
    expect(value('ID')?.textContent).toBe(HASH_1);
    expect(value('Type')?.textContent).toBe('RECEIVED');
    expect(value('From address')?.textContent).toBe(`${ADDRESS_B}bob`);
    expect(value('To address')?.textContent).toBe(ADDRESS_A);
    const amount = value('Amount')?.querySelector('.tx-amount');
    expect(amount?.textContent).toBe('+1,234,567 MLX');
    expect(amount?.classList.contains('tx-amount-credit')).toBe(true);
    expect(amount?.querySelector('svg')?.getAttribute('data-direction')).toBe('credit');
    expect(value('Date')?.textContent).toBe('22/11/2026, 3:04 pm');
    expect(value('Status')?.textContent).toBe('Completed');
    expect(value('Fee')).toBeUndefined();
  });

  it('given a pending debit, then it shows SENT, −amount in red with the debit icon, the fee, and the create date', async () => {
    const { value } = await renderDialog(pending());
    expect(value('Type')?.textContent).toBe('SENT');
    const amount = value('Amount')?.querySelector('.tx-amount');
    expect(amount?.textContent).toBe('\u22125,000 MLX');
    expect(amount?.classList.contains('tx-amount-debit')).toBe(true);
    expect(amount?.querySelector('svg')?.getAttribute('data-direction')).toBe('debit');
    expect(value('Fee')?.textContent).toBe('1,000 MLX');
    expect(value('Date')?.textContent).toBe('23/11/2026, 9:30 am');
    expect(value('Status')?.textContent).toBe('Pending');
  });

  it('given a completed transaction with an empty transaction_date, then the date falls back to create_date', async () => {
    const odd = { ...completed({ transaction_date: '' }), create_date: '2026-01-05T00:15:00.000Z' } as WalletTransaction;
    const { value } = await renderDialog(odd);
    expect(value('Date')?.textContent).toBe('05/01/2026, 12:15 am');
  });

  it('given Spanish, then the type is upper-case Spanish words and numbers use Spanish separators', async () => {
    const { value } = await renderDialog(completed(), 'es');
    expect(value('Tipo')?.textContent).toBe('RECIBIDO');
    expect(value('Importe')?.textContent).toBe('+1.234.567 MLX');
  });

  it('given a purchase, then after the spec’s rows it says it was bought with PayPal and shows the order and transaction ids', async () => {
    const { dialog, value } = await renderDialog(
      completed({ purpose: { kind: 'purchase', order_id: 'ORDER-7', capture_id: 'CAPTURE-7' } }),
    );
    const terms = [...(dialog?.querySelectorAll('dt') ?? [])].map((dt) => dt.textContent);
    expect(terms).toEqual([
      'ID',
      'Type',
      'Status',
      'From address',
      'To address',
      'Amount',
      'Date',
      'Description',
      'PayPal order ID',
      'PayPal transaction ID',
    ]);
    expect(value('Type')?.textContent).toBe('BOUGHT WITH PAYPAL');
    expect(value('From address')?.textContent).toBe(ADDRESS_B);
    expect(value('Amount')?.textContent).toBe('+1,234,567 MLX');
    expect(value('Description')?.textContent).toBe('Bought with PayPal');
    expect(value('PayPal order ID')?.textContent).toBe('ORDER-7');
    expect(value('PayPal transaction ID')?.textContent).toBe('CAPTURE-7');
  });

  it('given a refund, then it shows the refund id as well; given a chargeback, its chargeback id', async () => {
    const ids = { order_id: 'ORDER-7', capture_id: 'CAPTURE-7' };
    const debit = { transaction_type: 'debit' as const, from_address: ADDRESS_A, to_address: ADDRESS_B, fee: '0' };
    const refunded = await renderDialog(completed({ ...debit, purpose: { kind: 'purchase_refund', ...ids, refund_id: 'REFUND-7' } }));
    expect(refunded.value('Type')?.textContent).toBe('PAYPAL REFUND');
    expect(refunded.value('Amount')?.textContent).toBe('\u22121,234,567 MLX');
    expect(refunded.value('Description')?.textContent).toBe('PayPal refund');
    expect(refunded.value('PayPal transaction ID')?.textContent).toBe('CAPTURE-7');
    expect(refunded.value('PayPal refund ID')?.textContent).toBe('REFUND-7');
    expect(refunded.value('PayPal chargeback ID')).toBeUndefined();
    rendered?.unmount();

    const reversed = await renderDialog(pending({ ...debit, purpose: { kind: 'purchase_reversal', ...ids, refund_id: 'REVERSAL-7' } }));
    expect(reversed.value('Description')?.textContent).toBe('PayPal chargeback');
    expect(reversed.value('PayPal order ID')?.textContent).toBe('ORDER-7');
    expect(reversed.value('PayPal chargeback ID')?.textContent).toBe('REVERSAL-7');
    expect(reversed.value('PayPal refund ID')).toBeUndefined();
    expect(reversed.value('Status')?.textContent).toBe('Pending');
  });

  it('given a refund in Spanish, then the purchase rows are Spanish', async () => {
    const purpose = { kind: 'purchase_refund' as const, order_id: 'ORDER-7', capture_id: 'CAPTURE-7', refund_id: 'REFUND-7' };
    const { value } = await renderDialog(completed({ transaction_type: 'debit', purpose }), 'es');
    expect(value('Descripción')?.textContent).toBe('Reembolso de PayPal');
    expect(value('ID del pedido de PayPal')?.textContent).toBe('ORDER-7');
    expect(value('ID de la transacción de PayPal')?.textContent).toBe('CAPTURE-7');
    expect(value('ID del reembolso de PayPal')?.textContent).toBe('REFUND-7');
  });

  it('given a checkout payment, then it says so and shows its order id, and no PayPal rows (English and Spanish)', async () => {
    const debit = { transaction_type: 'debit' as const, from_address: ADDRESS_A, to_address: ADDRESS_B, fee: '0' };
    const purpose = { kind: 'checkout' as const, order_id: 'ORDER-9' };
    const { dialog, value } = await renderDialog(completed({ ...debit, purpose }));
    expect(value('Description')?.textContent).toBe('Checkout payment');
    expect(value('Order ID')?.textContent).toBe('ORDER-9');
    expect([...(dialog?.querySelectorAll('dt') ?? [])].map((dt) => dt.textContent).filter((t) => t?.includes('PayPal'))).toEqual([]);
    rendered?.unmount();
    const spanish = await renderDialog(completed({ ...debit, purpose }), 'es');
    expect(spanish.value('Descripción')?.textContent).toBe('Pago de compra');
    expect(spanish.value('ID del pedido')?.textContent).toBe('ORDER-9');
  });

  it('given a merchant refund or payout, then it says so with its order and refund ids, or its payout id (English and Spanish)', async () => {
    const purpose = { kind: 'checkout_refund' as const, order_id: 'ORDER-9', refund_id: 're_9' };
    const refund = await renderDialog(completed({ purpose }));
    expect(refund.value('Description')?.textContent).toBe('Order refund');
    expect(refund.value('Order ID')?.textContent).toBe('ORDER-9');
    expect(refund.value('Refund ID')?.textContent).toBe('re_9');
    rendered?.unmount();
    const payout = await renderDialog(completed({ purpose: { kind: 'payout', payout_id: 'po_9' } }), 'es');
    expect(payout.value('Descripción')?.textContent).toBe('Pago del comercio');
    expect(payout.value('ID del pago')?.textContent).toBe('po_9');
  });

  it('given a subscription charge, then it says Subscription with the subscription id (English and Spanish)', async () => {
    // Cast: the history's wire schema in core may not list this kind yet; core's purpose type does.
    const purpose = { kind: 'subscription_charge', subscription_id: 'sub_42', period: 2 } as unknown as WalletTransaction['purpose'];
    const english = await renderDialog(completed({ purpose }));
    expect(english.value('Description')?.textContent).toBe('Subscription');
    expect(english.value('Subscription ID')?.textContent).toBe('sub_42');
    expect(english.value('PayPal order ID')).toBeUndefined();
    rendered?.unmount();
    const spanish = await renderDialog(completed({ purpose }), 'es');
    expect(spanish.value('Descripción')?.textContent).toBe('Suscripción');
    expect(spanish.value('ID de la suscripción')?.textContent).toBe('sub_42');
  });

  it('given a plain send, or a purpose of a kind the page does not know, then no purchase rows appear', async () => {
    const plain = await renderDialog(completed());
    expect(plain.value('Description')).toBeUndefined();
    expect(plain.value('PayPal order ID')).toBeUndefined();
    rendered?.unmount();
    const odd = completed({ purpose: { kind: 'gift', order_id: 'O', capture_id: 'C' } as unknown as WalletTransaction['purpose'] });
    const unknown = await renderDialog(odd);
    expect(unknown.value('Description')).toBeUndefined();
    expect(unknown.value('PayPal transaction ID')).toBeUndefined();
  });

  it('given an amount the server garbled, then it shows a dash instead of a wrong number', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { value } = await renderDialog(completed({ amount: '1e9' }));
    expect(value('Amount')?.textContent).toBe('—');
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('given an open popup, when the backdrop is clicked, then it asks to close; a click inside does not', async () => {
    const { dialog, onClose } = await renderDialog(completed());
    click(dialog?.querySelector('dl') as Element);
    expect(onClose).not.toHaveBeenCalled();
    click(dialog as Element);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('given an open popup, when Escape cancels it or Close is pressed, then it asks to close', async () => {
    const { dialog, onClose } = await renderDialog(completed());
    const cancel = new Event('cancel', { cancelable: true });
    dialog?.dispatchEvent(cancel);
    expect(onClose).toHaveBeenCalledTimes(1);
    click(byRole(rendered?.container as HTMLElement, 'button', 'Close'));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('given a completed payment with a receipt, then the popup links to its receipt page; a send, a pending payment and a shop’s credit do not', async () => {
    const debit = { transaction_type: 'debit' as const, fee: '0' };
    const link = () => rendered?.container.querySelector('[data-testid="tx-receipt-link"]');
    for (const purpose of [
      { kind: 'checkout' as const, order_id: 'ORDER-9' },
      { kind: 'subscription_charge' as const, subscription_id: 'sub_1', period: 2 },
      { kind: 'invoice_payment' as const, invoice_id: 'in_1' },
    ]) {
      await renderDialog(completed({ ...debit, transaction_hash: `tx-${purpose.kind}`, purpose }));
      expect(link()?.getAttribute('href'), purpose.kind).toBe(`/receipts/tx-${purpose.kind}`);
      expect(link()?.textContent).toBe('See the receipt');
      rendered?.unmount();
    }
    await renderDialog(completed({ purpose: { kind: 'purchase', order_id: 'ORDER-7', capture_id: 'CAPTURE-7' } }));
    expect(link()?.getAttribute('href')).toBe(`/receipts/${HASH_1}`);
    rendered?.unmount();
    for (const transaction of [
      completed(),
      completed({ ...debit }),
      pending({ purpose: { kind: 'checkout', order_id: 'ORDER-9' } }),
      completed({ purpose: { kind: 'checkout', order_id: 'ORDER-9' } }),
    ]) {
      await renderDialog(transaction);
      expect(link(), JSON.stringify(transaction)).toBeNull();
      rendered?.unmount();
    }
  });

  it('given no transaction, then no dialog is on the page', async () => {
    await renderDialog(null);
    expect(rendered?.container.querySelector('dialog')).toBeNull();
    expect(textOf(rendered?.container as HTMLElement)).toBe('');
  });
});

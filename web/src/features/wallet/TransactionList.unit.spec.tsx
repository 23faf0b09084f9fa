// Proves the dashboard's rows and cards name a PayPal purchase, refund or chargeback by what it was
// (English and Spanish) instead of the reserve's address, keep that address as the title, and
// leave everything else as the spec has it: columns, dates, signs, colours, balances, and a plain
// send still named by its user or shortened address.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click } from '../../../test/dom.js';
import { render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';
import { ADDRESS_A, ADDRESS_B, completed, pending } from '../../../test/walletTestKit.js';
import { TransactionList } from './TransactionList.js';
import type { WalletTransaction } from './walletFormat.js';
import type { TransactionPurpose } from '@quern/core/history';

// Dates are shown in the viewer's time zone; the expectations below are written for UTC.
process.env.TZ = 'UTC';

let rendered: Rendered | undefined;
afterEach(() => rendered?.unmount());

const ids = { order_id: '5O190127TN364715T', capture_id: '3C679366HH908993F' };
const purchase: TransactionPurpose = { kind: 'purchase', ...ids };
const refund: TransactionPurpose = { kind: 'purchase_refund', ...ids, refund_id: '1JU08902781691411' };
const chargeback: TransactionPurpose = { kind: 'purchase_reversal', ...ids, refund_id: '8MC585209K746392H' };

/** ADDRESS_B plays the reserve: it credits a purchase and receives refunds and chargebacks. */
const rows: WalletTransaction[] = [
  completed({ transaction_hash: 'purchase-1', amount: '833333', balance: '833333', purpose: purchase }),
  completed({
    transaction_hash: 'refund-1',
    transaction_type: 'debit',
    from_address: ADDRESS_A,
    to_address: ADDRESS_B,
    amount: '333334',
    fee: '0',
    balance: '499999',
    purpose: refund,
  }),
  completed({
    transaction_hash: 'reversal-1',
    transaction_type: 'debit',
    from_address: ADDRESS_A,
    to_address: ADDRESS_B,
    amount: '499999',
    fee: '0',
    balance: '0',
    purpose: chargeback,
  }),
  completed({ transaction_hash: 'send-1', from_user: { username: 'bob' } }),
];

async function renderList(
  transactions: readonly WalletTransaction[],
  { mobile = false, showBalance = true, language = 'en' }: { mobile?: boolean; showBalance?: boolean; language?: TestLanguage } = {},
) {
  const onOpen = vi.fn();
  rendered = await render(
    <>
      <h2 id="list-title">Transactions</h2>
      <TransactionList
        transactions={transactions}
        showBalance={showBalance}
        mobile={mobile}
        language={language}
        labelledBy="list-title"
        onOpen={onOpen}
      />
    </>,
    { language },
  );
  const container = rendered.container;
  const parties = [...container.querySelectorAll('.tx-party')];
  return { container, onOpen, labels: parties.map((p) => p.textContent), titles: parties.map((p) => p.getAttribute('title')) };
}

describe('TransactionList: purchases on desktop', () => {
  it('given a purchase, a refund, a chargeback and a send, then From / To names each purchase row and the send by its user', async () => {
    const { labels, titles } = await renderList(rows);
    expect(labels).toEqual(['Bought with PayPal', 'PayPal refund', 'PayPal chargeback', 'Received from bob']);
    // The reserve's address is still there for whoever hovers it.
    expect(titles).toEqual([ADDRESS_B, ADDRESS_B, ADDRESS_B, ADDRESS_B]);
  });

  it('given the same rows, then columns, dates, signs, colours and balances are exactly as for any transaction', async () => {
    const { container } = await renderList(rows);
    expect([...container.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Date', 'From / To', 'Amount', 'Balance']);
    expect([...container.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).toEqual([
      '22/11/2026, 3:04 pmBought with PayPal+833,333 MLX833,333 MLX',
      '22/11/2026, 3:04 pmPayPal refund\u2212333,334 MLX499,999 MLX',
      '22/11/2026, 3:04 pmPayPal chargeback\u2212499,999 MLX0 MLX',
      '22/11/2026, 3:04 pmReceived from bob+1,234,567 MLX2,234,567 MLX',
    ]);
    const directions = [...container.querySelectorAll('tbody .tx-amount')].map((amount) => [
      amount.getAttribute('data-direction'),
      amount.classList.contains(`tx-amount-${amount.getAttribute('data-direction')}`),
      amount.querySelector('svg')?.getAttribute('data-direction'),
    ]);
    expect(directions).toEqual([
      ['credit', true, 'credit'],
      ['debit', true, 'debit'],
      ['debit', true, 'debit'],
      ['credit', true, 'credit'],
    ]);
  });

  it('given a pending purchase (no balance column), when its row is clicked, then it opens that transaction', async () => {
    const item = pending({
      transaction_type: 'credit',
      from_address: ADDRESS_B,
      to_address: ADDRESS_A,
      to_user: undefined,
      fee: undefined,
      purpose: purchase,
    });
    const { container, labels, onOpen } = await renderList([item], { showBalance: false });
    expect(labels).toEqual(['Bought with PayPal']);
    expect([...container.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Date', 'From / To', 'Amount']);
    click(container.querySelector('tbody tr td:nth-child(2)') as Element);
    expect(onOpen).toHaveBeenCalledWith(item);
  });

  it('given Spanish, then the purchase rows are named in Spanish', async () => {
    const { labels } = await renderList(rows, { language: 'es' });
    expect(labels).toEqual(['Comprado con PayPal', 'Reembolso de PayPal', 'Contracargo de PayPal', 'Recibido de bob']);
  });

  it('given a purpose of a kind this page does not know, then the row says Received from the shortened address', async () => {
    const odd = completed({ purpose: { ...purchase, kind: 'gift' } as unknown as TransactionPurpose });
    const { labels } = await renderList([odd]);
    expect(labels).toEqual(['Received from 1BoatSLRHt…b53LETtpyT']);
  });
});

describe('TransactionList: merchant refunds and payouts (ADR 033)', () => {
  const order = `${'ab'.repeat(16)}-1`;
  const refundRows: WalletTransaction[] = [
    // The shopper's credit and the merchant's debit of one refund: both name the order.
    completed({
      transaction_hash: 'refund-re_1',
      from_user: { username: 'shop' },
      purpose: { kind: 'checkout_refund', order_id: order, refund_id: 're_1' },
    }),
    completed({
      transaction_hash: 'refund-re_1',
      transaction_type: 'debit',
      from_address: ADDRESS_A,
      to_address: ADDRESS_B,
      to_user: { username: 'shopper' },
      fee: '0',
      purpose: { kind: 'checkout_refund', order_id: order, refund_id: 're_1' },
    }),
    completed({
      transaction_hash: 'payout-po_1',
      transaction_type: 'debit',
      from_address: ADDRESS_A,
      to_address: ADDRESS_B,
      to_user: { username: 'supplier' },
      fee: '1000',
      purpose: { kind: 'payout', payout_id: 'po_1' },
    }),
    completed({ transaction_hash: 'payout-po_2', from_user: { username: 'shop' }, purpose: { kind: 'payout', payout_id: 'po_2' } }),
  ];

  it('given refunds and payouts, then a refund names its order on both sides and a payout who was paid or paid (English)', async () => {
    const { labels } = await renderList(refundRows);
    expect(labels).toEqual([
      'Refund of order ababababab…abababab-1',
      'Refund of order ababababab…abababab-1',
      'Payout to supplier',
      'Payout from shop',
    ]);
  });

  it('given Spanish, then the refund and payout rows are named in Spanish', async () => {
    const { labels } = await renderList(refundRows, { language: 'es' });
    expect(labels).toEqual([
      'Reembolso del pedido ababababab…abababab-1',
      'Reembolso del pedido ababababab…abababab-1',
      'Pago del comercio a supplier',
      'Pago del comercio de shop',
    ]);
  });
});

describe('TransactionList: subscription charges (ADR 037)', () => {
  const chargeRows: WalletTransaction[] = [
    completed({
      transaction_hash: 'sub-charge-1',
      transaction_type: 'debit',
      from_address: ADDRESS_A,
      to_address: ADDRESS_B,
      to_user: { username: 'provider' },
      purpose: { kind: 'subscription_charge', subscription_id: 'sub_1', period: 1 } as unknown as WalletTransaction['purpose'],
    }),
    completed({
      transaction_hash: 'sub-charge-2',
      from_user: { username: 'subscriber' },
      purpose: { kind: 'subscription_charge', subscription_id: 'sub_1', period: 1 } as unknown as WalletTransaction['purpose'],
    }),
  ];

  it('given a charge paid and a charge received, then each row names the other side (English and Spanish)', async () => {
    const { labels } = await renderList(chargeRows);
    expect(labels).toEqual(['Subscription payment to provider', 'Subscription payment from subscriber']);
    rendered?.unmount();
    const spanish = await renderList(chargeRows, { language: 'es' });
    expect(spanish.labels).toEqual(['Pago de suscripción a provider', 'Pago de suscripción de subscriber']);
  });
});

describe('TransactionList: purchases on phones', () => {
  it('given the same rows as cards, then each card names the purchase, keeps sign and balance, and opens its transaction', async () => {
    const { container, labels, titles, onOpen } = await renderList(rows, { mobile: true });
    expect(container.querySelector('table')).toBeNull();
    expect(labels).toEqual(['Bought with PayPal', 'PayPal refund', 'PayPal chargeback', 'Received from bob']);
    expect(titles).toEqual([ADDRESS_B, ADDRESS_B, ADDRESS_B, ADDRESS_B]);
    const cards = [...container.querySelectorAll('.tx-card')];
    expect(cards.map((card) => card.textContent)).toEqual([
      'Bought with PayPal+833,333 MLX22/11/2026Balance: 833,333 MLX',
      'PayPal refund\u2212333,334 MLX22/11/2026Balance: 499,999 MLX',
      'PayPal chargeback\u2212499,999 MLX22/11/2026Balance: 0 MLX',
      'Received from bob+1,234,567 MLX22/11/2026Balance: 2,234,567 MLX',
    ]);
    click(cards[2] as Element);
    expect(onOpen).toHaveBeenCalledWith(rows[2]);
  });

  it('given Spanish cards, then they are named in Spanish with Spanish separators', async () => {
    const { container } = await renderList(rows.slice(0, 1), { mobile: true, language: 'es' });
    expect(container.querySelector('.tx-card')?.textContent).toBe('Comprado con PayPal+833.333 MLX22/11/2026Saldo: 833.333 MLX');
  });
});

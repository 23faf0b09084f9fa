// Proves the dashboard: 'Loading...' first, then the hero (Current and Pending in MLX with USD
// equivalents when a rate exists, the username, the address with a copy button announcing
// 'Copied', 'Invalid address' when the address call fails), the pending section only when there
// are items, the transactions table or phone cards with their empty state and pagination from
// page 0, the detail popup, and failures of balance, rate and lists logged but never shown.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { byRole, click, textOf, waitFor } from '../../../test/dom.js';
import type { Rendered } from '../../../test/renderForTest.js';
import { AccountPage } from './AccountPage.js';
import {
  ADDRESS_A,
  completed,
  type FakeAnswer,
  type FakeCall,
  type FakeProcedures,
  installDialogStandIn,
  pending,
  renderWalletPage,
} from '../../../test/walletTestKit.js';

process.env.TZ = 'UTC';
beforeAll(installDialogStandIn);

let rendered: (Rendered & { calls: FakeCall[] }) | undefined;
afterEach(() => {
  rendered?.unmount();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const failure: FakeAnswer = { error: { status: 500, code: 'INTERNAL', messageKey: 'errors:internal', message: 'boom' } };

const page = (count: number, total: number, pageNumber = 0) => ({
  data: {
    transactions: Array.from({ length: count }, (_, index) =>
      completed({ transaction_hash: `hash-${pageNumber}-${index}`, transaction_type: index % 2 === 0 ? 'credit' : 'debit' }),
    ),
    total,
    page: pageNumber,
    limit: 10,
  },
});

function procedures(overrides: FakeProcedures = {}): FakeProcedures {
  return {
    'identity.user': () => ({ data: { username: 'ada', first_name: 'Ada', last_name: 'Lovelace', phone_number: '+15550100' } }),
    'wallet.address': () => ({ data: { address: ADDRESS_A } }),
    'wallet.balance': () => ({ data: { stable: '1234567', unstable: '5000' } }),
    'wallet.rate': () => ({ data: { rate: '0.000012' } }),
    'wallet.pending': () => ({ data: { content: [] } }),
    'wallet.transactions': (input) => page(3, 3, (input as { page: number }).page),
    // The detail's own URL looks the transaction up by hash; only the page's hashes are known.
    'wallet.transaction': (input) => {
      const hash = (input as { hash: string }).hash;
      return hash.startsWith('hash-')
        ? { data: { transaction: completed({ transaction_hash: hash }) } }
        : { error: { status: 404, code: 'NOT_FOUND', messageKey: 'errors:transactionNotFound', message: 'not found' } };
    },
    ...overrides,
  };
}

async function renderDashboard(overrides: FakeProcedures = {}) {
  rendered = await renderWalletPage(<AccountPage />, { procedures: procedures(overrides) });
  return rendered.container;
}

const figure = (container: HTMLElement, kind: 'current' | 'pending') => container.querySelector(`.balance-${kind} dd`)?.textContent;

describe('AccountPage hero', () => {
  it('given the calls answer, then Loading... gives way to the balances with USD, the username and the address', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const container = await renderDashboard({
      'wallet.balance': async () => {
        await held;
        return { data: { stable: '1234567', unstable: '5000', pending_incoming: '5000', pending_outgoing: '11000' } };
      },
    });
    expect(textOf(container)).toBe('Loading...');
    release();
    await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Your account'));
    expect(container.querySelector('#balance-title')?.textContent).toBe('Current Balance');
    await waitFor(() => expect(figure(container, 'current')).toBe('1,234,567 MLX≈ 14.81 USD'));
    // ADR 062: Pending is incoming minus outgoing (amount plus fee), signed, and says so.
    expect(figure(container, 'pending')).toBe('\u22126,000 MLX≈ \u22120.07 USDIncoming minus outgoing, not yet settled');
    await waitFor(() => expect(container.querySelector('.account-username')?.textContent).toBe('ada'));
    expect(textOf(container)).toContain(`Millix address:${ADDRESS_A}`);
  });

  it('given no exchange rate, then amounts show in MLX alone', async () => {
    const container = await renderDashboard({ 'wallet.rate': () => ({ data: { rate: null } }) });
    await waitFor(() => expect(figure(container, 'current')).toBe('1,234,567 MLX'));
    // The export's hint names the CSV's USD column; the amounts shown are what this test is about.
    const shown = container.cloneNode(true) as HTMLElement;
    shown.querySelector('.history-export')?.remove();
    expect(textOf(shown)).not.toContain('USD');
  });

  it('given the address call fails, then the hero says Invalid address and offers no copy', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const container = await renderDashboard({ 'wallet.address': () => failure });
    await waitFor(() => expect(container.querySelector('.account-address')?.textContent).toBe('Millix address:Invalid address'));
    expect(() => byRole(container, 'button', 'Copy address')).toThrow();
  });

  it('given the copy button, when pressed, then the address is on the clipboard and Copied is announced', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const container = await renderDashboard();
    await waitFor(() => byRole(container, 'button', 'Copy address'));
    click(byRole(container, 'button', 'Copy address'));
    await waitFor(() => expect(container.querySelector('.account-address [role="status"]')?.textContent).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith(ADDRESS_A);
    expect(byRole(container, 'button', 'Copied')).toBeTruthy();
  });

  it('given balance, rate, pending and transactions all fail, then each is logged and nothing alarming shows', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const container = await renderDashboard({
      'wallet.balance': () => failure,
      'wallet.rate': () => failure,
      'wallet.pending': () => failure,
      'wallet.transactions': () => failure,
    });
    await waitFor(() => expect(textOf(container)).toContain('No transaction data available to display'));
    expect(figure(container, 'current')).toBe('—');
    expect(container.querySelector('[role="alert"]')).toBeNull();
    expect(textOf(container)).not.toContain('boom');
    const logged = consoleError.mock.calls.map((call) => String(call[0]));
    for (const what of ['balance', 'rate', 'pending transactions', 'transactions'])
      expect(logged).toContain(`Dashboard: ${what} could not be loaded`);
  });
});

describe('AccountPage transactions', () => {
  it('given no pending items, then there is no pending section; given some, then it lists them without a balance column', async () => {
    const container = await renderDashboard();
    await waitFor(() => expect(container.querySelectorAll('.tx-table tbody tr')).toHaveLength(3));
    expect(textOf(container)).not.toContain('Pending transactions');
    rendered?.unmount();

    const withPending = await renderDashboard({ 'wallet.pending': () => ({ data: { content: [pending()] } }) });
    await waitFor(() => expect(withPending.querySelector('#pending-title')?.textContent).toBe('Pending transactions'));
    const pendingTable = withPending.querySelector('table[aria-labelledby="pending-title"]');
    expect([...(pendingTable?.querySelectorAll('th') ?? [])].map((th) => th.textContent)).toEqual(['Date', 'From / To', 'Amount']);
    expect(pendingTable?.querySelector('tbody tr')?.textContent).toBe('23/11/2026, 9:30 amSent to bob\u22125,000 MLXincl. 1,000 MLX fee');
  });

  it('given completed transactions, then the table has Date, From / To, Amount, Balance with shortened addresses titled in full', async () => {
    const container = await renderDashboard();
    await waitFor(() => expect(container.querySelectorAll('.tx-table tbody tr')).toHaveLength(3));
    const table = container.querySelector('table[aria-labelledby="transactions-title"]');
    expect([...(table?.querySelectorAll('th') ?? [])].map((th) => th.textContent)).toEqual(['Date', 'From / To', 'Amount', 'Balance']);
    const party = table?.querySelector('tbody tr .tx-party');
    expect(party?.textContent).toBe('Received from 1BoatSLRHt…b53LETtpyT');
    expect(party?.getAttribute('title')).toMatch(/^1BoatSLRHtKNngkdXEeobR76b53LETtpyT0a0/);
    expect(table?.querySelector('tbody tr')?.textContent).toBe(
      '22/11/2026, 3:04 pmReceived from 1BoatSLRHt…b53LETtpyT+1,234,567 MLX2,234,567 MLX',
    );
  });

  it('given no completed transactions, then the empty state shows and no pagination', async () => {
    const container = await renderDashboard({ 'wallet.transactions': () => page(0, 0) });
    await waitFor(() => expect(textOf(container)).toContain('No transaction data available to display'));
    expect(container.querySelector('nav.pagination')).toBeNull();
  });

  it('given 25 transactions, then page 0 is asked first and Next asks for page 1', async () => {
    const container = await renderDashboard({ 'wallet.transactions': (input) => page(10, 25, (input as { page: number }).page) });
    await waitFor(() => expect(container.querySelectorAll('.tx-table tbody tr')).toHaveLength(10));
    const asked = () => (rendered?.calls ?? []).filter((call) => call.path === 'wallet.transactions').map((call) => call.input);
    expect(asked()[0]).toEqual({ page: 0 });
    click(byRole(container, 'button', 'Next'));
    await waitFor(() => expect(byRole(container, 'button', 'Page 2').getAttribute('aria-current')).toBe('page'));
    await waitFor(() => expect(asked()).toContainEqual({ page: 1 }));
    await waitFor(() => expect(container.querySelector('.tx-table tbody tr .tx-open')?.closest('tr')?.textContent).toContain('22/11/2026'));
  });

  it('given a row, when it is clicked, then the detail popup opens for that transaction', async () => {
    const container = await renderDashboard();
    await waitFor(() => expect(container.querySelectorAll('.tx-table tbody tr')).toHaveLength(3));
    click(container.querySelectorAll('.tx-table tbody tr td')[2] as Element);
    await waitFor(() => expect(container.querySelector('dialog[open] .tx-detail-id')?.textContent).toBe('hash-0-0'));
    click(byRole(container, 'button', 'Close'));
    await waitFor(() => expect(container.querySelector('dialog')).toBeNull());
  });

  it('given a detail URL of a hash that is not the user’s, then the popup says the transaction is not in the account', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    rendered = await renderWalletPage(<AccountPage />, {
      procedures: procedures(),
      path: '/account/transactions/someone-elses',
      route: '/account/transactions/:hash',
    });
    const { container } = rendered;
    await waitFor(() =>
      expect(container.querySelector('dialog[open] [role="alert"]')?.textContent).toBe(
        'That transaction is not in your account. Check the link, or open it from your list of transactions.',
      ),
    );
    expect(container.querySelector('dialog[open] .tx-detail')).toBeNull();
  });

  it('given a phone-sized screen, then transactions are cards with short dates that open the popup', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 600px)',
      addEventListener() {},
      removeEventListener() {},
    }));
    const container = await renderDashboard();
    await waitFor(() => expect(container.querySelectorAll('.tx-cards .tx-card')).toHaveLength(3));
    expect(container.querySelector('table')).toBeNull();
    const card = container.querySelector('.tx-card') as HTMLElement;
    expect(card.textContent).toBe('Received from 1BoatSLRHt…b53LETtpyT+1,234,567 MLX22/11/2026Balance: 2,234,567 MLX');
    click(card);
    await waitFor(() => expect(container.querySelector('dialog[open]')).not.toBeNull());
  });
});

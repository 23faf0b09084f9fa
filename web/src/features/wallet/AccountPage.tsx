/**
 * /account, the dashboard (spec, Dashboard): the balance hero, the pending transactions (only
 * when there are any), the completed transactions with pagination, and the detail popup. The
 * data stays current by polling (useWalletQueries.ts); failures other than the address's are
 * logged only, as spec section 8 says.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useLocation, useMatch, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useAuth } from '../auth/AuthProvider.js';
import { EmailVerificationNotice } from '../identity/EmailVerificationNotice.js';
import { HISTORY_FILTER_PARAMS, HistoryFilter, filterTextOf, parseFilterText } from './HistoryFilter.js';
import { ArrivalNotice } from './ArrivalNotice.js';
import { BalanceHero } from './BalanceHero.js';
import { PaginationBar } from './PaginationBar.js';
import { TransactionDialog } from './TransactionDialog.js';
import { TransactionList } from './TransactionList.js';
import { HistoryExport } from '../receipts/HistoryExport.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useIsMobile } from '../../ui/useMediaQuery.js';
import { useDashboardQueries } from './useWalletQueries.js';
import { useLogFailure } from '../../ui/useLogFailure.js';
import type { WalletTransaction } from './walletFormat.js';
import './wallet.css';

/**
 * The open detail lives in the URL (/account/transactions/<hash>), so it can be linked, reloaded
 * and closed with Back. The transaction is fetched by hash from the server (the caller's own
 * only); an unknown hash opens the popup with a clear message instead of the rows.
 */
function useTransactionInUrl() {
  const trpc = useTRPC();
  const navigate = useNavigate();
  // The history filter's query string goes with the detail and comes back when it closes.
  const { search } = useLocation();
  // useMatch, not useParams: the detail is a child route that the dashboard itself answers.
  const hash = useMatch('/account/transactions/:hash')?.params.hash;
  const lookup = useQuery(trpc.wallet.transaction.queryOptions({ hash: hash ?? '' }, { enabled: hash !== undefined, retry: false }));
  useLogFailure('transaction detail', lookup.error);
  const open = (transaction: WalletTransaction) =>
    void navigate(`/account/transactions/${encodeURIComponent(transaction.transaction_hash)}${search}`);
  const close = () => void navigate(`/account${search}`);
  const selected: WalletTransaction | null = hash === undefined ? null : (lookup.data?.transaction ?? null);
  return { selected, open, close, notFound: hash !== undefined && lookup.isError };
}

function Dashboard({ userId }: { userId: string }) {
  const { t } = useTranslation('wallet');
  const trpc = useTRPC();
  const language = useLanguage();
  const mobile = useIsMobile();
  const [searchParams, setSearchParams] = useSearchParams();
  const filterText = filterTextOf(searchParams);
  const parsedFilter = parseFilterText(filterText);
  const filter = parsedFilter.ok ? parsedFilter.filter : undefined;
  const filterKey = JSON.stringify(filter ?? null);
  const [paged, setPaged] = useState({ filterKey, page: 0 });
  // A new filter starts at its first page.
  const page = paged.filterKey === filterKey ? paged.page : 0;
  const setPage = (next: number) => setPaged({ filterKey, page: next });
  const applyFilter = (text: Record<(typeof HISTORY_FILTER_PARAMS)[number], string>) => {
    const next = new URLSearchParams(searchParams);
    for (const field of HISTORY_FILTER_PARAMS) {
      if (text[field] === '') next.delete(field);
      else next.set(field, text[field]);
    }
    setPaged({ filterKey: '', page: 0 });
    setSearchParams(next);
  };
  const { selected, open, close, notFound } = useTransactionInUrl();
  const user = useQuery(trpc.identity.user.queryOptions({ id: userId }));
  useLogFailure('user', user.error);
  const { address, balance, rate, pending, transactions, hold } = useDashboardQueries(page, filter);
  // What the arrival notice compares: the pending list and the newest page (older pages hold nothing new).
  const pendingData = pending.data;
  // A filtered page is not the newest rows, so it is not compared.
  const firstPage = page === 0 && filter === undefined && !transactions.isPlaceholderData ? transactions.data : undefined;
  const arrivalLists = useMemo(
    () => (pendingData && (firstPage || page !== 0) ? [pendingData.content, firstPage?.transactions ?? []] : undefined),
    [pendingData, firstPage, page],
  );

  if (address.isPending || balance.isPending) return <LoadingStatus />;
  const pendingItems = pending.data?.content ?? [];
  const listProps = { mobile, language, onOpen: open };
  return (
    <div className="dashboard">
      <h1>{t('dashboard.title')}</h1>
      <EmailVerificationNotice />
      <ArrivalNotice lists={arrivalLists} language={language} />
      <BalanceHero
        balance={balance.data}
        rate={rate.data?.rate}
        username={user.data?.username}
        address={address.data?.address ?? 'invalid'}
        language={language}
        hold={hold.data}
      />
      {pendingItems.length > 0 ? (
        <section className="tx-section" aria-labelledby="pending-title">
          <h2 id="pending-title">{t('dashboard.pendingTransactions')}</h2>
          <TransactionList transactions={pendingItems} showBalance={false} labelledBy="pending-title" {...listProps} />
        </section>
      ) : null}
      <section
        className="tx-section"
        aria-labelledby="transactions-title"
        aria-busy={transactions.isFetching && transactions.isPlaceholderData}
      >
        <h2 id="transactions-title">{t('dashboard.transactions')}</h2>
        <HistoryFilter value={filterText} urlErrors={parsedFilter.ok ? {} : parsedFilter.errors} onApply={applyFilter} />
        {transactions.data?.scan_limited ? (
          <p className="history-filter-note" role="status">
            {t('history.filter.scanLimited')}
          </p>
        ) : null}
        {transactions.isPending ? (
          <LoadingStatus />
        ) : transactions.data && transactions.data.transactions.length > 0 ? (
          <>
            <TransactionList transactions={transactions.data.transactions} showBalance labelledBy="transactions-title" {...listProps} />
            <PaginationBar page={page} total={transactions.data.total} limit={transactions.data.limit} onPageChange={setPage} />
          </>
        ) : (
          <p className="tx-empty">{filter === undefined ? t('dashboard.noTransactions') : t('history.filter.noMatches')}</p>
        )}
      </section>
      <HistoryExport />
      <TransactionDialog transaction={selected} language={language} onClose={close} notFound={notFound} />
    </div>
  );
}

export function AccountPage() {
  const { t } = useTranslation('wallet');
  useDocumentTitle(t('dashboard.title'));
  const { state } = useAuth();
  // The route guard renders this page only with a session, so a missing id is a wiring defect.
  if (!state.id) throw new Error('AccountPage rendered without a session');
  return <Dashboard userId={state.id} />;
}

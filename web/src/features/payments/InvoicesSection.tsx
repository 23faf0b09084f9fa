/**
 * The Invoices section of the payments page: the merchant's invoices newest first (tRPC
 * invoices.list as one infinite query, so voiding one refetches every loaded page and no row keeps
 * a stale status), filtered by status, a table on desktop and cards on phones like the payments
 * above it, each with its hosted page and, while nothing has reached it, a Void action (once MLX
 * reached it, Refund and its refunds: InvoiceRefundAction.tsx); and the
 * CSV export of a date range, downloaded by the browser itself from the session export
 * (GET /api/quern/invoices/export).
 */
import { INVOICE_STATUSES, type InvoiceOutput, type InvoiceStatus } from '@quern/core/invoices';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { DayRangeDownload } from '../../ui/DayRangeDownload.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadMoreButton, listFailed, nextPageOf } from '../../ui/LoadMore.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { formatMlxWire, formatStyledDate, formatUsdWire } from '../../ui/displayFormat.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { InvoiceRefundAction, InvoiceRefundList } from './InvoiceRefundAction.js';
import { InvoiceVoidAction } from './InvoiceVoidAction.js';
import './invoices.css';

const PAGE_SIZE = 20;

function InvoiceText({ invoice }: { invoice: InvoiceOutput }) {
  return (
    <>
      {invoice.reference ? <strong className="invoices-reference">{invoice.reference}</strong> : null}
      {invoice.description ? <span className="invoices-description">{invoice.description}</span> : null}
      {invoice.reference || invoice.description ? null : <span>—</span>}
    </>
  );
}

function InvoiceRow({ invoice, mobile }: { invoice: InvoiceOutput; mobile: boolean }) {
  const { t } = useTranslation('payments');
  const language = useLanguage();
  const amount = `${formatMlxWire(invoice.amount_mlx, language) ?? invoice.amount_mlx} MLX`;
  const usd =
    invoice.amount_usd === null
      ? null
      : t('invoiceUsdPrice', { amount: formatUsdWire(invoice.amount_usd, language) ?? invoice.amount_usd });
  const paid = invoice.amount_paid_mlx === '0' ? '—' : `${formatMlxWire(invoice.amount_paid_mlx, language) ?? invoice.amount_paid_mlx} MLX`;
  const status = (
    <span className={`payments-status invoices-status-${invoice.status}`} data-testid="invoice-status">
      {t(`invoiceStatus_${invoice.status}`)}
    </span>
  );
  const link = (
    <a href={invoice.hosted_url} target="_blank" rel="noreferrer">
      {t('invoiceOpenPage')}
    </a>
  );
  if (mobile)
    return (
      <li className="payments-card" data-testid="invoice">
        <div className="payments-card-top">
          <strong>{amount}</strong>
          {status}
        </div>
        {usd ? <div>{usd}</div> : null}
        <div className="invoices-text">
          <InvoiceText invoice={invoice} />
        </div>
        <div>{formatStyledDate(invoice.created_at, 'short')}</div>
        {invoice.amount_paid_mlx === '0' ? null : (
          <div>
            {t('invoicePaid')}: {paid}
          </div>
        )}
        <div>{link}</div>
        <InvoiceVoidAction invoice={invoice} />
        <InvoiceRefundAction invoice={invoice} />
        <InvoiceRefundList invoice={invoice} />
      </li>
    );
  return (
    <tr data-testid="invoice">
      <td>{formatStyledDate(invoice.created_at, 'long')}</td>
      <td>
        <div className="invoices-text">
          <InvoiceText invoice={invoice} />
        </div>
      </td>
      <td className="payments-number">
        {amount}
        {usd ? <div className="invoices-usd">{usd}</div> : null}
      </td>
      <td className="payments-number">{paid}</td>
      <td>{status}</td>
      <td>
        {link}
        <InvoiceVoidAction invoice={invoice} />
        <InvoiceRefundAction invoice={invoice} />
        <InvoiceRefundList invoice={invoice} />
      </td>
    </tr>
  );
}

function InvoicesList({ status, mobile }: { status: InvoiceStatus | undefined; mobile: boolean }) {
  const { t } = useTranslation('payments');
  const trpc = useTRPC();
  const query = useInfiniteQuery(
    trpc.invoices.list.infiniteQueryOptions({ limit: PAGE_SIZE, ...(status ? { status } : {}) }, { getNextPageParam: nextPageOf }),
  );
  if (query.isPending) return <LoadingStatus />;
  if (listFailed(query)) return <FormAlert kind="error">{t('invoicesLoadFailed')}</FormAlert>;
  const invoices = query.data?.pages.flatMap((page) => page.data) ?? [];
  const more = {
    hasMore: query.hasNextPage,
    loadMore: () => query.fetchNextPage(),
    loading: query.isFetchingNextPage,
    failed: query.isFetchNextPageError,
  };
  if (invoices.length === 0 && !query.hasNextPage)
    return (
      <div className="payments-empty" data-testid="invoices-no-data">
        <p>{status ? t('invoicesNoneWithStatus') : t('invoicesNone')}</p>
      </div>
    );
  const rows = invoices.map((invoice) => <InvoiceRow key={invoice.id} invoice={invoice} mobile={mobile} />);
  return (
    <>
      {mobile ? (
        <ul className="payments-cards">{rows}</ul>
      ) : (
        <div className="payments-table-scroll">
          <table className="payments-table">
            <thead>
              <tr>
                <th scope="col">{t('date')}</th>
                <th scope="col">{t('invoiceReference')}</th>
                <th scope="col">{t('amount')}</th>
                <th scope="col">{t('invoicePaid')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>{rows}</tbody>
          </table>
        </div>
      )}
      <LoadMoreButton state={more} />
    </>
  );
}

function InvoicesExportForm() {
  const { t } = useTranslation('payments');
  return (
    <div className="payments-export">
      <h3>{t('invoicesExportTitle')}</h3>
      <DayRangeDownload
        path="/api/quern/invoices/export"
        idPrefix="invoices-export"
        labels={{ from: t('invoicesFrom'), to: t('invoicesTo'), download: t('invoicesExportCsv'), rangeReversed: t('rangeReversed') }}
      />
    </div>
  );
}

export function InvoicesSection() {
  const { t } = useTranslation('payments');
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const [status, setStatus] = useState<InvoiceStatus | undefined>(undefined);
  const filterId = useId();
  return (
    <section className="invoices-section" aria-labelledby="invoices-title" data-testid="invoices-section">
      <h2 id="invoices-title">{t('invoicesTitle')}</h2>
      <p>{t('invoicesIntro')}</p>
      <InvoicesExportForm />
      <div className="invoices-filter">
        <label htmlFor={filterId}>{t('invoicesFilter')}</label>
        <select
          id={filterId}
          value={status ?? ''}
          onChange={(e) => setStatus(e.target.value === '' ? undefined : (e.target.value as InvoiceStatus))}
        >
          <option value="">{t('invoicesFilterAll')}</option>
          {INVOICE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`invoiceStatus_${s}`)}
            </option>
          ))}
        </select>
      </div>
      <InvoicesList key={status ?? 'all'} status={status} mobile={mobile} />
    </section>
  );
}

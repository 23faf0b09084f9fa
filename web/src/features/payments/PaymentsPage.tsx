/**
 * /payments (ADR 034): the merchant's received payments, newest first, as a table on desktop and
 * cards on phones, refunds under their payment, "Load more" by cursor (a page is never shifted by
 * payments arriving meanwhile), and the CSV export of a date range, downloaded by the browser
 * itself from the session export (GET /api/quern/payments/export).
 */
import type { Payment } from '@quern/core/payments';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { DayRangeDownload } from '../../ui/DayRangeDownload.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../../ui/useMediaQuery.js';
import { formatMlxWire, formatStyledDate, formatUsdEquivalent } from '../../ui/displayFormat.js';
import { BalanceAtDay } from './BalanceAtDay.js';
import { InvoicesSection } from './InvoicesSection.js';
import { PaymentLinksSection } from './PaymentLinksSection.js';
import { RefundAction } from './RefundAction.js';
import { StatementsSection } from './StatementsSection.js';
import './payments.css';

const PAGE_SIZE = 20;

function Refunds({ payment }: { payment: Payment }) {
  const { t } = useTranslation('payments');
  const language = useLanguage();
  if (payment.refunds.length === 0) return null;
  return (
    <ul className="payments-refunds">
      {payment.refunds.map((refund) => (
        <li key={refund.id}>
          {t('refundLine', {
            amount: formatMlxWire(refund.amount, language) ?? refund.amount,
            date: formatStyledDate(refund.created_at, 'short'),
          })}
        </li>
      ))}
    </ul>
  );
}

function PaymentRow({ payment, mobile }: { payment: Payment; mobile: boolean }) {
  const { t } = useTranslation('payments');
  const language = useLanguage();
  const amount = `${formatMlxWire(payment.amount, language) ?? payment.amount} MLX`;
  const usd = formatUsdEquivalent(payment.amount, payment.usd_rate, language);
  const refunded =
    payment.amount_refunded === '0' ? '—' : `${formatMlxWire(payment.amount_refunded, language) ?? payment.amount_refunded} MLX`;
  const status = <span className={`payments-status payments-status-${payment.status}`}>{t(`status_${payment.status}`)}</span>;
  if (mobile)
    return (
      <li className="payments-card" data-testid="payment">
        <div className="payments-card-top">
          <strong>{amount}</strong>
          {status}
        </div>
        {usd ? <div>{usd} USD</div> : null}
        <div>
          {formatStyledDate(payment.created_at, 'short')} · {payment.shopper_username ?? '—'}
        </div>
        <div className="payments-order">{payment.id}</div>
        {payment.amount_refunded === '0' ? null : (
          <div>
            {t('refunded')}: {refunded}
          </div>
        )}
        <Refunds payment={payment} />
        <RefundAction payment={payment} />
      </li>
    );
  return (
    <tr data-testid="payment">
      <td>{formatStyledDate(payment.created_at, 'long')}</td>
      <td className="payments-order">{payment.id}</td>
      <td>{payment.shopper_username ?? '—'}</td>
      <td className="payments-number">{amount}</td>
      <td className="payments-number">{usd ? `${usd} USD` : '—'}</td>
      <td>
        {status}
        <Refunds payment={payment} />
      </td>
      <td className="payments-number">{refunded}</td>
      <td>
        <RefundAction payment={payment} />
      </td>
    </tr>
  );
}

/** One page of the list, and "Load more" when it is the last one loaded and more exist. */
function PaymentsChunk({
  cursor,
  isLast,
  mobile,
  onMore,
}: {
  cursor?: string;
  isLast: boolean;
  mobile: boolean;
  onMore: (c: string) => void;
}) {
  const { t } = useTranslation('payments');
  const trpc = useTRPC();
  const page = useQuery(trpc.payments.list.queryOptions({ limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }));
  if (page.isPending) return <LoadingStatus />;
  if (page.isError) return <FormAlert kind="error">{t('loadFailed')}</FormAlert>;
  if (!cursor && page.data.data.length === 0)
    return (
      <div className="payments-empty" data-testid="payments-no-data">
        <h2>{t('noData')}</h2>
        <p>{t('noPayments')}</p>
      </div>
    );
  const rows = page.data.data.map((p) => <PaymentRow key={p.id} payment={p} mobile={mobile} />);
  const next = page.data.next_cursor;
  return (
    <>
      {mobile ? (
        <ul className="payments-cards">{rows}</ul>
      ) : (
        <div className="payments-table-scroll">
          <table className="payments-table">
            {cursor ? null : (
              <thead>
                <tr>
                  <th scope="col">{t('date')}</th>
                  <th scope="col">{t('order')}</th>
                  <th scope="col">{t('shopper')}</th>
                  <th scope="col">{t('amount')}</th>
                  <th scope="col">{t('usdValue')}</th>
                  <th scope="col">{t('status')}</th>
                  <th scope="col">{t('refunded')}</th>
                  <th scope="col">{t('actions')}</th>
                </tr>
              </thead>
            )}
            <tbody>{rows}</tbody>
          </table>
        </div>
      )}
      {isLast && next ? (
        <button type="button" className="button" onClick={() => onMore(next)}>
          {t('loadMore')}
        </button>
      ) : null}
    </>
  );
}

function ExportForm() {
  const { t } = useTranslation('payments');
  return (
    <div className="payments-export">
      <h2>{t('exportTitle')}</h2>
      <DayRangeDownload
        path="/api/quern/payments/export"
        idPrefix="payments-export"
        labels={{ from: t('from'), to: t('to'), download: t('exportCsv'), rangeReversed: t('rangeReversed') }}
      />
    </div>
  );
}

export default function PaymentsPage() {
  const { t } = useTranslation('payments');
  useDocumentTitle(t('title'));
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  // One entry per loaded page: the first has no cursor, each next one the previous page's last id.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  return (
    <section className="card payments-card-page" aria-labelledby="payments-title">
      <h1 id="payments-title">{t('title')}</h1>
      <p>{t('intro')}</p>
      <p>
        <a href="/pos">{t('posLink')}</a>
      </p>
      <ExportForm />
      <BalanceAtDay />
      <StatementsSection />
      <div className="payments-list">
        {cursors.map((cursor, i) => (
          <PaymentsChunk
            key={cursor ?? 'first'}
            cursor={cursor}
            isLast={i === cursors.length - 1}
            mobile={mobile}
            onMore={(next) => setCursors((all) => [...all, next])}
          />
        ))}
      </div>
      <InvoicesSection />
      <PaymentLinksSection />
    </section>
  );
}

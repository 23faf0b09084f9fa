/**
 * /receipts/{id}: a printable receipt of one of the signed-in user's payments (issue 28, ADR 091),
 * with the same rows as its PDF (core/src/receipts/rows.ts), a Print button and the PDF in either
 * language. Another user's receipt, or a transaction without one, shows the server's not-found
 * message. Printing leaves out the site's header, footer and these buttons (receipts.css).
 */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { receiptRows } from '@quern/core/receipts';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useCompanyName } from '../shell/companyName.js';
import './receipts.css';

const pdfHref = (id: string, language: string) => `/api/quern/receipts/${encodeURIComponent(id)}/pdf?lang=${language}`;

export default function ReceiptPage() {
  const { t } = useTranslation(['receipts', 'errors']);
  useDocumentTitle(t('title'));
  const id = useParams().id ?? '';
  const trpc = useTRPC();
  const language = useLanguage();
  const company = useCompanyName();
  const receipt = useQuery(trpc.receipts.byId.queryOptions({ id }, { retry: false }));
  if (receipt.isPending) return <LoadingStatus />;
  if (receipt.isError || !receipt.data)
    return (
      <div className="receipt-page">
        <FormAlert kind="error">{t('errors:receiptNotFound')}</FormAlert>
        <Link to="/account">{t('backToAccount')}</Link>
      </div>
    );
  const data = receipt.data;
  const rows = receiptRows(data, language, (key, params) => t(key, params ?? {}));
  const other = language === 'en' ? 'es' : 'en';
  return (
    <div className="receipt-page">
      <article className="receipt" aria-labelledby="receipt-title" data-testid="receipt">
        <p className="receipt-company">{company}</p>
        <h1 id="receipt-title">{t('title')}</h1>
        <p className="receipt-kind">{t(`kinds.${data.kind}`)}</p>
        <dl className="receipt-rows">
          {rows.map((row) => (
            <div key={row.key} className="receipt-row" data-row={row.key}>
              <dt>{row.label}</dt>
              <dd className={row.isId ? 'receipt-id' : undefined}>{row.value}</dd>
            </div>
          ))}
        </dl>
        <p className="receipt-note">
          {t('issuedBy', { company })} {t('keep')}
        </p>
      </article>
      <div className="receipt-actions">
        <button type="button" className="button button-primary" onClick={() => window.print()}>
          {t('print')}
        </button>
        <a className="button" href={pdfHref(data.id, language)} download data-testid="receipt-pdf">
          {t('downloadPdf')}
        </a>
        <a className="button" href={pdfHref(data.id, other)} download hrefLang={other} data-testid="receipt-pdf-other">
          {t('otherLanguagePdf')}
        </a>
        <Link to={`/account/transactions/${encodeURIComponent(data.id)}`}>{t('backToAccount')}</Link>
      </div>
    </div>
  );
}

/**
 * The account page's export (issue 28, ADR 091): two days and a plain download link to the
 * session's CSV route, so the browser streams the file itself and no script holds the rows.
 * A reversed range is said here at once; the server checks the range again.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../ui/FormAlert.js';
import './history-export.css';

const today = () => new Date().toISOString().slice(0, 10);

export function HistoryExport() {
  const { t } = useTranslation('receipts');
  const [from, setFrom] = useState(() => `${today().slice(0, 4)}-01-01`);
  const [to, setTo] = useState(today);
  const ids = useId();
  const reversed = from !== '' && to !== '' && from > to;
  const href = `/api/quern/history/export?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  return (
    <section className="tx-section history-export" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('export.title')}</h2>
      <p className="history-export-hint">{t('export.hint')}</p>
      <div className="history-export-row">
        <label>
          {t('export.from')}
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} required data-testid="history-export-from" />
        </label>
        <label>
          {t('export.to')}
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} required data-testid="history-export-to" />
        </label>
        {reversed || !from || !to ? (
          <button type="button" className="button button-primary" disabled>
            {t('export.download')}
          </button>
        ) : (
          <a className="button button-primary" href={href} download data-testid="history-export">
            {t('export.download')}
          </a>
        )}
      </div>
      {reversed ? <FormAlert kind="error">{t('export.rangeReversed')}</FormAlert> : null}
    </section>
  );
}

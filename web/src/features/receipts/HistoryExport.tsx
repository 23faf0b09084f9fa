/**
 * The account page's export (issue 28, ADR 091): two days and a plain download link to the
 * session's CSV route (GET /api/quern/history/export), so the browser streams the file itself and
 * no script holds the rows.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DayRangeDownload } from '../../ui/DayRangeDownload.js';
import './history-export.css';

export function HistoryExport() {
  const { t } = useTranslation('receipts');
  const ids = useId();
  return (
    <section className="tx-section history-export" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('export.title')}</h2>
      <p className="history-export-hint">{t('export.hint')}</p>
      <DayRangeDownload
        path="/api/quern/history/export"
        idPrefix="history-export"
        labels={{ from: t('export.from'), to: t('export.to'), download: t('export.download'), rangeReversed: t('export.rangeReversed') }}
      />
    </section>
  );
}

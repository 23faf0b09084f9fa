/**
 * The Payments page's "Monthly statements" section (ADR 090): the merchant picks a month (this
 * one and the 24 before it) and the language of the CSV and PDF, and downloads the statement as
 * signed JSON, CSV or PDF through the session route (GET /api/quern/statements/{month}), so the
 * browser downloads the file itself, as the payments CSV does. The current month says it is open.
 */
import { FORMAT_LOCALE } from '@quern/core/i18n/format';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { useLanguage } from '../../ui/useLanguage.js';

/** Months offered: the current one and two years before it, newest first. */
const MONTHS_SHOWN = 25;

const monthsBack = (now: Date): string[] =>
  Array.from({ length: MONTHS_SHOWN }, (_, i) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7),
  );

const monthName = (month: string, language: Language): string =>
  new Intl.DateTimeFormat(FORMAT_LOCALE[language], { year: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );

export function StatementsSection() {
  const { t } = useTranslation('statements');
  const language = useLanguage();
  const [months] = useState(() => monthsBack(new Date()));
  const [month, setMonth] = useState(months[1] ?? months[0]!);
  const [documentLanguage, setDocumentLanguage] = useState<Language>(language);
  const monthId = useId();
  const languageId = useId();
  const href = (format: 'json' | 'csv' | 'pdf') =>
    `/api/quern/statements/${month}?format=${format}${format === 'json' ? '' : `&lang=${documentLanguage}`}`;
  return (
    <section className="payments-export statements" aria-labelledby={`${monthId}-title`} data-testid="statements">
      <h2 id={`${monthId}-title`}>{t('title')}</h2>
      <p>{t('intro')}</p>
      <div className="payments-export-row">
        <div className="payments-export-field">
          <label htmlFor={monthId}>{t('month')}</label>
          <select id={monthId} value={month} onChange={(e) => setMonth(e.target.value)} data-testid="statement-month">
            {months.map((m) => (
              <option key={m} value={m}>
                {monthName(m, language)}
              </option>
            ))}
          </select>
        </div>
        <div className="payments-export-field">
          <label htmlFor={languageId}>{t('language')}</label>
          <select id={languageId} value={documentLanguage} onChange={(e) => setDocumentLanguage(e.target.value === 'es' ? 'es' : 'en')}>
            <option value="en">{t('common:preferences.languages.en')}</option>
            <option value="es">{t('common:preferences.languages.es')}</option>
          </select>
        </div>
        {(['pdf', 'csv', 'json'] as const).map((format) => (
          <a key={format} className="button" href={href(format)} download data-testid={`statement-${format}`}>
            {t(format)}
          </a>
        ))}
      </div>
      {month === months[0] ? <p className="payments-export-day">{t('openNote')}</p> : null}
      <p className="payments-export-day">{t('verifyHint')}</p>
    </section>
  );
}

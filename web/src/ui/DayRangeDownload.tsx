/**
 * Two days and a plain download link to a session route that streams a CSV of that range (the
 * payments, invoices and history exports): the browser downloads the file itself, so no script
 * holds the rows. A native date input writes its value in the browser's locale, whatever the
 * page's language, so the chosen day is also written under it in the page's own format and read
 * with the field. A reversed range is said at once; the server checks the range again.
 */
import { useState } from 'react';
import { formatCalendarDay } from '../i18n/format.js';
import { FormAlert } from './FormAlert.js';
import { useLanguage } from './useLanguage.js';
import './day-range.css';

const today = () => new Date().toISOString().slice(0, 10);

function DayField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (day: string) => void }) {
  const language = useLanguage();
  const shownId = `${id}-shown`;
  return (
    <div className="day-range-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
        aria-describedby={shownId}
        data-testid={id}
      />
      <span className="day-range-shown" id={shownId} data-testid={shownId}>
        {formatCalendarDay(value, language) ?? ''}
      </span>
    </div>
  );
}

export interface DayRangeDownloadProps {
  /** The session route; `from` and `to` are added as its query. */
  path: string;
  /** The fields' ids and test ids (`{idPrefix}-from`, `{idPrefix}-to`, their `-shown`) and the link's test id. */
  idPrefix: string;
  labels: { from: string; to: string; download: string; rangeReversed: string };
}

/** From the first of this year (UTC) to today, as the exports have always opened. */
export function DayRangeDownload({ path, idPrefix, labels }: DayRangeDownloadProps) {
  const [from, setFrom] = useState(() => `${today().slice(0, 4)}-01-01`);
  const [to, setTo] = useState(today);
  const reversed = from !== '' && to !== '' && from > to;
  const href = `${path}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  return (
    <>
      <div className="day-range">
        <DayField id={`${idPrefix}-from`} label={labels.from} value={from} onChange={setFrom} />
        <DayField id={`${idPrefix}-to`} label={labels.to} value={to} onChange={setTo} />
        {reversed || !from || !to ? (
          <button type="button" className="button button-primary" disabled>
            {labels.download}
          </button>
        ) : (
          <a className="button button-primary" href={href} download data-testid={idPrefix}>
            {labels.download}
          </a>
        )}
      </div>
      {reversed ? <FormAlert kind="error">{labels.rangeReversed}</FormAlert> : null}
    </>
  );
}

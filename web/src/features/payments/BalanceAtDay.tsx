/**
 * The Payments page's "Balance at the end of a day" (ADR 089): a UTC day and the merchant wallet's
 * balance when it ended (for today, the balance so far), replayed from the log by the server
 * (payments.balanceAsOf). Styled like the page's export fields: a native date input with the day
 * written beside it in the page's own date format.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { formatCalendarDay } from '../../i18n/format.js';
import { formatMlxWire, formatStyledDate } from '../../ui/displayFormat.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useMessageText } from '../../ui/useMessageText.js';

/** Days are UTC days, as the server keys them. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

export function BalanceAtDay() {
  const { t } = useTranslation('balanceAsOf');
  const language = useLanguage();
  const messageText = useMessageText();
  const trpc = useTRPC();
  const [day, setDay] = useState(todayUtc);
  const answer = useQuery({ ...trpc.payments.balanceAsOf.queryOptions({ day }), enabled: day !== '', retry: false });
  const shown = formatCalendarDay(day, language);
  const mlx = (wire: string) => `${formatMlxWire(wire, language) ?? wire} MLX`;
  let result = null;
  if (answer.isError) {
    const view = toAppErrorView(answer.error);
    result = (
      <FormAlert kind="error">
        {view.code === null ? t('loadFailed') : messageText({ key: view.messageKey, fallback: view.message })}
      </FormAlert>
    );
  } else if (day !== '' && answer.isPending) result = <LoadingStatus />;
  else if (answer.data)
    result = (
      <div data-testid="balance-at-day">
        <dl className="payments-balance-at-day">
          <div>
            <dt>{t('current')}</dt>
            <dd data-testid="balance-at-day-current">{mlx(answer.data.balance.stable)}</dd>
          </div>
          <div>
            <dt>{t('pending')}</dt>
            <dd data-testid="balance-at-day-pending">{mlx(answer.data.balance.unstable)}</dd>
          </div>
        </dl>
        <p className="payments-export-day">{t('asOf', { time: formatStyledDate(answer.data.as_of, 'long', 'UTC', language) })}</p>
      </div>
    );
  return (
    <div className="payments-export">
      <h2>{t('title')}</h2>
      <p>{t('intro')}</p>
      <div className="payments-export-row">
        <div className="payments-export-field">
          <label htmlFor="payments-balance-day">{t('day')}</label>
          <input
            id="payments-balance-day"
            type="date"
            value={day}
            max={todayUtc()}
            onChange={(e) => setDay(e.target.value)}
            required
            aria-describedby="payments-balance-day-shown"
          />
          <span className="payments-export-day" id="payments-balance-day-shown" data-testid="payments-balance-day-shown">
            {shown ?? ''}
          </span>
        </div>
        <div aria-live="polite">{result}</div>
      </div>
    </div>
  );
}

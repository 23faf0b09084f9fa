/**
 * A short in-page notice when money arrives while the dashboard is open (issue 25): 'You received
 * 5,000 MLX from alice'. A polite live region that is always in the page, so screen readers
 * announce the text when it changes; it stays until dismissed (no timer: people read at their
 * own pace).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { scanArrivals } from './arrivals.js';
import type { WalletTransaction } from './walletFormat.js';
import { formatMlxWire } from '../../ui/displayFormat.js';

export function ArrivalNotice({
  lists,
  language,
}: {
  /** The pending list and the first page of history; undefined while either is still loading. */
  lists: ReadonlyArray<readonly WalletTransaction[]> | undefined;
  language: Language;
}) {
  const { t } = useTranslation('wallet');
  const seen = useRef<Set<string> | null>(null);
  const [arrival, setArrival] = useState<WalletTransaction | null>(null);
  useEffect(() => {
    if (!lists) return;
    const scan = scanArrivals(seen.current, lists);
    seen.current = scan.seen;
    const latest = scan.arrived[0];
    if (latest) setArrival(latest);
  }, [lists]);
  const amount = arrival === null ? null : formatMlxWire(arrival.amount, language);
  const party = arrival?.from_user?.username;
  return (
    <div className="arrival-notice" role="status" aria-live="polite">
      {arrival === null || amount === null ? null : (
        <>
          <span>{party ? t('history.arrivedFrom', { amount, party }) : t('history.arrived', { amount })}</span>
          <button type="button" className="button" onClick={() => setArrival(null)}>
            {t('history.dismiss')}
          </button>
        </>
      )}
    </div>
  );
}

/**
 * An amount with its direction shown three ways, so no one depends on colour alone: the sign
 * (+ credit, − debit), the colour (green, red; both meet WCAG AA in each theme) and an icon
 * (an arrow into the wallet, an arrow out of it).
 */
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { directionOf, signedAmount, type TransactionDirection, type WalletTransaction } from './walletFormat.js';

export function DirectionIcon({ direction }: { direction: TransactionDirection }) {
  return (
    <svg className="tx-icon" data-direction={direction} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      {direction === 'credit' ? (
        // An arrow pointing down-left: money coming in.
        <path d="M12 4 4.5 11.5M4 6v6h6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        // An arrow pointing up-right: money going out.
        <path d="M4 12l7.5-7.5M6 4h6v6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      )}
    </svg>
  );
}

export function TransactionAmount({
  transaction,
  language,
}: {
  transaction: Pick<WalletTransaction, 'transaction_type' | 'amount'>;
  language: Language;
}) {
  const { t } = useTranslation('wallet');
  const direction = directionOf(transaction);
  const amount = signedAmount(transaction, language);
  return (
    <span className={`tx-amount tx-amount-${direction}`} data-direction={direction}>
      <DirectionIcon direction={direction} />
      <span>{amount === null ? t('dashboard.unknownAmount') : t('units.amountMlx', { amount })}</span>
    </span>
  );
}

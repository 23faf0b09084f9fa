/**
 * A list of transactions: a table on desktop (Date, From / To, Amount, and Balance for completed
 * ones), cards on phones. A PayPal purchase, refund or chargeback is named by what it was in the
 * From / To column, not by the reserve wallet's address. A click anywhere on a row or card opens
 * the detail popup; keyboard users reach the same popup with the button in the row (its date) or
 * the card itself.
 */
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { describeTransaction } from './historyWords.js';
import { TransactionAmount } from './TransactionAmount.js';
import { otherPartyOf, transactionDateOf, type PurposeLabel, type WalletTransaction } from './walletFormat.js';
import { formatMlxWire, formatStyledDate } from '../../ui/displayFormat.js';

interface TransactionListProps {
  transactions: readonly WalletTransaction[];
  /** Completed transactions carry the balance after them; pending ones do not. */
  showBalance: boolean;
  mobile: boolean;
  language: Language;
  /** The id of the heading that names the list. */
  labelledBy: string;
  onOpen(transaction: WalletTransaction): void;
}

const keyOf = (transaction: WalletTransaction): string => `${transaction.transaction_hash}:${transaction.transaction_type}`;

/** 'Bought with PayPal', 'PayPal refund', 'PayPal chargeback' in the language on screen. */
function usePurposeLabel(): PurposeLabel {
  const { t } = useTranslation('wallet');
  return (kind, params) => (params ? t(`purposeRows.${kind}`, params) : t(`purposes.${kind}`));
}

/**
 * The amount as the detail shows it: a debit's fee beside it, so the row and the popup tell the
 * same total (issue 25).
 */
function AmountWithFee({ transaction, language }: { transaction: WalletTransaction; language: Language }) {
  const { t } = useTranslation('wallet');
  const fee = transaction.fee === undefined || transaction.fee === '0' ? null : formatMlxWire(transaction.fee, language);
  return (
    <>
      <TransactionAmount transaction={transaction} language={language} />
      {fee === null ? null : <span className="tx-fee">{t('history.feeBeside', { fee })}</span>}
    </>
  );
}

function BalanceText({ transaction, language }: { transaction: WalletTransaction; language: Language }) {
  const { t } = useTranslation('wallet');
  if (!('balance' in transaction)) return null;
  const balance = formatMlxWire(transaction.balance, language);
  return <>{balance === null ? t('dashboard.unknownAmount') : t('units.amountMlx', { amount: balance })}</>;
}

function TransactionTable({ transactions, showBalance, language, labelledBy, onOpen }: Omit<TransactionListProps, 'mobile'>) {
  const { t } = useTranslation('wallet');
  const purposeLabel = usePurposeLabel();
  const words = (key: string, params?: Record<string, string>) => t(key, params ?? {});
  return (
    <div className="tx-table-scroll">
      <table className="tx-table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">{t('columns.date')}</th>
            <th scope="col">{t('columns.fromTo')}</th>
            <th scope="col" className="tx-number">
              {t('columns.amount')}
            </th>
            {showBalance ? (
              <th scope="col" className="tx-number">
                {t('columns.balance')}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {transactions.map((transaction) => {
            const party = otherPartyOf(transaction, purposeLabel);
            return (
              <tr key={keyOf(transaction)} className="tx-row" onClick={() => onOpen(transaction)}>
                <td>
                  <button
                    type="button"
                    className="tx-open"
                    aria-haspopup="dialog"
                    onClick={(event) => {
                      // The row's own handler would open the popup a second time.
                      event.stopPropagation();
                      onOpen(transaction);
                    }}
                  >
                    {formatStyledDate(transactionDateOf(transaction), 'long')}
                  </button>
                </td>
                <td className="tx-party" title={party.address}>
                  {describeTransaction(transaction, words, purposeLabel)}
                </td>
                <td className="tx-number">
                  <AmountWithFee transaction={transaction} language={language} />
                </td>
                {showBalance ? (
                  <td className="tx-number">
                    <BalanceText transaction={transaction} language={language} />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function TransactionCards({ transactions, showBalance, language, labelledBy, onOpen }: Omit<TransactionListProps, 'mobile'>) {
  const { t } = useTranslation('wallet');
  const purposeLabel = usePurposeLabel();
  const words = (key: string, params?: Record<string, string>) => t(key, params ?? {});
  return (
    <ul className="tx-cards" aria-labelledby={labelledBy}>
      {transactions.map((transaction) => {
        const party = otherPartyOf(transaction, purposeLabel);
        return (
          <li key={keyOf(transaction)}>
            <button type="button" className="tx-card" aria-haspopup="dialog" onClick={() => onOpen(transaction)}>
              <span className="tx-card-top">
                <span className="tx-party" title={party.address}>
                  {describeTransaction(transaction, words, purposeLabel)}
                </span>
                <span className="tx-card-amount">
                  <AmountWithFee transaction={transaction} language={language} />
                </span>
              </span>
              <span className="tx-card-bottom">
                <span className="tx-card-date">{formatStyledDate(transactionDateOf(transaction), 'short')}</span>
                {showBalance ? (
                  <span className="tx-card-balance">
                    {t('columns.balance')}: <BalanceText transaction={transaction} language={language} />
                  </span>
                ) : null}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function TransactionList({ mobile, ...props }: TransactionListProps) {
  return mobile ? <TransactionCards {...props} /> : <TransactionTable {...props} />;
}

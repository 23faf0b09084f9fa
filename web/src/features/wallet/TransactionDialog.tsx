/**
 * The detail popup of a transaction (spec, Dashboard): ID (the transaction hash), Type in
 * upper case (what happened in words, issue 25: SENT, RECEIVED, PAYMENT TO SHOP, REFUND), From and To addresses in full, the amount with sign, colour and icon, and the date
 * (transaction_date, falling back to create_date for a pending one). A PayPal purchase, refund
 * or chargeback adds what it was and PayPal's ids after these.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { kindWords, merchantReferenceOf } from './historyWords.js';
import { Modal } from '../../ui/Modal.js';
import { TransactionAmount } from './TransactionAmount.js';
import { directionOf, purposeKindOf, transactionDateOf, type WalletTransaction } from './walletFormat.js';
import { formatMlxWire, formatStyledDate } from '../../ui/displayFormat.js';
import { historyKindOf, type TransactionPurpose } from '@quern/core/history';
import { receiptKindOf, receiptPath } from '@quern/core/receipts';
import { Link } from 'react-router';

function AddressValue({ address, username }: { address: string; username: string | undefined }) {
  return (
    <>
      <span className="tx-detail-address">{address}</span>
      {username ? <span className="tx-detail-username">{username}</span> : null}
    </>
  );
}

/**
 * What a PayPal purchase, refund or chargeback was, and the ids PayPal shows its buyer (the order,
 * the capture as "transaction", the refund or chargeback), so a question to support can name them.
 * A checkout payment (ADR 029) has only its order id.
 */
function PurposeRows({ transaction }: { transaction: WalletTransaction }) {
  const { t } = useTranslation('wallet');
  const kind = purposeKindOf(transaction);
  // Core's full purpose type: the history's wire schema may still lag behind it.
  const purpose = transaction.purpose as TransactionPurpose | undefined;
  if (kind === undefined || purpose === undefined) return null;
  // A merchant's refund of a checkout order, or a merchant's payout (ADR 033): their own ids.
  // A subscription's charge (ADR 037): the subscription it paid.
  // An invoice paid from a Quern balance (issue 27): the invoice it paid.
  if (purpose.kind === 'invoice_payment')
    return (
      <>
        <dt>{t('detail.description')}</dt>
        <dd>{t('purposes.invoice_payment')}</dd>
        <dt>{t('detail.invoiceId')}</dt>
        <dd className="tx-detail-id">{purpose.invoice_id}</dd>
      </>
    );
  if (purpose.kind === 'subscription_charge')
    return (
      <>
        <dt>{t('detail.description')}</dt>
        <dd>{t('purposes.subscription_charge')}</dd>
        <dt>{t('detail.subscriptionId')}</dt>
        <dd className="tx-detail-id">{purpose.subscription_id}</dd>
      </>
    );
  if (purpose.kind === 'checkout_refund' || purpose.kind === 'payout')
    return (
      <>
        <dt>{t('detail.description')}</dt>
        <dd>{t(`purposes.${purpose.kind}`)}</dd>
        {purpose.kind === 'checkout_refund' ? (
          <>
            <dt>{t('detail.checkoutOrderId')}</dt>
            <dd className="tx-detail-id">{purpose.order_id}</dd>
            <dt>{t('detail.checkoutRefundId')}</dt>
            <dd className="tx-detail-id">{purpose.refund_id}</dd>
          </>
        ) : (
          <>
            <dt>{t('detail.payoutId')}</dt>
            <dd className="tx-detail-id">{purpose.payout_id}</dd>
          </>
        )}
      </>
    );
  return (
    <>
      <dt>{t('detail.description')}</dt>
      <dd>{t(`purposes.${kind}`)}</dd>
      <dt>{t(kind === 'checkout' ? 'detail.checkoutOrderId' : 'detail.orderId')}</dt>
      <dd className="tx-detail-id">{purpose.order_id}</dd>
      {purpose.kind === 'checkout' ? null : (
        <>
          <dt>{t('detail.captureId')}</dt>
          <dd className="tx-detail-id">{purpose.capture_id}</dd>
        </>
      )}
      {purpose.kind === 'checkout' || purpose.refund_id === undefined ? null : (
        <>
          <dt>{t(kind === 'purchase_reversal' ? 'detail.reversalId' : 'detail.refundId')}</dt>
          <dd className="tx-detail-id">{purpose.refund_id}</dd>
        </>
      )}
    </>
  );
}

function DetailRows({ transaction, language }: { transaction: WalletTransaction; language: Language }) {
  const { t } = useTranslation('wallet');
  const fee = transaction.fee === undefined ? null : formatMlxWire(transaction.fee, language);
  const completed = 'transaction_date' in transaction;
  const reference = merchantReferenceOf(transaction);
  return (
    <dl className="tx-detail">
      <dt>{t('detail.id')}</dt>
      <dd className="tx-detail-id">{transaction.transaction_hash}</dd>
      <dt>{t('detail.type')}</dt>
      {/* The spec's upper-case Type row, in words (issue 25): PAYMENT TO SHOP, REFUND, SENT, not DEBIT/CREDIT. */}
      <dd data-direction={directionOf(transaction)}>{kindWords(historyKindOf(transaction), t).toLocaleUpperCase(language)}</dd>
      <dt>{t('detail.status')}</dt>
      <dd>{t(completed ? 'status.completed' : 'status.pending')}</dd>
      <dt>{t('detail.fromAddress')}</dt>
      <dd>
        <AddressValue address={transaction.from_address} username={transaction.from_user?.username} />
      </dd>
      <dt>{t('detail.toAddress')}</dt>
      <dd>
        <AddressValue address={transaction.to_address} username={transaction.to_user?.username} />
      </dd>
      <dt>{t('detail.amount')}</dt>
      <dd>
        <TransactionAmount transaction={transaction} language={language} />
      </dd>
      {fee === null ? null : (
        <>
          <dt>{t('detail.fee')}</dt>
          <dd>{t('units.amountMlx', { amount: fee })}</dd>
        </>
      )}
      <dt>{t('detail.date')}</dt>
      <dd>{formatStyledDate(transactionDateOf(transaction), 'long')}</dd>
      <PurposeRows transaction={transaction} />
      {reference === undefined ? null : (
        <>
          <dt>{t('history.merchantReference')}</dt>
          <dd className="tx-detail-id">{reference}</dd>
        </>
      )}
    </dl>
  );
}

/** A completed payment with a receipt (ADR 091) links to its printable page and PDF. */
function ReceiptLink({ transaction }: { transaction: WalletTransaction }) {
  const { t } = useTranslation('receipts');
  if (!('transaction_date' in transaction) || receiptKindOf(transaction) === undefined) return null;
  return (
    <p className="tx-receipt">
      <Link to={receiptPath(transaction.transaction_hash)} data-testid="tx-receipt-link">
        {t('open')}
      </Link>
    </p>
  );
}

export function TransactionDialog({
  transaction,
  language,
  onClose,
  notFound = false,
}: {
  transaction: WalletTransaction | null;
  language: Language;
  onClose(): void;
  /** The detail's URL names a transaction that is not the user's (or does not exist). */
  notFound?: boolean;
}) {
  // The errors namespace too: an unknown transaction in the URL says so in the server's words.
  const { t } = useTranslation(['wallet', 'errors']);
  const titleId = useId();
  return (
    <Modal open={transaction !== null || notFound} onClose={onClose} labelledBy={titleId} className="tx-dialog">
      <h2 id={titleId}>{t('detail.title')}</h2>
      {transaction ? <DetailRows transaction={transaction} language={language} /> : null}
      {transaction ? <ReceiptLink transaction={transaction} /> : null}
      {notFound && !transaction ? (
        <p className="tx-not-found" role="alert">
          {t('errors:transactionNotFound')}
        </p>
      ) : null}
      <div className="modal-actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('detail.close')}
        </button>
      </div>
    </Modal>
  );
}

/**
 * What became of a PayPal attempt that took no money (usePurchaseCheckout's notice), said the
 * same way on the Buy page and in the checkout popup's top-up: a declined card needs the buyer's
 * attention (an alert); a closed window is only confirmed (status).
 */
import { useTranslation } from 'react-i18next';
import type { CheckoutNotice } from './usePurchaseCheckout.js';
import './checkoutNotice.css';

export function CheckoutNoticeView({ notice }: { notice: CheckoutNotice }) {
  const { t } = useTranslation('buy');
  if (notice === null) return null;
  const declined = notice === 'declined';
  return (
    <p
      className={`form-alert buy-notice ${declined ? 'form-alert-error' : 'buy-notice-cancelled'}`}
      role={declined ? 'alert' : 'status'}
      data-testid="buy-notice"
    >
      {declined ? t('cardDeclined') : t('paymentCancelled')}
    </p>
  );
}

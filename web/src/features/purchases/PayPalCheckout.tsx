/**
 * PayPal's buttons through @paypal/react-paypal-js (spec section 7: card and credit funding on,
 * pay-later off). The SDK script comes from where the server says (`purchases.setup`): PayPal's
 * own in sandbox and live, the local PayPal server's (same origin) otherwise. The options are the
 * ones the local SDK is tested with (adapters/src/paypal/local/browser/test-shop/react-shop.js).
 */
import type { PayPalBrowserConfig } from '@quern/core/purchases';
import { PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer } from '@paypal/react-paypal-js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import type { ApproveActions } from './usePurchaseCheckout.js';

/** PayPal's locale codes for the app's languages (its buttons and popup then speak the same). */
const PAYPAL_LOCALES: Record<Language, string> = { en: 'en_US', es: 'es_ES' };

export interface CheckoutHandlers {
  createOrder(): Promise<string>;
  onApprove(data: { orderID: string }, actions: ApproveActions): Promise<void>;
  onCancel(): void;
  onError(error: unknown): void;
}

function Buttons({ handlers }: { handlers: CheckoutHandlers }) {
  const { t } = useTranslation('buy');
  const [{ isPending, isRejected }] = usePayPalScriptReducer();
  if (isRejected) {
    return (
      <p className="form-alert form-alert-error" role="alert">
        {t('paypalUnavailable')}
      </p>
    );
  }
  return (
    <>
      {isPending ? (
        <p className="loading-status" role="status">
          {t('paypalLoading')}
        </p>
      ) : null}
      <PayPalButtons
        className="buy-paypal-buttons"
        style={{ layout: 'vertical' }}
        createOrder={() => handlers.createOrder()}
        onApprove={(data, actions) => handlers.onApprove(data, actions)}
        onCancel={() => handlers.onCancel()}
        onError={(error) => handlers.onError(error)}
      />
    </>
  );
}

export function PayPalCheckout({
  paypal,
  language,
  handlers,
}: {
  paypal: PayPalBrowserConfig;
  language: Language;
  handlers: CheckoutHandlers;
}) {
  const options = useMemo(
    () => ({
      clientId: paypal.clientId,
      sdkBaseUrl: paypal.sdkBaseUrl,
      currency: 'USD',
      intent: 'capture',
      components: 'buttons',
      enableFunding: 'card,credit',
      disableFunding: 'paylater',
      locale: PAYPAL_LOCALES[language],
    }),
    [paypal.clientId, paypal.sdkBaseUrl, language],
  );
  return (
    <PayPalScriptProvider options={options}>
      <Buttons handlers={handlers} />
    </PayPalScriptProvider>
  );
}

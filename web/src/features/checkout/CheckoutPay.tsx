/**
 * The signed-in part of the popup: who is paid, by name and username (checkout.merchant; an unknown shop gets no Pay
 * button), who pays and their balance (with the shortfall when it is short, CheckoutPayer), 'Pay now' (checkout.pay), the top-ups when MLX is short, and the end: the message to
 * the shop that opened the popup, then the popup closes, or a done state with a link back.
 *
 * Paying once: the button is disabled from the click (a ref, so a second click before React
 * renders is ignored too), and the server keys a checkout by shopper, shop and cart (ADR 029), so
 * a second tab or a retried request with the same query answers the same order.
 */
import type { CheckoutPayOutput } from '@quern/core/checkout';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import type { Language } from '../../i18n/languages.js';
import { singleMessageFromServer } from '../../ui/formErrors.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { displayParams } from '../../ui/displayFormat.js';
import { CheckoutPayer } from './CheckoutPayer.js';
import { CheckoutTopUp } from './CheckoutTopUp.js';
import type { CheckoutQuery } from './checkoutQuery.js';
import { checkoutMessage, postToShop, shopOrigin } from './openerMessage.js';

type ValidQuery = Extract<CheckoutQuery, { kind: 'valid' }>;

type Phase = { kind: 'ready' } | { kind: 'short'; debit: string; rate: string | null } | { kind: 'done'; order: string };

function Done({ order, redirect }: { order: string; redirect: URL | null }) {
  const { t } = useTranslation('checkout');
  return (
    <div className="checkout-done" role="status">
      <h2>{t('doneTitle')}</h2>
      <p>{t('doneBody', { order })}</p>
      {redirect ? (
        <a className="button button-primary button-block" href={redirect.href}>
          {t('backToShop')}
        </a>
      ) : (
        <p>{t('closeWindow')}</p>
      )}
    </div>
  );
}

export function CheckoutPay({ query, language }: { query: ValidQuery; language: Language }) {
  const { t } = useTranslation('checkout');
  const trpc = useTRPC();
  const messageText = useMessageText();
  const merchant = useQuery(trpc.checkout.merchant.queryOptions({ to: query.to }, { staleTime: Number.POSITIVE_INFINITY }));
  const pay = useMutation(trpc.checkout.pay.mutationOptions());
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });
  const [error, setError] = useState<string | null>(null);
  const paying = useRef(false);

  const onPaid = (answer: CheckoutPayOutput) => {
    if (!answer.success) {
      setPhase({ kind: 'short', debit: answer.data.debit, rate: answer.data.rate });
      return;
    }
    setPhase({ kind: 'done', order: answer.order });
    const message = checkoutMessage(window.location, answer, Date.now());
    if (postToShop(window, shopOrigin(query.redirect, document.referrer), message)) window.close();
  };

  const onPay = async () => {
    if (paying.current) return;
    paying.current = true;
    setError(null);
    try {
      onPaid(await pay.mutateAsync(query.input));
    } catch (failure) {
      const message = singleMessageFromServer(toAppErrorView(failure));
      setError(messageText({ ...message, params: displayParams(message.params ?? {}, language) }));
    } finally {
      paying.current = false;
    }
  };

  if (merchant.isPending) return <LoadingStatus />;
  if (merchant.isError || !merchant.data.found) {
    return (
      <p className="form-alert form-alert-error" role="alert">
        {merchant.isError
          ? messageText(singleMessageFromServer(toAppErrorView(merchant.error)))
          : messageText('errors:checkoutMerchantNotFound')}
      </p>
    );
  }
  if (phase.kind === 'done') return <Done order={phase.order} redirect={query.redirect} />;
  return (
    <div className="checkout-pay">
      {/* The name is the merchant's own free text; the username is unique, so one shop cannot pose as another (ADR 043). */}
      <div className="checkout-merchant">
        <p>{t('payTo', { merchant: merchant.data.displayName })}</p>
        <p className="checkout-merchant-username">{t('payToUsername', { username: merchant.data.username })}</p>
      </div>
      {/* After a 4001 answer the top-up states the same shortfall, so it is said once. */}
      <CheckoutPayer priceMlx={query.price} language={language} showShortfall={phase.kind === 'ready'} />
      {error ? (
        <p className="form-alert form-alert-error" role="alert">
          {error}
        </p>
      ) : null}
      {phase.kind === 'short' ? (
        <CheckoutTopUp
          debit={phase.debit}
          rate={phase.rate}
          language={language}
          isPaying={pay.isPending}
          onCompleteOrder={() => void onPay()}
        />
      ) : (
        <button
          type="button"
          className="button button-primary button-block"
          disabled={pay.isPending}
          aria-busy={pay.isPending || undefined}
          onClick={() => void onPay()}
        >
          {pay.isPending ? t('paying') : t('payNow')}
        </button>
      )}
    </div>
  );
}

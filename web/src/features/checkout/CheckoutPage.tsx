/**
 * /checkout, the popup a shop opens (spec, Checkout): the logo, the order as a table and its
 * total; a visitor signs in inside the popup (the query and the document stay, so the shop keeps
 * its link to it), or follows Register or 'Forgot password', which return to this same checkout
 * (`?next=`, same-site only); a signed-in shopper pays (CheckoutPay.tsx). A query without price, currency or
 * to goes home; any other fault is shown with no Pay button.
 *
 * The document must be one loaded at /checkout: only it keeps the link to a shop on another
 * origin and may load PayPal for a top-up (api/src/http/static-web.ts). It is opened as a popup,
 * so it nearly always is; a client-side arrival reloads it, as the Buy page does.
 */
import type { LoginInput } from '@quern/core/identity';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { type FormErrors, singleMessageFromServer } from '../../ui/formErrors.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useAuth } from '../auth/AuthProvider.js';
import { withReturnPath } from '../auth/returnPath.js';
import { documentDecisionFor, useOwnDocument } from '../purchases/documentLoad.js';
import { Logo } from '../home/Logo.js';
import { type LoginField, LoginForm } from '../identity/LoginForm.js';
import { TwoFactorCodeForm } from '../identity/TwoFactorCodeForm.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { CheckoutCart } from './CheckoutCart.js';
import { CheckoutPay } from './CheckoutPay.js';
import { readCheckoutQuery } from './checkoutQuery.js';
import './checkout.css';

export const CHECKOUT_PATH = '/checkout';

function CheckoutSignIn() {
  const { t } = useTranslation('checkout');
  const trpc = useTRPC();
  const login = useMutation(trpc.identity.login.mutationOptions());
  const { signIn } = useAuth();
  // Register and password reset come back to this very checkout, query and all.
  const { pathname, search } = useLocation();
  const here = pathname + search;
  // Set when the account has two-factor on: the code step then signs in (ADR 040).
  const [challenge, setChallenge] = useState<string | null>(null);
  const submit = async (input: LoginInput): Promise<FormErrors<LoginField> | null> => {
    try {
      // The session changes in place: the popup stays on this order, with the same query.
      const answer = await login.mutateAsync(input);
      if ('two_factor_required' in answer) setChallenge(answer.challenge);
      else signIn(answer);
      return null;
    } catch (error) {
      return { form: singleMessageFromServer(toAppErrorView(error)), fields: {} };
    }
  };
  return (
    // The code step replaces the password step under its own heading, so the popup shows one
    // step's heading and fits its height with an error showing.
    <section className="checkout-signin" aria-labelledby={challenge ? 'two-factor-login-title' : 'checkout-signin-title'}>
      {challenge ? (
        <TwoFactorCodeForm challenge={challenge} onSignedIn={signIn} />
      ) : (
        <>
          <h2 id="checkout-signin-title">{t('signInTitle')}</h2>
          <p>{t('signInIntro')}</p>
          <LoginForm onSubmit={submit} labels={{ submit: t('login'), submitting: t('loggingIn') }} showForgotPassword={false} />
          <p className="checkout-signin-links">
            <span>
              {t('noAccount')} <Link to={withReturnPath('/register', here)}>{t('register')}</Link>
            </span>
            <Link to={withReturnPath('/password-reset', here)}>{t('forgotPassword')}</Link>
          </p>
        </>
      )}
    </section>
  );
}

function CheckoutScreen() {
  const { t } = useTranslation('checkout');
  useDocumentTitle(t('pageTitle'));
  const messageText = useMessageText();
  const language = useLanguage();
  const { search } = useLocation();
  // The page's own origin is Quern's: a redirect there is refused (ADR 043). Prerendering has no window.
  const query = useMemo(
    () => readCheckoutQuery(new URLSearchParams(search), typeof window === 'undefined' ? [] : [window.location.origin]),
    [search],
  );
  const { state } = useAuth();

  if (query.kind === 'incomplete') return <Navigate to="/" replace />;
  return (
    <main className="checkout-page">
      <section className="card checkout-card" aria-labelledby="checkout-title">
        {/* Logo and title share a row: a 480×720 popup keeps its height for the order and the buttons. */}
        <div className="checkout-head">
          <Logo className="checkout-logo" />
          <h1 id="checkout-title">{t('title')}</h1>
        </div>
        {query.kind === 'invalid' ? (
          <div role="alert" className="checkout-invalid">
            <h2>{t('invalidTitle')}</h2>
            <p className="form-alert form-alert-error">{messageText(query.messageKey)}</p>
            <p>{t('invalidHelp')}</p>
          </div>
        ) : (
          <>
            <CheckoutCart lines={query.lines} price={query.price} language={language} />
            {state.loading ? (
              <LoadingStatus />
            ) : state.isAuthenticated ? (
              <CheckoutPay query={query} language={language} />
            ) : (
              <CheckoutSignIn />
            )}
          </>
        )}
      </section>
    </main>
  );
}

export default function CheckoutPage() {
  // Decided once per visit: the document does not change while the page is shown.
  const [decision] = useState(() => documentDecisionFor(CHECKOUT_PATH));
  useOwnDocument(decision, CHECKOUT_PATH);
  if (decision === 'reload') return <LoadingStatus />;
  return <CheckoutScreen />;
}

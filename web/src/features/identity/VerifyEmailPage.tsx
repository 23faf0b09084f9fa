/**
 * /verify-email?t=<token>: the link mailed to prove the account's e-mail address (ADR 046). It
 * confirms once on arrival, signed in or not, and says whether it worked; the server checks the
 * link's MAC, expiry and single use.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPCClient } from '../../app/data/trpc.js';
import { singleMessageFromServer } from '../../ui/formErrors.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useAuth } from '../auth/AuthProvider.js';
import './identity.css';

export function VerifyEmailPage() {
  const { t } = useTranslation('identity');
  useDocumentTitle(t('verifyEmail.title'));
  const messageText = useMessageText();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('t') ?? '';
  const client = useTRPCClient();
  const { state } = useAuth();
  // A query keyed by the token, not an effect: the page may mount again while the session is
  // still being read, and every mount then follows the one call (the server answers a repeat the
  // same, but the link is single use).
  const verify = useQuery({
    queryKey: ['verify-email', token],
    queryFn: () => client.identity.verifyEmail.mutate({ token }),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

  const next = state.id ? <Link to="/account">{t('verifyEmail.openAccount')}</Link> : <Link to="/login">{t('verifyEmail.signIn')}</Link>;

  return (
    <section className="card auth-card" aria-labelledby="verify-email-title">
      <h1 id="verify-email-title">{t('verifyEmail.title')}</h1>
      {token === '' ? (
        <FormAlert kind="error">{t('verifyEmail.missing')}</FormAlert>
      ) : verify.isSuccess ? (
        <>
          <FormAlert kind="success">{t('verifyEmail.success')}</FormAlert>
          <p className="auth-switch">{next}</p>
        </>
      ) : verify.isError ? (
        <>
          <FormAlert kind="error">{messageText(singleMessageFromServer(toAppErrorView(verify.error)))}</FormAlert>
          <p className="auth-switch">{next}</p>
        </>
      ) : (
        <p className="loading-status" role="status">
          {t('verifyEmail.confirming')}
        </p>
      )}
    </section>
  );
}

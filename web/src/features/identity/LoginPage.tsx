/**
 * /login: signs in and goes to /account (the spec's post-login destination), or back to the
 * protected page that sent the visitor here (`?next=`, same-site paths only), saying why when
 * that page is a shared link (a merchant's plans, the contact form). An account with
 * two-factor on answers the password with a challenge; the code step then signs in (ADR 040).
 */
import type { LoginInput, SessionOutput } from '@quern/core/identity';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { singleMessageFromServer, type FormErrors } from '../../ui/formErrors.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useHydrated } from '../../ui/useHydrated.js';
import { useAuth } from '../auth/AuthProvider.js';
import { RETURN_PARAM, safeReturnPath, signInReason } from '../auth/returnPath.js';
import { LoginForm, type LoginField } from './LoginForm.js';
import { TwoFactorCodeForm } from './TwoFactorCodeForm.js';
import './identity.css';

export function LoginPage() {
  const { t } = useTranslation('identity');
  useDocumentTitle(t('login.title'));
  const trpc = useTRPC();
  const login = useMutation(trpc.identity.login.mutationOptions());
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [challenge, setChallenge] = useState<string | null>(null);
  const [searchParams] = useSearchParams();
  const returnPath = safeReturnPath(searchParams.get(RETURN_PARAM));
  // The prerendered page has no query string: the reason appears once React has taken over.
  const hydrated = useHydrated();
  const reason = hydrated ? signInReason(returnPath) : null;

  const signedIn = (session: SessionOutput) => {
    signIn(session);
    void navigate(returnPath ?? '/account', { replace: true });
  };

  const submit = async (input: LoginInput): Promise<FormErrors<LoginField> | null> => {
    try {
      const answer = await login.mutateAsync(input);
      if ('two_factor_required' in answer) setChallenge(answer.challenge);
      else signedIn(answer);
      return null;
    } catch (error) {
      return { form: singleMessageFromServer(toAppErrorView(error)), fields: {} };
    }
  };

  return (
    <section className="card auth-card" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      {reason && (
        <p className="auth-reason">
          {reason.key === 'userPlans' ? t('login.reason.userPlans', { username: reason.username }) : t('login.reason.contact')}
        </p>
      )}
      {challenge ? <TwoFactorCodeForm challenge={challenge} onSignedIn={signedIn} /> : <LoginForm onSubmit={submit} />}
      <p className="auth-switch">
        {t('login.noAccount')} <Link to="/register">{t('login.register')}</Link>
      </p>
    </section>
  );
}

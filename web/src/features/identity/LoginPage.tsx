/** /login: signs in and goes to /account (the spec's post-login destination). */
import type { LoginInput } from '@quern/core/identity';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { singleMessageFromServer, type FormErrors } from '../../ui/formErrors.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useAuth } from '../auth/AuthProvider.js';
import { LoginForm, type LoginField } from './LoginForm.js';
import './identity.css';

export function LoginPage() {
  const { t } = useTranslation('identity');
  useDocumentTitle(t('login.title'));
  const trpc = useTRPC();
  const login = useMutation(trpc.identity.login.mutationOptions());
  const { signIn } = useAuth();
  const navigate = useNavigate();

  const submit = async (input: LoginInput): Promise<FormErrors<LoginField> | null> => {
    try {
      signIn(await login.mutateAsync(input));
      void navigate('/account', { replace: true });
      return null;
    } catch (error) {
      return { form: singleMessageFromServer(toAppErrorView(error)), fields: {} };
    }
  };

  return (
    <section className="card auth-card" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      <LoginForm onSubmit={submit} />
      <p className="auth-switch">
        {t('login.noAccount')} <Link to="/register">{t('login.register')}</Link>
      </p>
    </section>
  );
}

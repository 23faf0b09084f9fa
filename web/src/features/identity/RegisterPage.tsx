/**
 * /register: creates the account, then signs in with the same credentials and goes to /account
 * (the spec's "auto-login on success"), or back to the page that sent the visitor here (`?next=`,
 * same-site paths only: the checkout popup's Register link returns to the same checkout).
 */
import type { RegisterInput } from '@quern/core/identity';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { formErrorsFromServer, type FormErrors } from '../../ui/formErrors.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useAuth } from '../auth/AuthProvider.js';
import { RETURN_PARAM, safeReturnPath, withReturnPath } from '../auth/returnPath.js';
import { RegisterForm } from './RegisterForm.js';
import { registerFields, type RegisterField } from './registerValidation.js';
import './identity.css';

export function RegisterPage() {
  const { t } = useTranslation('identity');
  useDocumentTitle(t('register.title'));
  const trpc = useTRPC();
  const register = useMutation(trpc.identity.register.mutationOptions());
  const login = useMutation(trpc.identity.login.mutationOptions());
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const returnPath = safeReturnPath(searchParams.get(RETURN_PARAM));

  const submit = async (input: RegisterInput): Promise<FormErrors<RegisterField> | null> => {
    try {
      await register.mutateAsync(input);
      const session = await login.mutateAsync({ email: input.email, password: input.password });
      // A new account has no second factor; should it ever, /login asks for the code.
      if ('two_factor_required' in session) void navigate(withReturnPath('/login', returnPath), { replace: true });
      else {
        signIn(session);
        void navigate(returnPath ?? '/account', { replace: true });
      }
      return null;
    } catch (error) {
      return formErrorsFromServer(toAppErrorView(error), registerFields);
    }
  };

  return (
    <section className="card auth-card" aria-labelledby="register-title">
      <h1 id="register-title">{t('register.title')}</h1>
      <RegisterForm onSubmit={submit} />
      <p className="auth-switch">
        {t('register.haveAccount')} <Link to={withReturnPath('/login', returnPath)}>{t('register.signIn')}</Link>
      </p>
    </section>
  );
}

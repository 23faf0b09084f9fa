/**
 * /password-reset: asks for a reset link by e-mail. Success says to check the mailbox; failure
 * shows the server's message or 'Something went wrong. Please try again.' A page that sent the
 * visitor here (`?next=`, same-site only, e.g. the checkout popup) is kept for after the reset
 * (resetReturn.ts) and offered as the way back.
 */
import { passwordResetRequestInput } from '@quern/core/identity';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { singleMessageFromServer } from '../../ui/formErrors.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { SubmitButton } from '../../ui/SubmitButton.js';
import { TextField } from '../../ui/TextField.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { rememberResetReturn } from '../auth/resetReturn.js';
import { RETURN_PARAM, safeReturnPath } from '../auth/returnPath.js';
import { useSubmission } from '../../ui/useSubmission.js';
import './identity.css';

const formAlertId = 'reset-request-alert';

export function PasswordResetPage() {
  const { t } = useTranslation('identity');
  useDocumentTitle(t('resetRequest.title'));
  const messageText = useMessageText();
  const trpc = useTRPC();
  const requestReset = useMutation(trpc.identity.requestPasswordReset.mutationOptions());
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { isSubmitting, errors, setErrors, run } = useSubmission<'email'>();
  const [searchParams] = useSearchParams();
  const returnPath = safeReturnPath(searchParams.get(RETURN_PARAM));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSent(false);
    const parsed = passwordResetRequestInput.safeParse({ email });
    if (!parsed.success) {
      setErrors({ form: { key: parsed.error.issues[0]?.message ?? 'errors:invalidEmail' }, fields: { email: null } });
      return;
    }
    void run(async () => {
      try {
        await requestReset.mutateAsync(parsed.data);
        rememberResetReturn(returnPath, Date.now());
        setSent(true);
        return null;
      } catch (error) {
        return { form: singleMessageFromServer(toAppErrorView(error)), fields: { email: null } };
      }
    });
  };

  return (
    <section className="card auth-card" aria-labelledby="reset-request-title">
      <h1 id="reset-request-title">{t('resetRequest.title')}</h1>
      <p>{t('resetRequest.intro')}</p>
      <form className="form" noValidate onSubmit={submit}>
        <TextField
          id="email"
          type="email"
          autoComplete="email"
          label={t('resetRequest.email')}
          value={email}
          onValueChange={setEmail}
          invalid={errors.fields.email !== undefined}
          describedBy={formAlertId}
        />
        {errors.form ? (
          <FormAlert id={formAlertId} kind="error">
            {messageText(errors.form)}
          </FormAlert>
        ) : null}
        {sent ? <FormAlert kind="success">{t('resetRequest.success')}</FormAlert> : null}
        <SubmitButton isSubmitting={isSubmitting} label={t('resetRequest.submit')} busyLabel={t('resetRequest.submitting')} />
      </form>
      <p className="auth-switch">
        {returnPath ? (
          <Link to={returnPath}>
            {t(returnPath.startsWith('/checkout') ? 'resetRequest.backToCheckout' : 'resetRequest.backToPrevious')}
          </Link>
        ) : (
          <Link to="/login">{t('resetRequest.backToLogin')}</Link>
        )}
      </p>
    </section>
  );
}

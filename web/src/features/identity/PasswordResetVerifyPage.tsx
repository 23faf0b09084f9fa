/**
 * /password-reset-verify?t=<token>: sets a new password. Checks run in the spec's order: a
 * missing token ('Invalid URL.'), empty fields, then the two passwords equal. Once set, 'Sign in'
 * returns to the page the reset was asked from in this browser (the checkout popup, say), if any.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { singleMessageFromServer } from '../../ui/formErrors.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useSubmission } from '../../ui/useSubmission.js';
import { resetReturnPath } from '../auth/resetReturn.js';
import { withReturnPath } from '../auth/returnPath.js';
import { NewPasswordForm, type NewPasswordField } from './NewPasswordForm.js';
import { validatePasswordReset } from './resetValidation.js';
import './identity.css';

export function PasswordResetVerifyPage() {
  const { t } = useTranslation('identity');
  useDocumentTitle(t('resetConfirm.title'));
  const messageText = useMessageText();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('t') ?? '';
  const trpc = useTRPC();
  const confirmReset = useMutation(trpc.identity.confirmPasswordReset.mutationOptions());
  const [updated, setUpdated] = useState(false);
  const submission = useSubmission<NewPasswordField>();

  const submit = (values: Record<NewPasswordField, string>) => {
    const validation = validatePasswordReset(token, values);
    if (!validation.ok) {
      submission.setErrors(validation.errors);
      return;
    }
    void submission.run(async () => {
      try {
        await confirmReset.mutateAsync(validation.input);
        setUpdated(true);
        return null;
      } catch (error) {
        return { form: singleMessageFromServer(toAppErrorView(error)), fields: {} };
      }
    });
  };

  return (
    <section className="card auth-card" aria-labelledby="reset-confirm-title">
      <h1 id="reset-confirm-title">{t('resetConfirm.title')}</h1>
      {token === '' ? (
        // A link without its token cannot succeed, so say so at once instead of offering a form.
        <>
          <FormAlert kind="error">{messageText('errors:invalidResetUrl')}</FormAlert>
          <p className="auth-switch">
            <Link to="/password-reset">{t('resetConfirm.requestNewLink')}</Link>
          </p>
        </>
      ) : updated ? (
        <FormAlert kind="success">
          {t('resetConfirm.success')} <Link to={withReturnPath('/login', resetReturnPath(Date.now()))}>{t('resetConfirm.signIn')}</Link>
        </FormAlert>
      ) : (
        <NewPasswordForm submission={submission} onSubmit={submit} />
      )}
    </section>
  );
}

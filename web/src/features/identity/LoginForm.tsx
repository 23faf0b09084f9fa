/**
 * The sign-in form: e-mail and password. Every error, the client's or the server's, shows above
 * the submit button, as the spec says; the fields it concerns are marked invalid.
 */
import { loginInput, type LoginInput } from '@quern/core/identity';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { firstIssuePerField, type FormErrors } from '../../ui/formErrors.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { SubmitButton } from '../../ui/SubmitButton.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useSubmission } from '../../ui/useSubmission.js';

const loginFields = ['email', 'password'] as const;
export type LoginField = (typeof loginFields)[number];
const formAlertId = 'login-form-alert';

/** The first field message becomes the one message above the button; the fields stay marked. */
function clientErrors(fieldMessages: Partial<Record<LoginField, string>>): FormErrors<LoginField> {
  const key = fieldMessages.email ?? fieldMessages.password ?? 'errors:invalidRequest';
  return { form: { key }, fields: Object.fromEntries(Object.keys(fieldMessages).map((field) => [field, null])) };
}

export function LoginForm({
  onSubmit,
  labels,
  showForgotPassword = true,
}: {
  onSubmit(input: LoginInput): Promise<FormErrors<LoginField> | null>;
  /** The checkout popup's own button text ('Login'); the sign-in page's otherwise. */
  labels?: { submit: string; submitting: string };
  /** Off in the checkout popup: the reset pages would take the popup away from the order. */
  showForgotPassword?: boolean;
}) {
  const { t } = useTranslation('identity');
  const messageText = useMessageText();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { isSubmitting, errors, setErrors, run } = useSubmission<LoginField>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = loginInput.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(clientErrors(firstIssuePerField(parsed.error.issues, loginFields)));
      return;
    }
    void run(() => onSubmit(parsed.data));
  };

  const fieldProps = (field: LoginField) => ({ invalid: errors.fields[field] !== undefined, describedBy: formAlertId });
  return (
    <form className="form" noValidate onSubmit={submit}>
      <TextField
        id="email"
        type="email"
        autoComplete="email"
        label={t('login.email')}
        value={email}
        onValueChange={setEmail}
        {...fieldProps('email')}
      />
      <TextField
        id="password"
        type="password"
        autoComplete="current-password"
        label={t('login.password')}
        value={password}
        onValueChange={setPassword}
        {...fieldProps('password')}
      />
      {showForgotPassword ? (
        <p className="form-aside">
          <Link to="/password-reset">{t('login.forgotPassword')}</Link>
        </p>
      ) : null}
      {errors.form ? (
        <FormAlert id={formAlertId} kind="error">
          {messageText(errors.form)}
        </FormAlert>
      ) : null}
      <SubmitButton
        isSubmitting={isSubmitting}
        label={labels?.submit ?? t('login.submit')}
        busyLabel={labels?.submitting ?? t('login.submitting')}
      />
    </form>
  );
}

/** The reset confirmation's form: the new password twice; the page decides what is valid. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../ui/FormAlert.js';
import { SubmitButton } from '../../ui/SubmitButton.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import type { Submission } from '../../ui/useSubmission.js';

export type NewPasswordField = 'password' | 'password1';
const formAlertId = 'new-password-alert';

interface NewPasswordFormProps {
  submission: Submission<NewPasswordField>;
  onSubmit(values: Record<NewPasswordField, string>): void;
}

export function NewPasswordForm({ submission, onSubmit }: NewPasswordFormProps) {
  const { t } = useTranslation('identity');
  const messageText = useMessageText();
  const [password, setPassword] = useState('');
  const [password1, setPassword1] = useState('');
  const { errors, isSubmitting } = submission;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit({ password, password1 });
  };

  return (
    <form className="form" noValidate onSubmit={submit}>
      <TextField
        id="password"
        type="password"
        autoComplete="new-password"
        label={t('resetConfirm.password')}
        value={password}
        onValueChange={setPassword}
        invalid={errors.fields.password !== undefined}
        describedBy={formAlertId}
      />
      <TextField
        id="password1"
        type="password"
        autoComplete="new-password"
        label={t('resetConfirm.password1')}
        value={password1}
        onValueChange={setPassword1}
        invalid={errors.fields.password1 !== undefined}
        describedBy={formAlertId}
      />
      {errors.form ? (
        <FormAlert id={formAlertId} kind="error">
          {messageText(errors.form)}
        </FormAlert>
      ) : null}
      <SubmitButton isSubmitting={isSubmitting} label={t('resetConfirm.submit')} busyLabel={t('resetConfirm.submitting')} />
    </form>
  );
}

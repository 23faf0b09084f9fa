/**
 * The registration form. It validates on submit (showing the spec's messages), then hands the
 * parsed input to `onSubmit`, which answers with the server's errors or null on success.
 */
import type { RegisterInput } from '@quern/core/identity';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormErrors } from '../../ui/formErrors.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { SubmitButton } from '../../ui/SubmitButton.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useSubmission } from '../../ui/useSubmission.js';
import { emptyRegisterValues, validateRegister, type RegisterField, type RegisterValues } from './registerValidation.js';
import { TermsConsent } from './TermsConsent.js';

interface FieldSpec {
  name: RegisterField;
  type: 'text' | 'email' | 'tel' | 'password';
  autoComplete: string;
}

const fieldSpecs: readonly FieldSpec[] = [
  { name: 'userName', type: 'text', autoComplete: 'username' },
  { name: 'firstName', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', type: 'text', autoComplete: 'family-name' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'phone', type: 'tel', autoComplete: 'tel' },
  { name: 'password', type: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', type: 'password', autoComplete: 'new-password' },
];

const formAlertId = 'register-form-alert';

export interface RegisterFormProps {
  onSubmit(input: RegisterInput): Promise<FormErrors<RegisterField> | null>;
}

export function RegisterForm({ onSubmit }: RegisterFormProps) {
  const { t } = useTranslation('identity');
  const messageText = useMessageText();
  const [values, setValues] = useState<RegisterValues>(emptyRegisterValues);
  const [termsAccepted, setTermsAccepted] = useState(false);
  const { isSubmitting, errors, setErrors, run } = useSubmission<RegisterField>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const validation = validateRegister(values);
    if (!validation.ok) {
      setErrors(validation.errors);
      return;
    }
    void run(() => onSubmit(validation.input));
  };

  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby="register-title">
      <div className="form-grid">
        {fieldSpecs.map(({ name, type, autoComplete }) => {
          const fieldError = errors.fields[name];
          return (
            <TextField
              key={name}
              id={name}
              type={type}
              autoComplete={autoComplete}
              label={t(`register.${name}`)}
              value={values[name]}
              onValueChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
              invalid={fieldError !== undefined}
              errorText={fieldError ? messageText(fieldError) : null}
              describedBy={formAlertId}
              hint={name === 'userName' ? t('register.userNameHint') : undefined}
            />
          );
        })}
      </div>
      <TermsConsent accepted={termsAccepted} onAcceptedChange={setTermsAccepted} />
      {errors.form ? (
        <FormAlert id={formAlertId} kind="error">
          {messageText(errors.form)}
        </FormAlert>
      ) : null}
      <SubmitButton isSubmitting={isSubmitting} label={t('register.submit')} busyLabel={t('register.submitting')} />
    </form>
  );
}

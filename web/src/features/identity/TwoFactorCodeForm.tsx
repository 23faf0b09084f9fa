/**
 * The sign-in's second step (ADR 040): after a password step that answered `two_factor_required`,
 * asks for the authenticator app's code, or a recovery code, and sends it with the challenge to
 * identity.loginTwoFactor, which creates the session. Used by /login and the checkout popup.
 */
import type { SessionOutput } from '@quern/core/identity';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { singleMessageFromServer } from '../../ui/formErrors.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { SubmitButton } from '../../ui/SubmitButton.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useSubmission } from '../../ui/useSubmission.js';

const formAlertId = 'two-factor-login-alert';

export function TwoFactorCodeForm({ challenge, onSignedIn }: { challenge: string; onSignedIn(session: SessionOutput): void }) {
  const { t } = useTranslation('twoFactor');
  const messageText = useMessageText();
  const trpc = useTRPC();
  const loginTwoFactor = useMutation(trpc.identity.loginTwoFactor.mutationOptions());
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const { isSubmitting, errors, setErrors, run } = useSubmission<'code'>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (value.trim() === '') {
      setErrors({ form: { key: useRecovery ? 'errors:recoveryCodeInvalid' : 'errors:twoFactorCodeRequired' }, fields: { code: null } });
      return;
    }
    void run(async () => {
      try {
        const input = useRecovery ? { challenge, recovery_code: value } : { challenge, code: value };
        onSignedIn(await loginTwoFactor.mutateAsync(input));
        return null;
      } catch (error) {
        return { form: singleMessageFromServer(toAppErrorView(error)), fields: { code: null } };
      }
    });
  };

  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby="two-factor-login-title">
      <h2 id="two-factor-login-title">{t('loginTitle')}</h2>
      <p>{t('loginIntro')}</p>
      <TextField
        id="two-factor-code"
        label={useRecovery ? t('recoveryCode') : t('code')}
        inputMode={useRecovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        value={value}
        onValueChange={setValue}
        invalid={errors.fields.code !== undefined}
        describedBy={formAlertId}
      />
      <p className="form-aside">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue('');
            setErrors({ form: null, fields: {} });
          }}
        >
          {useRecovery ? t('useCode') : t('useRecoveryCode')}
        </button>
      </p>
      {errors.form ? (
        <FormAlert id={formAlertId} kind="error">
          {messageText(errors.form)}
        </FormAlert>
      ) : null}
      <SubmitButton isSubmitting={isSubmitting} label={t('verify')} busyLabel={t('verifying')} />
    </form>
  );
}

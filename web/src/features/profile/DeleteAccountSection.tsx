/**
 * The profile's 'Delete account' section (issue 14, ADR 042). It says what deletion erases and
 * what it keeps; 'Delete account' opens a confirmation in place that asks for the password and,
 * when two-factor is on, a code from the app or a recovery code. On success the server has ended
 * every session of the user, so the app forgets its own and goes home with a notice.
 */
import { accountDeleteInput, type AccountDeleteInput } from '@quern/core/identity';
import { useMutation, useQuery } from '@tanstack/react-query';
import { startTransition, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toAppErrorView, type AppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { firstIssuePerField, noErrors, singleMessageFromServer, type FormErrors } from '../../ui/formErrors.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useSubmission } from '../../ui/useSubmission.js';
import { useAuth } from '../auth/AuthProvider.js';
import { homeNoticeState } from '../home/homeNotice.js';
import { EditorActions } from './EditorActions.js';

const fields = ['password', 'code', 'recovery_code'] as const;
type Field = (typeof fields)[number];
const alertId = 'delete-account-alert';
const passwordId = 'delete-account-password';

/** The form's input as the contract wants it: a second factor only when one is asked for. */
function draftInput(password: string, secondFactor: { code: string } | { recovery_code: string } | null) {
  return { password, ...secondFactor };
}

/**
 * Client-side checks with the contract's own messages, so a form the server would refuse is not
 * sent. An empty password or recovery code gets a message of its own: the contract's ('Enter
 * your current password to choose a new one', 'not valid or already used') are worded for
 * other forms and would puzzle someone deleting an account who typed nothing.
 */
function validate(draft: ReturnType<typeof draftInput>): { input: AccountDeleteInput } | { errors: FormErrors<Field> } {
  const parsed = accountDeleteInput.safeParse(draft);
  const messages = parsed.success ? {} : firstIssuePerField(parsed.error.issues, fields);
  if (draft.password === '') messages.password = 'profile:deleteAccount.passwordRequired';
  if ('recovery_code' in draft && draft.recovery_code.trim() === '') messages.recovery_code = 'profile:deleteAccount.recoveryCodeRequired';
  if (parsed.success && Object.keys(messages).length === 0) return { input: parsed.data };
  return { errors: { form: null, fields: messages } };
}

/** The field each of the server's messages is about, for a refusal that does not name it. */
const fieldOfMessage: Record<string, Field> = {
  'errors:deletePasswordRequired': 'password',
  'errors:wrongCurrentPassword': 'password',
  'errors:twoFactorCodeRequired': 'code',
  'errors:twoFactorCodeInvalid': 'code',
  'errors:recoveryCodeInvalid': 'recovery_code',
};

/**
 * A refused deletion: its message goes in the form's alert, and the fields it is about (named by
 * the server, or known from the message) are marked invalid and point at it. The password check
 * shared with other forms names the field `current_password`.
 */
function serverErrors(view: AppErrorView): FormErrors<Field> {
  const named: Partial<Record<Field, null>> = {};
  const about = fieldOfMessage[view.messageKey];
  if (about) named[about] = null;
  for (const field of Object.keys(view.fields)) {
    const mapped = field === 'current_password' ? 'password' : field;
    if ((fields as readonly string[]).includes(mapped)) named[mapped as Field] = null;
  }
  return { form: singleMessageFromServer(view), fields: named };
}

export function DeleteAccountSection() {
  const { t } = useTranslation('profile');
  const messageText = useMessageText();
  const trpc = useTRPC();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const twoFactor = useQuery(trpc.identity.twoFactorStatus.queryOptions());
  const deleteAccount = useMutation(trpc.identity.deleteAccount.mutationOptions());
  const { isSubmitting, errors, setErrors, run } = useSubmission<Field>();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  // The server asked for a code although the status query had not said two-factor is on
  // (it failed to load, or two-factor was turned on in another tab).
  const [codeAsked, setCodeAsked] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const focusMoves = useRef(false);
  const asksSecondFactor = twoFactor.data?.enabled === true || codeAsked;

  // Focus follows the confirmation: into it when it opens, back to its button when it closes;
  // only after the user opened or closed it, never when the page first draws.
  useEffect(() => {
    if (!focusMoves.current) return;
    focusMoves.current = false;
    if (open) document.getElementById(passwordId)?.focus();
    else openButton.current?.focus();
  }, [open]);

  const clear = () => {
    setPassword('');
    setCode('');
    setRecoveryCode('');
    setUseRecovery(false);
    setErrors(noErrors);
  };
  const show = () => {
    clear();
    focusMoves.current = true;
    setOpen(true);
  };
  const cancel = () => {
    clear();
    focusMoves.current = true;
    setOpen(false);
  };
  const toggleRecovery = () => {
    setUseRecovery(!useRecovery);
    setCode('');
    setRecoveryCode('');
    setErrors({ form: null, fields: errors.fields.password ? { password: errors.fields.password } : {} });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const secondFactor = asksSecondFactor ? (useRecovery ? { recovery_code: recoveryCode } : { code }) : null;
    const checked = validate(draftInput(password, secondFactor));
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    void run(async () => {
      try {
        await deleteAccount.mutateAsync(checked.input);
      } catch (failure) {
        console.error('[profile] account deletion refused', failure);
        const view = toAppErrorView(failure);
        if (view.reason === 'twoFactorCodeRequired') setCodeAsked(true);
        return serverErrors(view);
      }
      // One transition for both: the router's own updates are transitions, and a sign-out
      // rendered before the move would let /profile's guard send the user to /login instead.
      // Signing out also empties the data cache (sessionChange.ts).
      startTransition(() => {
        signOut();
        void navigate('/', { replace: true, state: homeNoticeState('accountDeleted') });
      });
      return null;
    });
  };

  const fieldError = (field: Field) => {
    const key = errors.fields[field];
    return {
      invalid: key !== undefined,
      errorText: key ? messageText(key) : null,
      describedBy: alertId,
    };
  };

  return (
    <section className="profile-row delete-account" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title" className="profile-label">
        {t('deleteAccount.title')}
      </h2>
      <p>{t('deleteAccount.intro')}</p>
      <ul className="delete-account-facts">
        <li>{t('deleteAccount.erases')}</li>
        <li>{t('deleteAccount.usernameReserved')}</li>
        <li>{t('deleteAccount.paymentHistory')}</li>
        <li>{t('deleteAccount.walletEmpty')}</li>
      </ul>
      {open ? (
        <form className="form delete-account-confirm" noValidate onSubmit={submit} aria-labelledby="delete-account-title">
          <p>{asksSecondFactor ? t('deleteAccount.confirmIntroTwoFactor') : t('deleteAccount.confirmIntro')}</p>
          <TextField
            id={passwordId}
            type="password"
            autoComplete="current-password"
            label={t('deleteAccount.password')}
            value={password}
            onValueChange={setPassword}
            {...fieldError('password')}
          />
          {asksSecondFactor ? (
            <>
              {useRecovery ? (
                <TextField
                  id="delete-account-recovery-code"
                  label={t('deleteAccount.recoveryCode')}
                  autoComplete="off"
                  spellCheck={false}
                  value={recoveryCode}
                  onValueChange={setRecoveryCode}
                  {...fieldError('recovery_code')}
                />
              ) : (
                <TextField
                  id="delete-account-code"
                  label={t('deleteAccount.code')}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  value={code}
                  onValueChange={setCode}
                  {...fieldError('code')}
                />
              )}
              <p className="delete-account-toggle">
                <button type="button" className="link-button" onClick={toggleRecovery}>
                  {useRecovery ? t('deleteAccount.useCode') : t('deleteAccount.useRecoveryCode')}
                </button>
              </p>
            </>
          ) : null}
          {errors.form ? (
            <FormAlert id={alertId} kind="error">
              {messageText(errors.form)}
            </FormAlert>
          ) : null}
          <EditorActions
            saving={isSubmitting}
            onCancel={cancel}
            submitLabel={t('deleteAccount.confirm')}
            busyLabel={t('deleteAccount.deleting')}
            cancelLabel={t('deleteAccount.cancel')}
            danger
          />
        </form>
      ) : (
        <button ref={openButton} type="button" className="button button-danger" onClick={show}>
          {t('deleteAccount.open')}
        </button>
      )}
    </section>
  );
}

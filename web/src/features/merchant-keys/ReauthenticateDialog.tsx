/**
 * Step-up re-authentication (ADR 045). Creating or deleting the API key and adding a webhook
 * endpoint need the password given within the last 10 minutes; the server says so with the typed
 * refusal REAUTHENTICATION_REQUIRED. `useReauthentication` runs such a call, and on that refusal
 * asks for the password (or, with two-factor on, a code from the authenticator app) in a dialog,
 * proves it with identity.reauthenticate and runs the call again. Self-contained: a page adds the
 * returned dialog to its tree and wraps its calls.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { TextField } from '../../ui/TextField.js';
import { Modal } from '../../ui/Modal.js';

/** The server's typed refusal for a session whose password is too old for the call. */
export const isReauthenticationRequired = (error: unknown): boolean => toAppErrorView(error).code === 'REAUTHENTICATION_REQUIRED';

interface ReauthenticateDialogProps {
  open: boolean;
  /** true once the server accepted the password or code; false when the user cancelled. */
  onDone(proved: boolean): void;
}

export function ReauthenticateDialog({ open, onDone }: ReauthenticateDialogProps) {
  const { t } = useTranslation(['direct', 'errors']);
  const trpc = useTRPC();
  const twoFactor = useQuery({ ...trpc.identity.twoFactorStatus.queryOptions(), enabled: open });
  const prove = useMutation(trpc.identity.reauthenticate.mutationOptions());
  const [useCode, setUseCode] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const introId = useId();
  const fieldId = useId();

  const finish = (proved: boolean) => {
    setValue('');
    setError(null);
    setUseCode(false);
    onDone(proved);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (value.trim() === '') {
      setError(t(useCode ? 'errors:twoFactorCodeRequired' : 'errors:currentPasswordRequired'));
      return;
    }
    try {
      await prove.mutateAsync(useCode ? { code: value.trim() } : { password: value });
      finish(true);
    } catch (failure) {
      const view = toAppErrorView(failure);
      const key = Object.values(view.fields)[0] ?? view.messageKey;
      setError(t(key, { ns: 'errors', ...view.params, defaultValue: view.message || t('errors:internal') }));
    }
  };

  return (
    <Modal
      open={open}
      onClose={() => finish(false)}
      dismissible={!prove.isPending}
      labelledBy={titleId}
      describedBy={introId}
      className="direct-reauth-dialog"
    >
      <h2 id={titleId}>{t('reauthTitle')}</h2>
      <p id={introId}>{useCode ? t('reauthIntroCode') : t('reauthIntro')}</p>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <TextField
          key={useCode ? 'code' : 'password'}
          id={fieldId}
          label={useCode ? t('reauthCode') : t('reauthPassword')}
          type={useCode ? 'text' : 'password'}
          inputMode={useCode ? 'numeric' : undefined}
          autoComplete={useCode ? 'one-time-code' : 'current-password'}
          maxLength={useCode ? 6 : 1024}
          value={value}
          onValueChange={setValue}
          errorText={error}
        />
        {twoFactor.data?.enabled ? (
          <p className="form-aside">
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setUseCode(!useCode);
                setValue('');
                setError(null);
              }}
            >
              {useCode ? t('reauthUsePassword') : t('reauthUseCode')}
            </button>
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" disabled={prove.isPending} onClick={() => finish(false)}>
            {t('reauthCancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={prove.isPending} aria-busy={prove.isPending || undefined}>
            {prove.isPending ? t('reauthConfirming') : t('reauthConfirm')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * Wraps calls that may need a recent password: `withReauthentication(run)` answers run's result,
 * after asking for the password and running it again when the server asked for it, or undefined
 * when the user cancelled the dialog. Any other failure is thrown as it came.
 */
export function useReauthentication(): { withReauthentication<T>(run: () => Promise<T>): Promise<T | undefined>; dialog: ReactNode } {
  const [waiting, setWaiting] = useState<((proved: boolean) => void) | null>(null);
  const withReauthentication = useCallback(async <T,>(run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      if (!isReauthenticationRequired(error)) throw error;
      const proved = await new Promise<boolean>((resolve) => setWaiting(() => resolve));
      setWaiting(null);
      return proved ? run() : undefined;
    }
  }, []);
  const dialog = <ReauthenticateDialog open={waiting !== null} onDone={(proved) => waiting?.(proved)} />;
  return { withReauthentication, dialog };
}

/**
 * The profile's 'Two-factor authentication' row (ADR 040). Off: 'Turn on' starts an enrollment
 * and shows its QR code and the secret as text; a code from the app (field 'Code') confirms it,
 * and the ten recovery codes are shown once, with Copy (all of them) and Download (a .txt file
 * named with the product and the username, issue 25). On: turning it off takes the password and a code.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { CopyButton } from '../../ui/CopyButton.js';
import { FormAlert } from '../../ui/FormAlert.js';
import type { MessageRef } from '../../ui/formErrors.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { saveErrorMessage } from './saveError.js';
import { EditorActions } from './EditorActions.js';
import { downloadTextFile, recoveryCodesFileName, recoveryCodesFileText, recoveryCodesText } from './recoveryCodes.js';

const errorId = 'two-factor-alert';

type Step =
  | { kind: 'idle' }
  | { kind: 'enrolling'; enrollmentId: string; secret: string; qrSvg: string }
  | { kind: 'recovery'; codes: string[] }
  | { kind: 'disabling' };

function RecoveryCodeActions({ codes, username }: { codes: string[]; username: string }) {
  const { t } = useTranslation('twoFactor');
  const { t: tCommon } = useTranslation('common');
  const product = tCommon('brand');
  const download = () =>
    downloadTextFile(
      recoveryCodesFileName(product, username),
      recoveryCodesFileText(t('recoveryFileHeading', { product, username }), codes),
    );
  return (
    <div className="two-factor-recovery-actions">
      <CopyButton text={recoveryCodesText(codes)} what={t('recoveryCopyWhat')} testId="recovery-copy" />
      <button type="button" className="button copy-snippet-button" aria-label={t('recoveryDownloadLabel')} onClick={download}>
        {t('recoveryDownload')}
      </button>
    </div>
  );
}

/** `username`: whose codes they are, for the downloaded file's name and heading. */
export function TwoFactorSection({ username = '' }: { username?: string }) {
  const { t } = useTranslation('twoFactor');
  const messageText = useMessageText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.identity.twoFactorStatus.queryOptions());
  const start = useMutation(trpc.identity.startTwoFactor.mutationOptions());
  const confirm = useMutation(trpc.identity.confirmTwoFactor.mutationOptions());
  const disable = useMutation(trpc.identity.disableTwoFactor.mutationOptions());
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<MessageRef | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.identity.twoFactorStatus.queryKey() });
  const reset = (next: Step) => {
    setStep(next);
    setCode('');
    setPassword('');
    setError(null);
  };
  const attempt = async (task: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (failure) {
      setError(saveErrorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  const begin = () =>
    attempt(async () => {
      const enrollment = await start.mutateAsync();
      reset({ kind: 'enrolling', enrollmentId: enrollment.enrollment_id, secret: enrollment.secret, qrSvg: enrollment.qr_svg });
    });

  const submitCode = (event: FormEvent<HTMLFormElement>, enrollmentId: string) => {
    event.preventDefault();
    void attempt(async () => {
      const { recovery_codes } = await confirm.mutateAsync({ enrollment_id: enrollmentId, code });
      reset({ kind: 'recovery', codes: recovery_codes });
      await refresh();
    });
  };

  const submitDisable = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void attempt(async () => {
      await disable.mutateAsync({ password, code });
      reset({ kind: 'idle' });
      await refresh();
    });
  };

  const alert = error ? (
    <FormAlert id={errorId} kind="error">
      {messageText(error)}
    </FormAlert>
  ) : null;
  const codeField = (
    <TextField
      id="two-factor-code"
      label={t('code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      value={code}
      onValueChange={setCode}
      invalid={error !== null}
      describedBy={errorId}
    />
  );

  const body = () => {
    if (status.isError) return <FormAlert kind="error">{t('loadFailed')}</FormAlert>;
    if (!status.data) return null;
    if (step.kind === 'enrolling')
      return (
        <form className="form" noValidate onSubmit={(event) => submitCode(event, step.enrollmentId)}>
          <p>{t('scanIntro')}</p>
          <img
            className="two-factor-qr"
            src={`data:image/svg+xml;utf8,${encodeURIComponent(step.qrSvg)}`}
            alt={t('qrAlt')}
            width={200}
            height={200}
          />
          <p>
            {t('secret')}: <code data-testid="two-factor-secret">{step.secret}</code>
          </p>
          {codeField}
          {alert}
          <EditorActions
            saving={busy}
            onCancel={() => reset({ kind: 'idle' })}
            submitLabel={t('confirm')}
            busyLabel={t('confirming')}
            cancelLabel={t('cancel')}
          />
        </form>
      );
    if (step.kind === 'recovery')
      return (
        <div>
          <h3>{t('recoveryTitle')}</h3>
          <p>{t('recoveryIntro')}</p>
          <ul className="two-factor-recovery" data-testid="recovery-codes">
            {step.codes.map((recoveryCode) => (
              <li key={recoveryCode}>
                <code>{recoveryCode}</code>
              </li>
            ))}
          </ul>
          <RecoveryCodeActions codes={step.codes} username={username} />
          <button type="button" className="button" onClick={() => reset({ kind: 'idle' })}>
            {t('recoveryDone')}
          </button>
        </div>
      );
    if (step.kind === 'disabling')
      return (
        <form className="form" noValidate onSubmit={submitDisable}>
          <p>{t('disableIntro')}</p>
          <TextField
            id="two-factor-password"
            type="password"
            autoComplete="current-password"
            label={t('password')}
            value={password}
            onValueChange={setPassword}
            describedBy={errorId}
          />
          {codeField}
          {alert}
          <EditorActions
            saving={busy}
            onCancel={() => reset({ kind: 'idle' })}
            submitLabel={t('disableConfirm')}
            busyLabel={t('disabling')}
            cancelLabel={t('cancel')}
          />
        </form>
      );
    const { enabled, recoveryCodesLeft } = status.data;
    return (
      <div className="profile-value">
        <span>
          {enabled ? t('statusOn') : t('statusOff')}
          {enabled ? (
            <>
              <br />
              {t('recoveryCodesLeft', { count: recoveryCodesLeft })}
            </>
          ) : null}
        </span>
        {enabled ? (
          <button type="button" className="button" onClick={() => reset({ kind: 'disabling' })}>
            {t('disable')}
          </button>
        ) : (
          <button type="button" className="button" disabled={busy} aria-busy={busy || undefined} onClick={() => void begin()}>
            {busy ? t('enabling') : t('enable')}
          </button>
        )}
        {alert}
      </div>
    );
  };

  return (
    <section className="profile-row" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="profile-label">
        {t('title')}
      </h2>
      {body()}
    </section>
  );
}

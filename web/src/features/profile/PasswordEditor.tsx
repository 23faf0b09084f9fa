/**
 * The password's view and edit modes. The editor asks for the current password (the api needs
 * it), the new one and its confirmation; a confirmation that differs is 'Passwords do not match.'
 * and nothing is sent. Cancel clears all the inputs and the error, as the spec says.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../ui/FormAlert.js';
import type { MessageRef } from '../../ui/formErrors.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { saveErrorMessage } from './saveError.js';
import { EditorActions } from './EditorActions.js';

const errorId = 'profile-password-alert';

export function PasswordEditor({ onSave }: { onSave(password: string, currentPassword: string): Promise<unknown> }) {
  const { t } = useTranslation('profile');
  const messageText = useMessageText();
  const [editing, setEditing] = useState(false);
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<MessageRef | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);

  const close = () => {
    setEditing(false);
    setCurrent('');
    setPassword('');
    setConfirmation('');
    setError(null);
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password !== confirmation) {
      setError({ key: 'profile:passwordsDoNotMatch' });
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await onSave(password, current);
      close();
      setSaved(true);
    } catch (failure) {
      setError(saveErrorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  if (!editing)
    return (
      <div className="profile-row">
        <span className="profile-label">{t('password')}</span>
        <div className="profile-value">
          <span aria-hidden="true">{t('passwordHidden')}</span>
          <button
            type="button"
            className="button"
            aria-label={t('editField', { field: t('password') })}
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            {t('edit')}
          </button>
          {saved ? <FormAlert kind="success">{t('passwordSaved')}</FormAlert> : null}
        </div>
      </div>
    );

  return (
    <div className="profile-row profile-editing">
      <form className="form" noValidate onSubmit={(event) => void save(event)}>
        <TextField
          id="current_password"
          type="password"
          autoComplete="current-password"
          label={t('currentPassword')}
          value={current}
          onValueChange={setCurrent}
          describedBy={errorId}
        />
        <TextField
          id="password"
          type="password"
          autoComplete="new-password"
          label={t('newPassword')}
          value={password}
          onValueChange={setPassword}
          invalid={error !== null}
          describedBy={errorId}
        />
        <TextField
          id="password_confirmation"
          type="password"
          autoComplete="new-password"
          label={t('confirmPassword')}
          value={confirmation}
          onValueChange={setConfirmation}
          invalid={error?.key === 'profile:passwordsDoNotMatch'}
          describedBy={errorId}
        />
        {error ? (
          <FormAlert id={errorId} kind="error">
            {messageText(error)}
          </FormAlert>
        ) : null}
        <EditorActions saving={saving} onCancel={close} />
      </form>
    </div>
  );
}

/**
 * One profile value with a view mode and an edit mode (spec section 2, Profile): 'Edit' opens the
 * editor on the current value; Save sends it and, once the server accepts, shows the saved value
 * and closes; Cancel closes without saving. A refused save keeps the editor open with the message.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../ui/FormAlert.js';
import type { MessageRef } from '../../ui/formErrors.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { saveErrorMessage } from './saveError.js';
import { EditorActions } from './EditorActions.js';

interface EditableFieldProps {
  id: string;
  label: string;
  value: string;
  autoComplete: string;
  type?: 'text' | 'tel';
  /** Saves the value; resolves with the value as the server stored it (trimmed, normalized). */
  onSave(value: string): Promise<string>;
}

export function EditableField({ id, label, value, autoComplete, type = 'text', onSave }: EditableFieldProps) {
  const { t } = useTranslation('profile');
  const messageText = useMessageText();
  const [shown, setShown] = useState(value);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<MessageRef | null>(null);
  const [saving, setSaving] = useState(false);
  const errorId = `${id}-alert`;

  const close = () => {
    setDraft(null);
    setError(null);
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (draft === null) return;
    setSaving(true);
    setError(null);
    try {
      setShown(await onSave(draft));
      close();
    } catch (failure) {
      setError(saveErrorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  if (draft === null)
    return (
      <div className="profile-row">
        <span className="profile-label">{label}</span>
        <div className="profile-value">
          <span data-testid={`${id}-value`}>{shown}</span>
          <button type="button" className="button" aria-label={t('editField', { field: label })} onClick={() => setDraft(shown)}>
            {t('edit')}
          </button>
        </div>
      </div>
    );

  return (
    <div className="profile-row profile-editing">
      <form className="form" noValidate onSubmit={(event) => void save(event)}>
        <TextField
          id={id}
          type={type}
          autoComplete={autoComplete}
          label={label}
          value={draft}
          onValueChange={setDraft}
          invalid={error !== null}
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

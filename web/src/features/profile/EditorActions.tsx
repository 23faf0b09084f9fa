/**
 * The submit and Cancel buttons under a profile form; both wait while it is being sent. The
 * labels default to the editors' Save and Cancel.
 */
import { useTranslation } from 'react-i18next';

export function EditorActions({
  saving,
  onCancel,
  submitLabel,
  busyLabel,
  cancelLabel,
  danger = false,
}: {
  saving: boolean;
  onCancel: () => void;
  submitLabel?: string;
  busyLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
}) {
  const { t } = useTranslation('profile');
  return (
    <div className="profile-actions">
      <button
        type="submit"
        className={danger ? 'button button-danger' : 'button button-primary'}
        disabled={saving}
        aria-busy={saving || undefined}
      >
        {saving ? (busyLabel ?? t('saving')) : (submitLabel ?? t('save'))}
      </button>
      <button type="button" className="button" disabled={saving} onClick={onCancel}>
        {cancelLabel ?? t('cancel')}
      </button>
    </div>
  );
}

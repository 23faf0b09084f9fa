/** Save and Cancel under a profile editor; both wait while a save is under way. */
import { useTranslation } from 'react-i18next';

export function EditorActions({ saving, onCancel }: { saving: boolean; onCancel: () => void }) {
  const { t } = useTranslation('profile');
  return (
    <div className="profile-actions">
      <button type="submit" className="button button-primary" disabled={saving} aria-busy={saving || undefined}>
        {saving ? t('saving') : t('save')}
      </button>
      <button type="button" className="button" disabled={saving} onClick={onCancel}>
        {t('cancel')}
      </button>
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { useDarkMode } from '../../theme/darkMode.js';

/** The dark-mode switch: an on/off button (role switch) whose state is stored across visits. */
export function DarkModeSwitch() {
  const { t } = useTranslation('common');
  const [enabled, setEnabled] = useDarkMode();
  return (
    <button type="button" role="switch" aria-checked={enabled} className="theme-switch" onClick={() => setEnabled(!enabled)}>
      <span className="theme-switch-track" aria-hidden="true">
        <span className="theme-switch-thumb" />
      </span>
      <span>{t('preferences.darkMode')}</span>
    </button>
  );
}

import { defaultLanguage, isLanguage, languages } from '../../i18n/languages.js';
import { useTranslation } from 'react-i18next';
import { Dropdown } from '../../ui/Dropdown.js';

/** The language dropdown: English and Spanish, the current one in bold. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation('common');
  const current = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : defaultLanguage;
  const currentName = t(`preferences.languages.${current}`);
  return (
    <Dropdown label={currentName} ariaLabel={t('preferences.languageMenu', { language: currentName })} className="language-menu">
      {languages.map((language) => (
        <li key={language}>
          <button
            type="button"
            className={language === current ? 'dropdown-item dropdown-item-current' : 'dropdown-item'}
            aria-current={language === current ? 'true' : undefined}
            onClick={() => void i18n.changeLanguage(language)}
          >
            {t(`preferences.languages.${language}`)}
          </button>
        </li>
      ))}
    </Dropdown>
  );
}

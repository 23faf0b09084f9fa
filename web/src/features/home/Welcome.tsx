import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The visitor's greeting with the two ways in. They are links because they go to other pages. */
export function Welcome() {
  const { t } = useTranslation('home');
  return (
    <section className="welcome">
      <h2>{t('welcome')}</h2>
      <ul className="welcome__actions">
        <li>
          <Link className="button button-primary" to="/register">
            {t('register')}
          </Link>
        </li>
        <li>
          <Link className="button" to="/login">
            {t('signIn')}
          </Link>
        </li>
      </ul>
    </section>
  );
}

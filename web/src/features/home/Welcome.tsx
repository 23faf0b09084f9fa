import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * The visitor's greeting with the two ways in. They are links because they go to other pages.
 * `pending`: the session check has not answered yet (see signedInHint.ts).
 */
export function Welcome({ pending = false }: { pending?: boolean }) {
  const { t } = useTranslation('home');
  return (
    <section className={pending ? 'welcome welcome--pending' : 'welcome'}>
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

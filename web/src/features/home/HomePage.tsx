import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { Logo } from './Logo.js';
import { Slogans } from './Slogans.js';
import { Welcome } from './Welcome.js';
import './home.css';

/**
 * The landing page: logo, the looping slogans and, for visitors, the way in. It is the page
 * most people load first, so it stays within the 90 kB gzip budget for the whole entry: no
 * data fetching and nothing beyond what the shell already loads.
 */
export default function HomePage() {
  const { t } = useTranslation('home');
  const { state } = useAuth();
  useDocumentTitle(t('pageTitle'));
  return (
    <div className="home">
      <h1 className="home__brand">
        <Logo className="home__logo" label={t('logoName')} />
      </h1>
      <Slogans />
      {/* Until the session check answers we show neither greeting nor buttons, so a signed-in
          user never sees Register flash by. */}
      {!state.loading && !state.isAuthenticated && <Welcome />}
    </div>
  );
}

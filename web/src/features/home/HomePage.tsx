import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { HomeNoticeBanner } from './HomeNoticeBanner.js';
import { Logo } from './Logo.js';
import { Slogans } from './Slogans.js';
import { Welcome } from './Welcome.js';
import './home.css';

/**
 * The landing page: logo, the looping slogans and, for visitors, the way in. It is the page
 * most people load first, so it fetches no data and loads nothing beyond what the shell already
 * loads (scripts/size-check.mjs guards its size, ADR 009).
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
      <HomeNoticeBanner />
      <Slogans />
      {/* Shown while the session check runs too (the prerendered page holds it, ADR 023), hidden
          meanwhile in a browser that was signed in, so such a user never sees Register flash by. */}
      {!state.isAuthenticated && <Welcome pending={state.loading} />}
    </div>
  );
}

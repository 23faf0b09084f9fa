import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ContentPage } from './ContentPage.js';

/**
 * The spec's sell page: selling is paused ('Temporary unavailable') and currency conversion is
 * 'Coming soon'. It offers the actions that do work instead of a dead end.
 */
export default function SellPage() {
  const { t } = useTranslation('sell');
  return (
    <ContentPage pageTitle={t('pageTitle')} heading={t('heading')}>
      <div className="content-notice">
        <p className="content-notice__title">{t('unavailable')}</p>
        <p>{t('unavailableDetail')}</p>
      </div>
      <section className="content-section">
        <h2>
          {t('conversionHeading')} <span className="content-badge">{t('comingSoon')}</span>
        </h2>
        <p>{t('conversionDetail')}</p>
      </section>
      <ul className="content-actions">
        <li>
          {/* A document load: the Buy page needs the headers of its own document (see shell/SignedInLinks.tsx). */}
          <Link className="button button-primary" to="/millix/buy" reloadDocument>
            {t('buyLink')}
          </Link>
        </li>
        <li>
          <Link className="button" to="/millix/send">
            {t('sendLink')}
          </Link>
        </li>
        <li>
          <Link className="button" to="/account">
            {t('accountLink')}
          </Link>
        </li>
      </ul>
    </ContentPage>
  );
}

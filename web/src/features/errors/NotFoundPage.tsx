import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';

/** The card for any unknown route (spec: '404 - Not found'). */
export function NotFoundPage() {
  const { t } = useTranslation('common');
  useDocumentTitle(t('notFound.title'));
  return (
    <section className="card card-narrow" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <p>
        <Link to="/" className="button button-primary">
          {t('notFound.home')}
        </Link>
      </p>
    </section>
  );
}

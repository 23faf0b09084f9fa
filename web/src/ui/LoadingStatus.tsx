import { useTranslation } from 'react-i18next';

/** The spec's 'Loading...' text, announced politely to screen readers. */
export function LoadingStatus() {
  const { t } = useTranslation('common');
  return (
    <p className="loading-status" role="status">
      {t('loading')}
    </p>
  );
}

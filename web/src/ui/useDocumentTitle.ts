import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Names the browser tab after the page, so screen-reader users hear where a navigation landed. */
export function useDocumentTitle(page: string): void {
  const { t } = useTranslation('common');
  const title = t('pageTitle', { page });
  useEffect(() => {
    document.title = title;
  }, [title]);
}

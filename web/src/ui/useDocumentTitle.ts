import { createContext, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Receives the page's title while a page is prerendered (no effects run there), so the HTML
 * file carries the same <title> the browser would set.
 */
export const DocumentTitleSink = createContext<((title: string) => void) | null>(null);

/** Names the browser tab after the page, so screen-reader users hear where a navigation landed. */
export function useDocumentTitle(page: string): void {
  const { t } = useTranslation('common');
  const title = t('pageTitle', { page });
  useContext(DocumentTitleSink)?.(title);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

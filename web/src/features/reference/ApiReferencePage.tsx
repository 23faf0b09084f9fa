import { Component, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { withTimeout } from '../../app/withTimeout.js';
import { CopyButton } from '../../ui/CopyButton.js';
import { ContentPage } from '../content/ContentPage.js';
import { Sections } from '../content/Sections.js';
import { isStringList, readContent } from '../content/sectionContent.js';

/** What every integration needs before the operations: the key, retries, errors, limits, webhooks. */
export const apiReferenceSectionKeys = ['auth', 'idempotency', 'errors', 'limits', 'webhooks'] as const;

const OPENAPI_DOCUMENT_PATH = '/api/v1/openapi.json';

/** The API's base URL on this Quern; a relative one until the browser tells the origin. */
function useBaseUrl(): string {
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  return `${origin}/api/v1`;
}

/** The viewer is its own chunk (Swagger UI is large); it loads only when this page is shown. */
const ApiViewer = lazy(() => withTimeout(() => import('./ApiViewer.js'), 'the API reference viewer'));

/** A failed viewer load leaves the page's own texts and a link to the document. */
class ViewerBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * /developers/api: the merchant API's reference, drawn from /api/v1/openapi.json (ADR 036), under
 * a translated introduction. Open to all, like the developers guide it belongs to.
 */
export default function ApiReferencePage() {
  const { t } = useTranslation('apiReference');
  const baseUrl = useBaseUrl();
  return (
    <ContentPage pageTitle={t('pageTitle')} heading={t('heading')} intro={readContent(t, 'intro', isStringList)}>
      <p>
        <Link to="/developers">{t('back')}</Link> · <a href={OPENAPI_DOCUMENT_PATH}>{t('document')}</a>
      </p>
      <p className="copy-caption">
        <span>{t('baseUrl', { url: baseUrl, interpolation: { escapeValue: false } })}</span>
        <CopyButton text={baseUrl} what={t('baseUrlWhat')} testId="copy-base-url" />
      </p>
      <Sections t={t} keys={apiReferenceSectionKeys} />
      <section className="content-section">
        <h2 id="operations">{t('viewer.heading')}</h2>
        <ViewerBoundary fallback={<p role="alert">{t('viewer.failed')}</p>}>
          <Suspense fallback={<p>{t('viewer.loading')}</p>}>
            <ApiViewer />
          </Suspense>
        </ViewerBoundary>
      </section>
    </ContentPage>
  );
}

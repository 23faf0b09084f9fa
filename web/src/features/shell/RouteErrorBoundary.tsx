/**
 * Catches a page that fails to render, most often because its code could not be downloaded
 * (offline, a new deployment removed the old chunk, or the 120 s lazy-load limit). React.lazy
 * remembers a failed load, so the way out offered is a full reload.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function PageLoadFailed() {
  const { t } = useTranslation('common');
  return (
    <section className="card card-narrow" aria-labelledby="page-error-title">
      <h1 id="page-error-title">{t('pageError.title')}</h1>
      <p>{t('pageError.body')}</p>
      <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
        {t('pageError.reload')}
      </button>
    </section>
  );
}

export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('A page failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <PageLoadFailed /> : this.props.children;
  }
}

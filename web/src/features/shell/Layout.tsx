/**
 * The common frame of every page: skip link, the sandbox banner (ADR 050), navigation bar, the
 * page (loaded lazily) and the footer.
 */
import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { Footer } from './Footer.js';
import { NavBar } from './NavBar.js';
import { RouteErrorBoundary } from './RouteErrorBoundary.js';
import { SandboxBanner } from './SandboxBanner.js';
import './shell.css';

/**
 * After a client-side navigation, scrolls to the top and moves focus to the page, as a full page
 * load would; otherwise keyboard and screen-reader users stay on the link they followed. The
 * first render is left alone so the browser keeps its normal start.
 */
function useFocusPageOnNavigation(pathname: string) {
  const mainRef = useRef<HTMLElement>(null);
  const shownPathname = useRef(pathname);
  useEffect(() => {
    if (shownPathname.current === pathname) return;
    shownPathname.current = pathname;
    window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);
  return mainRef;
}

export function Layout() {
  const { t } = useTranslation('common');
  const { pathname: locationPath } = useLocation();
  // A transaction's detail URL is the dashboard with its popup open (issue 25): the same page, so
  // it is neither remounted nor refocused, and focus goes back to the row when the popup closes.
  const pathname = locationPath.startsWith('/account/transactions/') ? '/account' : locationPath;
  const mainRef = useFocusPageOnNavigation(pathname);
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <SandboxBanner />
      <NavBar />
      <main id="main" ref={mainRef} tabIndex={-1} className="page">
        <RouteErrorBoundary key={pathname}>
          <Suspense fallback={<LoadingStatus />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}

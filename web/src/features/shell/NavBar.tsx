/**
 * The top navigation bar (spec: "Top navigation bar"). Visitors see Register and Sign in;
 * signed-in users see the wallet links and a profile dropdown headed by their username. Both see
 * the dark-mode switch and the language dropdown. Below 48rem the links fold into a Menu button.
 */
import { Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { lazyComponent } from '../../app/lazyRoutes.js';
import { useAuth } from '../auth/AuthProvider.js';
import { LogoMark } from '../home/Logo.js';
import { DarkModeSwitch } from './DarkModeSwitch.js';
import { LanguageMenu } from './LanguageMenu.js';

// Signed-in links fetch the username with TanStack Query, which visitors never need to download.
const SignedInLinks = lazyComponent(() => import('./SignedInLinks.js').then((m) => m.SignedInLinks), 'signed-in navigation');

/** While the session check runs (`pending`), the links are there but hidden from a browser that was signed in. */
function VisitorLinks({ pending }: { pending: boolean }) {
  const { t } = useTranslation('common');
  return (
    <ul className={pending ? 'nav-links nav-links-pending' : 'nav-links'}>
      <li>
        <NavLink to="/register">{t('nav.register')}</NavLink>
      </li>
      <li>
        <NavLink to="/login">{t('nav.login')}</NavLink>
      </li>
    </ul>
  );
}

/**
 * Whether the small-screen menu is open. It remembers the path it was opened on, so following
 * one of its links closes it without an effect.
 */
function useMenuOpen(): [boolean, (open: boolean) => void] {
  const { pathname } = useLocation();
  const [openOn, setOpenOn] = useState<string | null>(null);
  return [openOn === pathname, (open) => setOpenOn(open ? pathname : null)];
}

export function NavBar() {
  const { t } = useTranslation('common');
  const { state } = useAuth();
  const [menuOpen, setMenuOpen] = useMenuOpen();
  const toggleRef = useRef<HTMLButtonElement>(null);
  return (
    <header className="site-header">
      <nav
        className="nav"
        aria-label={t('nav.label')}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || !menuOpen) return;
          // Focus may be inside the panel that is about to hide; give it back to the toggle.
          setMenuOpen(false);
          toggleRef.current?.focus();
        }}
      >
        <Link to={state.isAuthenticated ? '/account' : '/'} className="brand">
          <LogoMark className="brand-mark" />
          <span>{t('brand')}</span>
        </Link>
        <button
          ref={toggleRef}
          type="button"
          className="nav-toggle"
          aria-expanded={menuOpen}
          aria-controls="nav-panel"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span className="nav-toggle-icon" aria-hidden="true" />
          {t('nav.menu')}
        </button>
        <div id="nav-panel" className="nav-panel" data-open={menuOpen}>
          {/* While the session loads, the visitor links (what the prerendered page holds); a browser
              that was signed in keeps them hidden (signedInHint.ts), so they never flash for it. */}
          {state.isAuthenticated ? (
            <Suspense fallback={null}>
              <SignedInLinks />
            </Suspense>
          ) : (
            <VisitorLinks pending={state.loading} />
          )}
          <div className="nav-preferences">
            <DarkModeSwitch />
            <LanguageMenu />
          </div>
        </div>
      </nav>
    </header>
  );
}

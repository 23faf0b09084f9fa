/**
 * The sandbox's banner (ADR 050), as Stripe marks its test mode: a slim strip across the top of
 * every page but the embeddable button, saying that only test money moves here. It sits in the
 * flow above the header (nothing is covered; dialogs still cover it) and is not focusable. Live:
 * nothing at all.
 *
 * Its markup stays one element holding only text: a live server removes exactly that element
 * from the prerendered pages (api/src/http/web/quern-mode.ts), and answers every page with an
 * error (500, api/src/http/web/web-build.ts) from a build whose banner it cannot find whole,
 * rather than show "Sandbox" on a live Quern.
 */
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { SANDBOX_BANNER_ATTRIBUTE, useQuernMode } from './quernMode.js';
import './sandbox-banner.css';

export function SandboxBanner() {
  const { t } = useTranslation('common');
  if (useQuernMode() !== 'sandbox') return null;
  return (
    <div {...{ [SANDBOX_BANNER_ATTRIBUTE]: '' }} className="sandbox-banner" role="note">
      {t('sandboxBanner')}
    </div>
  );
}

/** A page without the app shell (the checkout popup) that still shows the banner. */
export function SandboxFrame() {
  return (
    <>
      <SandboxBanner />
      <Outlet />
    </>
  );
}

import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useHydrated } from '../../ui/useHydrated.js';
import { homeNoticeFromState, homeNotices } from './homeNotice.js';

/**
 * Shows the notice a navigation to the home page carried (homeNotice.ts) in a polite status
 * region. Not before the page has hydrated: the prerendered HTML has no notice, and drawing one
 * during hydration would not match it. Its strings live in their own namespace, loaded only
 * when there is a notice, so the home page's first load stays as small as before (ADR 009).
 */
export function HomeNoticeBanner() {
  const notice = homeNoticeFromState(useLocation().state);
  const hydrated = useHydrated();
  if (!notice || !hydrated) return null;
  return <NoticeText messageKey={homeNotices[notice]} />;
}

function NoticeText({ messageKey }: { messageKey: string }) {
  const [namespace = 'common'] = messageKey.split(':');
  // No suspense: the home page must not fall back to a spinner while one short string loads.
  const { t, ready } = useTranslation(namespace, { useSuspense: false });
  if (!ready) return null;
  return (
    <p className="home__notice" role="status">
      {t(messageKey)}
    </p>
  );
}

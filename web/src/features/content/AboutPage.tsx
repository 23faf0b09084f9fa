import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ContentPage } from './ContentPage.js';
import { Sections } from './Sections.js';
import { isStringList, readContent } from './sectionContent.js';

/** The spec's About sections, in order. */
export const aboutSectionKeys = ['whoWeAre', 'mission', 'advantage', 'offer', 'vision', 'getStarted'] as const;

/** Where a newcomer goes next; placed under "Get Started Today". */
function NextSteps() {
  const { t } = useTranslation('about');
  return (
    <nav className="content-actions" aria-label={t('links.label')}>
      <ul>
        <li>
          <Link className="button button-primary" to="/register">
            {t('links.register')}
          </Link>
        </li>
        <li>
          <Link className="button" to="/faqs">
            {t('links.faqs')}
          </Link>
        </li>
        <li>
          <Link className="button" to="/wordpress">
            {t('links.plugin')}
          </Link>
        </li>
      </ul>
    </nav>
  );
}

export default function AboutPage() {
  const { t } = useTranslation('about');
  return (
    <ContentPage pageTitle={t('pageTitle')} heading={t('heading')} intro={readContent(t, 'intro', isStringList)}>
      <Sections t={t} keys={aboutSectionKeys} extras={{ getStarted: <NextSteps /> }} />
    </ContentPage>
  );
}

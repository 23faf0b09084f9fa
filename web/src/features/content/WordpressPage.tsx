import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ContentPage } from './ContentPage.js';
import { Sections } from './Sections.js';
import { TestedVersions } from './TestedVersions.js';
import { isStringList, readContent } from './sectionContent.js';

/** The plugin guide's sections, in order: what you need, what was tested, then how to set up. */
export const wordpressSectionKeys = ['requirements', 'tested', 'setup', 'dokan', 'classic', 'apiKey', 'help'] as const;

export default function WordpressPage() {
  const { t } = useTranslation('wordpress');
  return (
    <ContentPage pageTitle={t('pageTitle')} heading={t('heading')} intro={readContent(t, 'intro', isStringList)}>
      <Sections
        t={t}
        keys={wordpressSectionKeys}
        extras={{
          tested: <TestedVersions />,
          apiKey: (
            <p>
              <Link to="/api-direct">{t('links.apiDirect')}</Link>
            </p>
          ),
          help: (
            <p>
              <Link to="/faqs#merchant">{t('links.faqs')}</Link> · <Link to="/developers">{t('links.developers')}</Link>
            </p>
          ),
        }}
      />
    </ContentPage>
  );
}

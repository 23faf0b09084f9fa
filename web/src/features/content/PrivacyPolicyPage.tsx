import { useTranslation } from 'react-i18next';
import { ContentPage } from './ContentPage.js';
import { Sections } from './Sections.js';
import { isStringList, readContent } from './sectionContent.js';

/** The spec's Privacy Policy sections, in order. */
export const privacySectionKeys = [
  'collect',
  'use',
  'sharing',
  'automatic',
  'security',
  'deletion',
  'children',
  'emails',
  'storage',
  'changes',
  'contact',
] as const;

export default function PrivacyPolicyPage() {
  const { t } = useTranslation('privacy');
  return (
    <ContentPage pageTitle={t('pageTitle')} heading={t('heading')} meta={t('effective')} intro={readContent(t, 'intro', isStringList)}>
      <Sections t={t} keys={privacySectionKeys} />
    </ContentPage>
  );
}

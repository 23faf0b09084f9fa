import { useTranslation } from 'react-i18next';
import { ContentPage } from './ContentPage.js';
import { Sections } from './Sections.js';
import { isStringList, readContent } from './sectionContent.js';

/** The Terms' sections, in order; the spec's rules sit in eligibility, refunds and law. */
export const termsSectionKeys = [
  'acceptance',
  'eligibility',
  'account',
  'services',
  'merchants',
  'refunds',
  'prohibited',
  'support',
  'liability',
  'changes',
  'law',
  'contact',
] as const;

export default function TermsOfServicePage() {
  const { t } = useTranslation('terms');
  return (
    <ContentPage pageTitle={t('pageTitle')} heading={t('heading')} intro={readContent(t, 'intro', isStringList)}>
      <Sections t={t} keys={termsSectionKeys} />
    </ContentPage>
  );
}

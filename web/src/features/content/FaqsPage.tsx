import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ContentPage } from './ContentPage.js';
import { LinkedText } from './LinkedText.js';
import { isFaqItem, isStringList, readContent, type FaqItem } from './sectionContent.js';

/** The spec's two FAQ groups, in order. */
export const faqGroupKeys = ['general', 'merchant'] as const;

/** Pages an answer may point to for the full story, by the `link` name in the translations. */
const faqLinks: Record<string, string> = { plugin: '/wordpress', terms: '/terms-of-service' };

const isFaqList = (value: unknown): value is FaqItem[] => Array.isArray(value) && value.every(isFaqItem);

/**
 * One question as a native disclosure widget: <details> needs no script, is announced as
 * expandable by screen readers, and opens by itself when the browser's find-in-page matches text
 * inside it.
 */
function FaqEntry({ item, t }: { item: FaqItem; t: TFunction }) {
  const to = item.link === undefined ? undefined : faqLinks[item.link];
  return (
    <li>
      <details className="faq">
        <summary className="faq__question">{item.question}</summary>
        <div className="faq__answer">
          {item.answer.map((text) => (
            <p key={text}>
              <LinkedText text={text} />
            </p>
          ))}
          {to && (
            <p>
              <Link to={to}>{t(`links.${item.link}`)}</Link>
            </p>
          )}
        </div>
      </details>
    </li>
  );
}

function FaqGroup({ groupKey, t }: { groupKey: (typeof faqGroupKeys)[number]; t: TFunction }) {
  const items = readContent(t, `groups.${groupKey}.items`, isFaqList);
  return (
    <section className="content-section" data-faq-group={groupKey}>
      <h2 id={groupKey}>{t(`groups.${groupKey}.heading`)}</h2>
      <ul className="faq-list">
        {items.map((item) => (
          <FaqEntry key={item.question} item={item} t={t} />
        ))}
      </ul>
    </section>
  );
}

export default function FaqsPage() {
  const { t } = useTranslation('faqs');
  return (
    <ContentPage pageTitle={t('pageTitle')} heading={t('heading')} intro={readContent(t, 'intro', isStringList)}>
      {faqGroupKeys.map((groupKey) => (
        <FaqGroup key={groupKey} groupKey={groupKey} t={t} />
      ))}
    </ContentPage>
  );
}

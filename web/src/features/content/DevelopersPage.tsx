import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton } from '../../ui/CopyButton.js';
import { ContentPage } from './ContentPage.js';
import { Sections } from './Sections.js';
import { buttonSnippet, orderAnswerSnippet, orderSnippet, verifySnippet } from './developerSnippets.js';
import { isStringList, readContent } from './sectionContent.js';

/** The integration guide's sections, in order: the button, its result, the server's check, the key. */
export const developersSectionKeys = ['button', 'result', 'verify', 'order', 'errors', 'keys'] as const;

/** Stands for Quern's address until the browser tells the real one (a prerender has no origin). */
const ORIGIN_PLACEHOLDER = 'https://quern.example';

/** The origin the page is served from, so the snippets name this very Quern. */
function useQuernOrigin(): string {
  const [origin, setOrigin] = useState(ORIGIN_PLACEHOLDER);
  useEffect(() => setOrigin(window.location.origin), []);
  return origin;
}

function Code({ label, code }: { label: string; code: string }) {
  return (
    <figure className="content-code">
      <figcaption className="copy-caption">
        <span>{label}</span>
        <CopyButton text={code} what={label} />
      </figcaption>
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/**
 * /developers: how a shop takes payments with Quern's button (/sdk/checkout.js) and how its
 * server verifies them with its API key (ADR 031). Open to all, like the plugin guide.
 */
export default function DevelopersPage() {
  const { t } = useTranslation('developers');
  const origin = useQuernOrigin();
  return (
    <ContentPage pageTitle={t('pageTitle')} heading={t('heading')} intro={readContent(t, 'intro', isStringList)}>
      <Sections
        t={t}
        keys={developersSectionKeys}
        extras={{
          button: <Code label={t('code.button')} code={buttonSnippet(origin)} />,
          verify: <Code label={t('code.verify')} code={verifySnippet(origin)} />,
          order: (
            <>
              <Code label={t('code.order')} code={orderSnippet(origin)} />
              <Code label={t('code.answer')} code={orderAnswerSnippet} />
            </>
          ),
          keys: (
            <p>
              <Link to="/api-direct">{t('links.apiDirect')}</Link> · <Link to="/developers/api">{t('links.apiReference')}</Link> ·{' '}
              <Link to="/wordpress">{t('links.wordpress')}</Link>
            </p>
          ),
        }}
      />
    </ContentPage>
  );
}

import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { LinkedText } from './LinkedText.js';
import './content.css';

interface ContentPageProps {
  /** The page's name in the browser tab (the shell's title template adds the app name). */
  pageTitle: string;
  heading: string;
  /** A line under the heading, such as a policy's effective date. */
  meta?: string;
  intro?: string[];
  children: ReactNode;
}

/**
 * Scrolls to the element named by the URL's #fragment once the page has rendered. The browser
 * does this by itself only for content present at load, and these pages arrive as lazy chunks.
 */
function useScrollToFragment(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash.length < 2) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
}

/**
 * The frame of every long-form public page: one h1, an optional lead, then the sections. The
 * shell provides the <main> landmark, so this is an <article>, which reading modes and screen
 * readers treat as the page's self-contained text.
 */
export function ContentPage({ pageTitle, heading, meta, intro, children }: ContentPageProps) {
  useDocumentTitle(pageTitle);
  useScrollToFragment();
  return (
    <article className="content-page">
      <header className="content-page__header">
        <h1>{heading}</h1>
        {meta && <p className="content-page__meta">{meta}</p>}
        {intro?.map((text) => (
          <p key={text} className="content-page__lead">
            <LinkedText text={text} />
          </p>
        ))}
      </header>
      {children}
    </article>
  );
}

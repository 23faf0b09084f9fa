import type { ReactNode } from 'react';
import { LinkedText } from './LinkedText.js';
import type { SectionContent } from './sectionContent.js';

type HeadingLevel = 2 | 3;

function Paragraphs({ texts }: { texts: string[] | undefined }) {
  return texts?.map((text) => (
    <p key={text}>
      <LinkedText text={text} />
    </p>
  ));
}

/**
 * One titled section of a long-form page. Sections are h2 and their subsections h3, so the
 * heading outline never skips a level whatever the translation contains. The <section> has no
 * accessible name on purpose: named sections become region landmarks, and a policy with eleven
 * of them would bury the page's real landmarks; headings are how these pages are navigated.
 */
interface ContentSectionProps {
  /** The heading's id, so a section can be linked to (for example /privacy-policy#deletion). */
  id?: string;
  section: SectionContent;
  level?: HeadingLevel;
  /** Page-specific content (links, a table) placed after the section's text. */
  children?: ReactNode;
}

export function ContentSection({ id, section, level = 2, children }: ContentSectionProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <section className="content-section">
      <Heading id={id}>{section.heading}</Heading>
      <Paragraphs texts={section.body} />
      {section.list && (
        <ul>
          {section.list.map((item) => (
            <li key={item}>
              <LinkedText text={item} />
            </li>
          ))}
        </ul>
      )}
      {section.steps && (
        <ol className="content-steps">
          {section.steps.map((step) => (
            <li key={step}>
              <LinkedText text={step} />
            </li>
          ))}
        </ol>
      )}
      {section.subsections?.map((subsection) => (
        <ContentSection key={subsection.heading} section={subsection} level={3} />
      ))}
      <Paragraphs texts={section.after} />
      {children}
    </section>
  );
}

import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { ContentSection } from './ContentSection.js';
import { isSectionContent, readContent } from './sectionContent.js';

interface SectionsProps {
  t: TFunction;
  /** The sections in reading order; each is `sections.<key>` in the page's namespace. */
  keys: readonly string[];
  /** Page-specific content to append to a section, by section key. */
  extras?: Partial<Record<string, ReactNode>>;
}

/** The h2 sections of a long-form page, read from its namespace in the order the page gives. */
export function Sections({ t, keys, extras = {} }: SectionsProps) {
  return keys.map((key) => (
    <ContentSection key={key} id={key} section={readContent(t, `sections.${key}`, isSectionContent)}>
      {extras[key]}
    </ContentSection>
  ));
}

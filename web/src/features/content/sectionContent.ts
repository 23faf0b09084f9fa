/**
 * The shape of a long-form text section in the content namespaces (about, privacy, terms,
 * wordpress, faqs). Components own the order of sections and the translation files own the words,
 * so a translator can change a sentence without touching code, and a unit test can check that
 * both languages have every section.
 */
import type { TFunction } from 'i18next';
import { contactEmails } from './config.js';

export interface SectionContent {
  heading: string;
  /** Paragraphs before the list. */
  body?: string[];
  /** An unordered list. */
  list?: string[];
  /** An ordered list of steps, for instructions that must be followed in order. */
  steps?: string[];
  /** Paragraphs after the list. */
  after?: string[];
  subsections?: SectionContent[];
}

export interface FaqItem {
  question: string;
  answer: string[];
  /** A page that answers the question in full; see faqLinks in FaqsPage. */
  link?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

const optional = (value: unknown, check: (v: unknown) => boolean): boolean => value === undefined || check(value);

export function isSectionContent(value: unknown): value is SectionContent {
  if (!isRecord(value) || typeof value.heading !== 'string') return false;
  return (
    optional(value.body, isStringList) &&
    optional(value.list, isStringList) &&
    optional(value.steps, isStringList) &&
    optional(value.after, isStringList) &&
    optional(value.subsections, (s) => Array.isArray(s) && s.every(isSectionContent))
  );
}

export function isFaqItem(value: unknown): value is FaqItem {
  return (
    isRecord(value) &&
    typeof value.question === 'string' &&
    isStringList(value.answer) &&
    optional(value.link, (l) => typeof l === 'string')
  );
}

/**
 * Reads structured text (with the contact mailboxes filled in) and checks its shape. A wrong
 * shape is a defect in a translation file, so it fails loudly instead of rendering half a page;
 * the unit tests read every section in both languages to catch it before users do.
 */
export function readContent<T>(t: TFunction, key: string, check: (value: unknown) => value is T): T {
  const value: unknown = t(key, { returnObjects: true, ...contactEmails });
  if (!check(value)) throw new Error(`Translation "${key}" is missing or has the wrong shape`);
  return value;
}

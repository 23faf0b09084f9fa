/**
 * The language of an e-mail. The request event carries it in its metadata (the api records the
 * language of the request that caused it); older events without it get English.
 */
import { defaultLanguage, isLanguage, type Language } from '@quern/core/i18n';
import type { RecordedEvent } from '@quern/core';

/** The language an event records, if any. */
export function languageIn(event: RecordedEvent): Language | undefined {
  const candidates = [event.metadata.language, event.data.language];
  return candidates.find(isLanguage) as Language | undefined;
}

export function languageOf(event: RecordedEvent): Language {
  return languageIn(event) ?? defaultLanguage;
}

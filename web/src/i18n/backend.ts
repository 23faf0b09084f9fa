/**
 * An i18next backend that loads one namespace of one language at a time from the shared locale
 * files in core (core/src/i18n/locales/<language>/<namespace>.json). Vite turns each file into
 * its own small chunk, so a page downloads only the strings it uses.
 */
import type { BackendModule, ReadCallback } from 'i18next';
import { withTimeout } from '../app/withTimeout.js';

type Resource = Record<string, unknown>;

const localeFiles = import.meta.glob<Resource>('../../../core/src/i18n/locales/*/*.json', { import: 'default' });

export const localeFileKey = (language: string, namespace: string): string =>
  `../../../core/src/i18n/locales/${language}/${namespace}.json`;

export const lazyLocaleBackend: BackendModule = {
  type: 'backend',
  init() {
    // Nothing to configure: the set of files is fixed at build time.
  },
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = localeFiles[localeFileKey(language, namespace)];
    if (!load) {
      callback(new Error(`No translations for ${language}/${namespace}`), false);
      return;
    }
    withTimeout(load, `translations ${language}/${namespace}`).then(
      (resource) => callback(null, resource),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

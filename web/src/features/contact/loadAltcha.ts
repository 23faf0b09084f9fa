/**
 * Loads the ALTCHA widget (the `altcha` package) the strict-CSP way: the `external` build, whose
 * styles come from a stylesheet and whose proof-of-work worker is a file Vite emits next to the
 * app's own scripts, so the page needs no inline styles, no blob: workers and no third party.
 * The widget's own strings come from the `contact` namespace, English and Spanish.
 */
import 'altcha/external';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

export interface WidgetStrings {
  label: string;
  verifying: string;
  verified: string;
  error: string;
  expired: string;
}

export function registerAltcha(language: string, strings: WidgetStrings): void {
  // The widget's module declares and sets this global (altcha's types/global.d.ts).
  const altcha = globalThis.$altcha;
  // Quern's challenges are PBKDF2/SHA-256 (ADR 048); only that worker is bundled.
  altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
  altcha.i18n.set(language, { ...(altcha.i18n.get(language) ?? altcha.i18n.get('en') ?? {}), ...strings, footer: '' });
}

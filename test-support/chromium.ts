/**
 * The browser every test and benchmark uses: Debian's chromium (never a downloaded one; see
 * docs/CONVENTIONS.md) with the project's flags, so results compare across tools.
 */
export const chromiumPath = '/usr/bin/chromium';

export const chromiumFlags: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

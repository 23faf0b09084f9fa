/**
 * The browser every test and benchmark uses: Debian's chromium (never a downloaded one; see
 * docs/CONVENTIONS.md) with the project's flags, so results compare across tools.
 */
import { existsSync } from 'node:fs';
import { ensureDebianPackage } from '@quern/adapters/runtime';

export const chromiumPath = '/usr/bin/chromium';

/**
 * Installs Debian's chromium when it is missing (a fresh CI machine), before any test launches it:
 * the browser integration tests (vitest) run before the end-to-end ones (Playwright).
 */
export function ensureChromium(log: (line: string) => void = console.log): void {
  if (existsSync(chromiumPath)) return;
  ensureDebianPackage(
    { binary: 'chromium', packageName: 'chromium', otherwise: 'the tests use Debian’s chromium at /usr/bin/chromium' },
    { log },
  );
  if (!existsSync(chromiumPath)) throw new Error(`chromium was installed but is not at ${chromiumPath}`);
}

export const chromiumFlags: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

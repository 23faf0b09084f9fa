/**
 * The browser every test and benchmark uses: Debian's chromium (never a downloaded one; see
 * docs/CONVENTIONS.md) with the project's flags, so results compare across tools.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const chromiumPath = '/usr/bin/chromium';

/**
 * Installs Debian's chromium when it is missing (a fresh CI machine), before any test launches it:
 * the browser integration tests (vitest) run before the end-to-end ones (Playwright).
 */
export function ensureChromium(log: (line: string) => void = console.log): void {
  if (existsSync(chromiumPath)) return;
  log(`${chromiumPath} is missing: installing the Debian package chromium`);
  const result = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], {
    stdio: 'inherit',
  });
  if (result.status !== 0 || !existsSync(chromiumPath)) throw new Error('Could not install chromium with apt-get');
}

export const chromiumFlags: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The secrets an e2e run creates (e-mail addresses, phones, passwords, API keys, two-factor and
 * webhook secrets), listed as the specs create them so that global-teardown.ts can prove none of
 * them reached the server's log (ADR 052). One JSON line per secret: Playwright's workers are
 * separate processes, and each appends whole lines.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the server's stdout and stderr go during the run (global-setup.ts). */
export const E2E_SERVER_LOG = join(repoRoot, 'test-results', 'quern-e2e.log');
export const E2E_SECRETS_FILE = join(repoRoot, 'test-results', 'e2e-secrets.jsonl');

export type SecretKind =
  | 'e-mail address'
  | 'phone number'
  | 'password'
  | 'API key'
  | 'two-factor secret'
  | 'webhook secret'
  | 'e-mailed link token';

export interface RecordedSecret {
  kind: SecretKind;
  value: string;
}

/** Starts an empty list (global-setup.ts, before any spec runs). */
export function resetSecretsRecord(): void {
  mkdirSync(dirname(E2E_SECRETS_FILE), { recursive: true });
  writeFileSync(E2E_SECRETS_FILE, '');
}

export function recordSecret(kind: SecretKind, value: string): void {
  if (value === '') return;
  appendFileSync(E2E_SECRETS_FILE, `${JSON.stringify({ kind, value })}\n`);
}

export function recordedSecrets(): RecordedSecret[] {
  if (!existsSync(E2E_SECRETS_FILE)) return [];
  return readFileSync(E2E_SECRETS_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordedSecret);
}

/**
 * The kinds of the secrets that appear in the log, each once, never the secrets themselves (the
 * report of a failed run must not spread them further). An e-mail address is also looked for as
 * JSON escapes it, and each value in either case form.
 */
export function leakedKinds(log: string, secrets: readonly RecordedSecret[]): SecretKind[] {
  const haystack = log.toLowerCase();
  const kinds = new Set<SecretKind>();
  for (const { kind, value } of secrets) {
    const forms = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)].map((form) => form.toLowerCase());
    if (forms.some((form) => haystack.includes(form))) kinds.add(kind);
  }
  return [...kinds];
}

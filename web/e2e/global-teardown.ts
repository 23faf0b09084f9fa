/**
 * Playwright global teardown, run after the server of global-setup.ts has stopped (its log is
 * complete): fails the run when any e-mail address, phone, password, API key, two-factor or
 * webhook secret the specs created appears in the server's log (ADR 052), naming the kinds found
 * and how many secrets were looked for, never a secret.
 */
import { existsSync, readFileSync } from 'node:fs';
import { E2E_SECRETS_FILE, E2E_SERVER_LOG, leakedKinds, recordedSecrets } from './secrets-record.js';

export default async function globalTeardown(): Promise<void> {
  if (!existsSync(E2E_SERVER_LOG)) throw new Error(`the server's log ${E2E_SERVER_LOG} is missing: the secrets scan cannot run`);
  const secrets = recordedSecrets();
  const log = readFileSync(E2E_SERVER_LOG, 'utf8');
  const leaked = leakedKinds(log, secrets);
  if (leaked.length > 0) {
    throw new Error(
      `the server's log ${E2E_SERVER_LOG} holds secrets the tests created: ${leaked.join(', ')} ` +
        `(${secrets.length} secrets in ${E2E_SECRETS_FILE} were looked for)`,
    );
  }
  console.log(`[e2e teardown] ${secrets.length} secrets looked for in the server's log (${log.split('\n').length} lines): none found`);
}

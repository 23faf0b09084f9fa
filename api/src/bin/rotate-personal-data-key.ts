/**
 * `npm run rotate:personal-data-key`: re-wraps every account key in the personal-data key vault
 * under a new master key while Quern runs (ADR 055). Run again after a crash: it resumes.
 *
 * - Key in DATA_DIR/personal-data-key (PERSONAL_DATA_KEY unset): a new key is generated (or taken
 *   from NEW_PERSONAL_DATA_KEY), the keys are re-wrapped, the file is replaced in one rename, and
 *   the old key then opens nothing. Running processes read the new file when they need it.
 * - Key in PERSONAL_DATA_KEY: NEW_PERSONAL_DATA_KEY (64 hex digits or base64) is required. Running
 *   processes learn the new key from the vault; the operator then sets PERSONAL_DATA_KEY to it,
 *   restarts every process and runs `npm run rotate:personal-data-key -- --finish` with the new
 *   key, after which the old key opens nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KEY_VAULT_FILE } from '@quern/adapters/eventstore';
import {
  finishRotation,
  MASTER_KEY_FILE,
  masterKeyId,
  parseMasterKey,
  rotateMasterKey,
  writeMasterKeyFile,
} from '@quern/adapters/personal-data';
import { loadConfig } from '../config.js';

function fail(message: string): never {
  console.error(`[rotate] ${message}`);
  process.exit(1);
}

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--finish');
if (unknown.length > 0) fail(`unknown argument ${unknown[0]}; usage: npm run rotate:personal-data-key [-- --finish]`);
const finishing = args.includes('--finish');

try {
  const config = loadConfig();
  const dataDir = resolve(config.DATA_DIR);
  const vaultFile = join(dataDir, KEY_VAULT_FILE);
  if (!existsSync(vaultFile)) fail(`${vaultFile} does not exist: there are no account keys to re-wrap (is DATA_DIR right?).`);
  const newKeyText = process.env.NEW_PERSONAL_DATA_KEY?.trim() || undefined;
  const next = newKeyText ? parseMasterKey(newKeyText, 'NEW_PERSONAL_DATA_KEY') : undefined;

  if (finishing) {
    if (!config.PERSONAL_DATA_KEY)
      fail('--finish is for a key in PERSONAL_DATA_KEY; with the key in DATA_DIR the rotation finishes by itself.');
    const { keyId, droppedBridge } = finishRotation(vaultFile, parseMasterKey(config.PERSONAL_DATA_KEY));
    console.log(
      droppedBridge
        ? `[rotate] finished: the vault opens with master key ${keyId} only; the old key opens nothing. Take a new backup now.`
        : `[rotate] nothing to finish: the vault opens with master key ${keyId} only.`,
    );
    process.exit(0);
  }

  const fromEnvironment = config.PERSONAL_DATA_KEY !== undefined;
  const keyFile = join(dataDir, MASTER_KEY_FILE);
  if (!fromEnvironment && !existsSync(keyFile))
    fail(`PERSONAL_DATA_KEY is not set and ${keyFile} does not exist: set the key Quern runs with.`);
  const current = parseMasterKey(fromEnvironment ? (config.PERSONAL_DATA_KEY as string) : readFileSync(keyFile, 'utf8'));
  console.log(`[rotate] current master key ${masterKeyId(current)} (${fromEnvironment ? 'PERSONAL_DATA_KEY' : keyFile})`);
  const report = rotateMasterKey({
    vaultFile,
    current,
    next,
    // Only the key file can be replaced from here; the environment is the operator's.
    generateNext: !fromEnvironment,
    installNewKey: fromEnvironment ? undefined : (key) => writeMasterKeyFile(dataDir, key),
    onProgress: (done) => {
      if (done % 10_000 === 0) console.log(`[rotate] ${done} account keys re-wrapped`);
    },
  });
  console.log(
    `[rotate] ${report.resumed ? 'resumed and ' : ''}re-wrapped ${report.rewrapped} account keys from master key ${report.fromKeyId} to ${report.toKeyId}`,
  );
  if (report.bridgeKept) {
    console.log('[rotate] running processes read the new key from the vault and keep working. Now:');
    console.log(
      '[rotate]   1. set PERSONAL_DATA_KEY to the value of NEW_PERSONAL_DATA_KEY wherever Quern is configured (.env, secrets store);',
    );
    console.log('[rotate]   2. restart every Quern process (api, workers, projections) with it;');
    console.log('[rotate]   3. run `npm run rotate:personal-data-key -- --finish` with PERSONAL_DATA_KEY set to the new key;');
    console.log('[rotate]      until then the old key still opens the new one through the vault.');
    console.log('[rotate]   4. take a new backup, and destroy the old key once no backup you keep needs it.');
  } else if (fromEnvironment) {
    console.log(
      '[rotate] PERSONAL_DATA_KEY is already the new key: run `npm run rotate:personal-data-key -- --finish` once every process runs with it.',
    );
  } else {
    console.log(`[rotate] ${keyFile} now holds master key ${report.toKeyId}; the old key opens nothing. Take a new backup now.`);
  }
  process.exit(0);
} catch (error) {
  fail(`failed: ${error instanceof Error ? error.message : String(error)} (run the command again to resume; nothing is half-done)`);
}

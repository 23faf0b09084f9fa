/**
 * `npm run backup -- DIR`: a consistent copy of DATA_DIR's irreplaceable files into DIR (new or
 * empty), taken while Quern runs (ADR 054). Same environment as Quern (DATA_DIR, EVENTSTORE_URL,
 * PERSONAL_DATA_KEY, APP_SECRET). Exit 0 with the manifest's summary; 1 with the reason.
 */
import { loadConfig } from '../config.js';
import { takeBackup } from '../backup/take-backup.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run backup -- DIR   (DIR: a new or empty folder outside DATA_DIR)');
  process.exit(1);
}
try {
  const { manifest, dir: written } = await takeBackup(loadConfig(), dir, (line) => console.log(`[backup] ${line}`));
  const bytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  console.log(`[backup] done: ${manifest.files.length} files, ${bytes} bytes, in ${written} (manifest.json, SHA256SUMS)`);
  if (manifest.personalDataKey === 'environment')
    console.log(
      `[backup] the master key is PERSONAL_DATA_KEY (id ${manifest.masterKeyId}): it is not in the backup; keep it apart from it.`,
    );
  if (manifest.appSecret === 'environment') console.log('[backup] APP_SECRET is not in the backup: keep it with PERSONAL_DATA_KEY.');
  if (manifest.eventStore === 'kurrentdb')
    console.log(
      '[backup] the event log is in KurrentDB and is backed up with KurrentDB’s own backup, which must be taken BEFORE this one.',
    );
  process.exit(0);
} catch (error) {
  console.error(`[backup] failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

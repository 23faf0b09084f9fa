/**
 * `npm run restore -- DIR`: checks the backup in DIR against its manifest, restores it into an
 * empty DATA_DIR and rebuilds the read models into the configured Redis (ADR 054). Run it with
 * the environment the restored Quern will run with; start Quern afterwards.
 */
import { loadConfig } from '../config.js';
import { restoreBackup } from '../backup/restore-backup.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run restore -- DIR   (DIR: a backup made by npm run backup; DATA_DIR must be empty)');
  process.exit(1);
}
try {
  const report = await restoreBackup(loadConfig(), dir, (line) => console.log(`[restore] ${line}`));
  console.log(
    `[restore] done: ${report.dataDir} holds the backup of ${report.manifest.createdAt}` +
      (report.manifest.lastEventPosition ? ` (log up to position ${report.manifest.lastEventPosition})` : '') +
      '; start Quern with the same environment.',
  );
  process.exit(0);
} catch (error) {
  console.error(`[restore] refused: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

/**
 * A DATA_DIR a live Quern accepts in a test: live mode refuses temporary folders (ADR 049), so the
 * folder is the repository's gitignored .test-data/ or, when the repository itself was cloned into
 * a temporary folder (a CI checkout under /tmp), ~/.cache/quern-test-data. The caller removes it.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { temporaryFolderOf } from '@quern/adapters/runtime';

const REPO_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export function durableTestDataDir(name: string): string {
  const candidates = [join(REPO_ROOT, '.test-data'), join(homedir(), '.cache', 'quern-test-data')];
  const base = candidates.find((folder) => temporaryFolderOf(folder) === undefined);
  if (!base) throw new Error(`no folder outside the temporary folders for a live DATA_DIR (tried ${candidates.join(', ')})`);
  const dir = join(base, `${name}-${randomUUID()}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

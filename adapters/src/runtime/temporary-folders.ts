/**
 * The folders a system may empty at any time. Live mode refuses a DATA_DIR inside one (ADR 049),
 * and the tests that start a live Quern pick a folder outside them (test-support/durable-dir.ts).
 */
import { tmpdir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';

export function temporaryFolders(): string[] {
  return [...new Set([resolve(tmpdir()), '/tmp', '/var/tmp', '/dev/shm'])];
}

export function isInsideFolder(folder: string, parent: string): boolean {
  const path = relative(parent, folder);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/** The temporary folder `path` lies in, if any. */
export function temporaryFolderOf(path: string, folders: readonly string[] = temporaryFolders()): string | undefined {
  return folders.find((folder) => isInsideFolder(resolve(path), folder));
}

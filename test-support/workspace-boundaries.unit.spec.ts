// Proves that no source file reaches into another workspace by a relative path, and that only the
// composition root (api/src/main.ts) and tests that wire the parts like it import the workers, so each workspace's package exports are its whole surface.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const WORKSPACES = ['core', 'adapters', 'projections', 'workers', 'api', 'web', 'test-support'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', 'test-results']);
const IMPORT = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The workspace a path lies in, or the top-level folder for shared files (bench, scripts). */
const areaOf = (path: string) => relative(root, path).split(sep)[0] ?? '';

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => match[1] as string);
}

const files = [...WORKSPACES, 'bench', 'scripts'].flatMap((area) => sourceFiles(join(root, area)));

describe('workspace boundaries', () => {
  it('given every source file, when its relative imports are resolved, then none leaves its own workspace', () => {
    const crossings = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) => areaOf(resolve(dirname(file), spec)) !== areaOf(file))
        .map((spec) => `${relative(root, file)} -> ${spec}`),
    );
    expect(crossings).toEqual([]);
  });

  it('given the api workspace, when its imports are read, then only the composition root (and tests wiring parts like it) imports @quern/workers', () => {
    const isTest = (file: string) => /\.spec\.ts$/.test(file);
    const api = files.filter((file) => areaOf(file) === 'api' && !isTest(file) && !file.endsWith(join('api', 'src', 'main.ts')));
    const offenders = api.filter((file) => importsOf(file).some((spec) => spec === '@quern/workers' || spec.startsWith('@quern/workers/')));
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
  });

  it('given the scan, when it runs, then it saw every workspace (an empty scan would prove nothing)', () => {
    expect(new Set(files.map(areaOf))).toEqual(new Set([...WORKSPACES, 'bench', 'scripts']));
  });
});

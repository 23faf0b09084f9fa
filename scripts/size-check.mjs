#!/usr/bin/env node
/**
 * Checks the home route's initial JavaScript against its budget (docs/decisions/009-home-js-budget.md):
 * the app entry chunk, every chunk it imports statically (recursively), and the home page chunk
 * with its static imports, each counted once and gzipped. The budget is the baseline recorded in
 * scripts/size-budget.json plus 5%: growing past it is a decision (raise the baseline in the same
 * change, with the reason), never an accident. It builds nothing: run it after the web build.
 *
 * Usage: node scripts/size-check.mjs [--dist web/dist] [--budget scripts/size-budget.json]
 * Exits 1 above the budget, 2 when the manifest, a chunk or the budget file is missing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'web/dist' },
    budget: { type: 'string', default: 'scripts/size-budget.json' },
    home: { type: 'string', default: 'src/features/home/HomePage.tsx' },
  },
});

function readBudget(path) {
  try {
    const { baselineBytes, allowedGrowth } = JSON.parse(readFileSync(path, 'utf8'));
    if (!Number.isInteger(baselineBytes) || baselineBytes <= 0 || !(allowedGrowth >= 0))
      throw new Error('baselineBytes or allowedGrowth is invalid');
    return { baselineBytes, allowedGrowth, budgetBytes: Math.floor(baselineBytes * (1 + allowedGrowth)) };
  } catch (error) {
    fail(2, `cannot read the budget ${path}: ${error.message}`);
  }
}

function fail(code, message) {
  console.error(`size-check: ${message}`);
  process.exit(code);
}

function readManifest(dist) {
  const path = join(dist, '.vite', 'manifest.json');
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(2, `cannot read ${path} (${error.code ?? error.message}); build with the manifest on: npx vite build web --manifest`);
  }
}

/** The manifest keys of `key` and of everything it imports statically, depth first, once each. */
function withStaticImports(manifest, key, seen = new Set()) {
  if (seen.has(key)) return seen;
  const chunk = manifest[key];
  if (!chunk) fail(2, `the manifest has no chunk "${key}"`);
  seen.add(key);
  for (const imported of chunk.imports ?? []) withStaticImports(manifest, imported, seen);
  return seen;
}

/** Gzip at level 9, as Vite's own size report does, so the numbers can be compared. */
const gzippedBytes = (path) => gzipSync(readFileSync(path), { level: 9 }).length;

const { baselineBytes, allowedGrowth, budgetBytes } = readBudget(values.budget);
const manifest = readManifest(values.dist);
const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length !== 1) fail(2, `expected one entry chunk, found ${entries.length}`);
const [entryKey] = entries[0];

const keys = withStaticImports(manifest, entryKey);
withStaticImports(manifest, values.home, keys);

const rows = [...keys].map((key) => ({ file: manifest[key].file, bytes: gzippedBytes(join(values.dist, manifest[key].file)) }));
rows.sort((a, b) => b.bytes - a.bytes);
const totalBytes = rows.reduce((sum, row) => sum + row.bytes, 0);

// kB as Vite prints it: 1000 bytes.
const kb = (bytes) => (bytes / 1000).toFixed(2).padStart(7);
for (const row of rows) console.log(`${kb(row.bytes)} kB  ${row.file}`);
const growth = ((totalBytes / baselineBytes - 1) * 100).toFixed(1);
console.log(
  `${kb(totalBytes)} kB  home route initial JS (gzip): baseline ${kb(baselineBytes).trim()} kB (${growth}%), budget ${kb(budgetBytes).trim()} kB (+${allowedGrowth * 100}%)`,
);
if (totalBytes > budgetBytes) fail(1, `over budget by ${((totalBytes - budgetBytes) / 1000).toFixed(2)} kB`);
console.log('size-check: within budget');

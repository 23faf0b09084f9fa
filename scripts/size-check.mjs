#!/usr/bin/env node
/**
 * Checks the home route's initial JavaScript against its budget: the app entry chunk, every chunk
 * it imports statically (recursively), and the home page chunk with its static imports, each
 * counted once and gzipped. It builds nothing: run it after `vite build` with the manifest on
 * (build.manifest in web/vite.config.ts, or `npx vite build web --manifest`).
 *
 * Usage: node scripts/size-check.mjs [--dist web/dist] [--budget-kb 108] [--target-kb 90]
 * Exits 1 above the budget, 2 when the manifest or a chunk is missing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'web/dist' },
    // The regression guard CI enforces (docs/decisions/009-home-js-budget.md): today's figure plus
    // a little headroom, so any growth fails the build while the 90 kB goal stays open.
    'budget-kb': { type: 'string', default: '108' },
    // The product goal, printed every run so the distance to it stays visible.
    'target-kb': { type: 'string', default: '90' },
    home: { type: 'string', default: 'src/features/home/HomePage.tsx' },
  },
});

// kB as Vite prints it: 1000 bytes.
const budgetBytes = Number(values['budget-kb']) * 1000;
if (!Number.isFinite(budgetBytes) || budgetBytes <= 0) fail(2, `--budget-kb must be a positive number, not "${values['budget-kb']}"`);

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

const manifest = readManifest(values.dist);
const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length !== 1) fail(2, `expected one entry chunk, found ${entries.length}`);
const [entryKey] = entries[0];

const keys = withStaticImports(manifest, entryKey);
withStaticImports(manifest, values.home, keys);

const rows = [...keys].map((key) => ({ file: manifest[key].file, bytes: gzippedBytes(join(values.dist, manifest[key].file)) }));
rows.sort((a, b) => b.bytes - a.bytes);
const totalBytes = rows.reduce((sum, row) => sum + row.bytes, 0);

const kb = (bytes) => (bytes / 1000).toFixed(2).padStart(7);
for (const row of rows) console.log(`${kb(row.bytes)} kB  ${row.file}`);
console.log(`${kb(totalBytes)} kB  home route initial JS (gzip), budget ${kb(budgetBytes).trim()} kB`);
const targetBytes = Number(values['target-kb']) * 1000;
if (Number.isFinite(targetBytes) && totalBytes > targetBytes) {
  console.log(
    `size-check: ${((totalBytes - targetBytes) / 1000).toFixed(2)} kB above the ${values['target-kb']} kB goal (see docs/decisions/009-home-js-budget.md)`,
  );
}

if (totalBytes > budgetBytes) fail(1, `over budget by ${((totalBytes - budgetBytes) / 1000).toFixed(2)} kB`);
console.log('size-check: within budget');

// Builds the web app when web/dist is missing or older than its sources, so `npm start` on a
// fresh clone serves the app without a separate build step, and restarts stay fast.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// The prerender writes its manifest last: its presence means the whole build finished.
const builtIndex = join(root, 'web/dist/prerendered/manifest.json');
const sources = [
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'scripts/prerender.mjs',
  'scripts/build-web.mjs',
  'core/src/i18n',
  'core/src/identity',
];

function newestMtimeMs(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtimeMs(join(path, name))), stat.mtimeMs);
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const changedAt = Math.max(...sources.map((s) => newestMtimeMs(join(root, s))));
if (builtAt >= changedAt) process.exit(0);
console.log('[quern] building the web app (web/dist is missing or stale)…');
const result = spawnSync('node', ['scripts/build-web.mjs'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);

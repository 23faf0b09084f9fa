#!/usr/bin/env node
// Builds the web app (ADR 023): the browser bundle (web/dist, with brotli and gzip siblings), the
// prerenderer's server bundle (web/dist-ssr) and the prerendered pages (web/dist/prerendered).
// `npm run build`, `npm start` (through build-web-if-stale.mjs) and `npm test` all run this.
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const steps = [
  ['npx', ['vite', 'build', 'web', '--logLevel', 'warn']],
  ['npx', ['vite', 'build', 'web', '--ssr', 'src/prerender/renderPage.tsx', '--logLevel', 'warn']],
  ['node', ['scripts/prerender.mjs']],
];
for (const [command, args] of steps) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

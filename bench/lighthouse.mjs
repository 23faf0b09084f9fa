#!/usr/bin/env node
/**
 * Lighthouse performance and accessibility scores of pages on a running Quern server. It starts
 * the Debian Chromium with the project's browser flags, runs Lighthouse (npm `lighthouse` 12,
 * the last major that runs on Node 20) on each path in turn, and prints one line per page.
 *
 * Usage: node bench/lighthouse.mjs [--base-url http://127.0.0.1:3000] [--paths /,/login] [--desktop]
 * Scores are 0-100 as Lighthouse reports them; the default is its mobile profile with simulated
 * throttling, so numbers from this 2-core machine compare with each other, not with the web.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const chromiumPath = '/usr/bin/chromium';
const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** How long Chromium may take to open its DevTools port. */
const devtoolsWaitMs = 15_000;
/** At most this many pages per run, so a typo in --paths cannot start an endless job. */
const pathsMax = 20;

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: 'http://127.0.0.1:3000' },
    paths: { type: 'string', default: '/,/login' },
    desktop: { type: 'boolean', default: false },
  },
});
const paths = values.paths
  .split(',')
  .map((path) => path.trim())
  .filter(Boolean);
if (paths.length === 0 || paths.length > pathsMax) throw new Error(`--paths must name 1 to ${pathsMax} paths`);

/** A port nobody listens on right now, for Chromium's remote debugging. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function waitForDevtools(port) {
  const deadline = Date.now() + devtoolsWaitMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (response.ok) return;
    } catch {
      // Not listening yet; try again shortly.
    }
    await sleep(200);
  }
  throw new Error(`Chromium did not open its DevTools port within ${devtoolsWaitMs} ms`);
}

async function startChromium() {
  const port = await freePort();
  const profileDir = mkdtempSync(join(tmpdir(), 'quern-lighthouse-'));
  const chromium = spawn(
    chromiumPath,
    [...chromiumFlags, '--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profileDir}`, 'about:blank'],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise((resolve) => chromium.once('exit', resolve));
  // Chromium writes to its profile until it has exited, so the folder goes only after that.
  const stop = async () => {
    chromium.kill('SIGTERM');
    await exited;
    rmSync(profileDir, { recursive: true, force: true });
  };
  try {
    await waitForDevtools(port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, stop };
}

const score = (category) => (category?.score == null ? 'n/a' : String(Math.round(category.score * 100)));

const chromium = await startChromium();
let failed = false;
try {
  for (const path of paths) {
    const url = new URL(path, values['base-url']).href;
    const result = await lighthouse(
      url,
      { port: chromium.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] },
      values.desktop ? desktopConfig : undefined,
    );
    const categories = result?.lhr.categories ?? {};
    const runtimeError = result?.lhr.runtimeError;
    if (runtimeError) failed = true;
    console.log(
      `${path.padEnd(12)} performance ${score(categories.performance).padStart(3)}  accessibility ${score(categories.accessibility).padStart(3)}${runtimeError ? `  error: ${runtimeError.code}` : ''}`,
    );
  }
} finally {
  await chromium.stop();
}
process.exitCode = failed ? 1 : 0;

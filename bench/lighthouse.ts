/**
 * Lighthouse on the public pages and the dashboard, in English and Spanish (run:
 * `node --import tsx bench/lighthouse.ts`; builds nothing, so run `npm run build` first). It starts
 * Quern on a temporary data directory with a private Redis (or uses --base-url), signs a new user
 * in for /account, starts the Debian Chromium with the project's browser flags and runs Lighthouse
 * (npm `lighthouse` 12, the last major that runs on Node 20) on each page in each language, then
 * prints a table. The language is chosen the way a returning visitor's is: the `quern.language`
 * cookie. Scores are 0-100; the default is Lighthouse's mobile profile with simulated throttling,
 * so numbers from a shared machine compare with each other, not with the web.
 *
 * Options: --base-url URL, --paths /,/login (public pages), --languages en,es, --runs N (the
 * median of N runs per page is printed; default 1), --desktop.
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
import { loadConfig, startQuern, type RunningQuern } from '@quern/api';
import { chromiumFlags, chromiumPath } from '@quern/test-support/chromium';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';

/** How long Chromium may take to open its DevTools port. */
const devtoolsWaitMs = 15_000;
const pathsMax = 20;

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    paths: { type: 'string', default: '/,/login,/register,/faqs,/about' },
    languages: { type: 'string', default: 'en,es' },
    runs: { type: 'string', default: '1' },
    desktop: { type: 'boolean', default: false },
  },
});
const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const paths = list(values.paths);
const languages = list(values.languages);
const runs = Number(values.runs);
if (paths.length === 0 || paths.length > pathsMax) throw new Error(`--paths must name 1 to ${pathsMax} paths`);
if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error('--runs must be 1 to 9');

/** A port nobody listens on right now, for Chromium's remote debugging. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function startChromium() {
  const port = await freePort();
  const profileDir = mkdtempSync(join(tmpdir(), 'quern-lighthouse-'));
  const chromium = spawn(
    chromiumPath,
    [...chromiumFlags, '--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profileDir}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => chromium.once('exit', resolve));
  // Chromium writes to its profile until it has exited, so the folder goes only after that.
  const stop = async () => {
    chromium.kill('SIGTERM');
    await exited;
    rmSync(profileDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + devtoolsWaitMs;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) return { port, stop };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Chromium did not open its DevTools port within ${devtoolsWaitMs} ms`);
    }
    await sleep(200);
  }
}

/** A started Quern on throwaway data, unless --base-url names a running one. */
async function target(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  if (values['base-url']) return { baseUrl: values['base-url'], stop: async () => {} };
  const dataDir = mkdtempSync(join(tmpdir(), 'quern-bench-lighthouse-'));
  const redis: RedisServer = await startPrivateRedis();
  const quern: RunningQuern = await startQuern(
    loadConfig({ NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, REDIS_URL: redis.url }),
    { api: true, projections: true, workers: true },
  );
  return {
    baseUrl: quern.url as string,
    stop: async () => {
      await quern.stop();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers and signs in a new user; returns the session cookie ("name=value"). */
async function signIn(baseUrl: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(new URL(path, baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const name = `lighthouse_${Date.now()}`;
  const user = {
    userName: name,
    firstName: 'Light',
    lastName: 'House',
    email: `${name}@example.com`,
    phone: `+1555${String(Date.now()).slice(-7)}`,
    password: 'long enough secret phrase',
  };
  const registered = await post('/api/user/register', user);
  if (!registered.ok) throw new Error(`register answered ${registered.status}: ${await registered.text()}`);
  const login = await post('/api/user/login', { email: user.email, password: user.password });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  if (!login.ok || !cookie) throw new Error(`login answered ${login.status}`);
  return cookie;
}

interface Figures {
  performance: number;
  accessibility: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  lcpMs: number;
  error?: string;
}

async function measure(port: number, url: string, cookie: string): Promise<Figures> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], extraHeaders: { Cookie: cookie } },
    values.desktop ? desktopConfig : undefined,
  );
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    cls: numeric('cumulative-layout-shift'),
    tbtMs: numeric('total-blocking-time'),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    error: lhr.runtimeError?.code,
  };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;

async function main() {
  const { baseUrl, stop } = await target();
  const chromium = await startChromium();
  let failed = false;
  try {
    const session = await signIn(baseUrl);
    const pages = [...paths.map((path) => ({ path, signedIn: false })), { path: '/account', signedIn: true }];
    console.log(
      `Lighthouse ${values.desktop ? 'desktop' : 'mobile'}, ${runs === 1 ? 'one run' : `median of ${runs} runs`} per page, on ${baseUrl}\n`,
    );
    console.log('| page | language | performance | accessibility | CLS | TBT ms | FCP ms | LCP ms |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const page of pages) {
      for (const language of languages) {
        const cookie = [`quern.language=${language}`, ...(page.signedIn ? [session] : [])].join('; ');
        const samples: Figures[] = [];
        for (let run = 0; run < runs; run++) samples.push(await measure(chromium.port, new URL(page.path, baseUrl).href, cookie));
        const pick = (key: keyof Omit<Figures, 'error'>) => median(samples.map((sample) => sample[key]));
        const error = samples.find((sample) => sample.error)?.error;
        if (error) failed = true;
        console.log(
          `| ${page.path}${page.signedIn ? ' (signed in)' : ''} | ${language} | ${pick('performance')} | ${pick('accessibility')} | ${pick('cls').toFixed(3)} | ${pick('tbtMs').toFixed(0)} | ${pick('fcpMs').toFixed(0)} | ${pick('lcpMs').toFixed(0)} |${error ? ` error: ${error}` : ''}`,
        );
      }
    }
  } finally {
    await chromium.stop();
    await stop();
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

// Proves the mode rules (ADR 049) at the real entry points, each spawned as `npm start` and the
// split processes spawn them: live mode with any live setting missing, a stand-in named or a
// sandbox value refuses to start with exit 1 and one message naming every setting at fault; the
// sandbox refuses the mixes that would move real money for test money; and a complete live
// configuration (fake millix node, a stub PayPal OAuth endpoint, an SMTP stand-in) starts, says
// so, reports its mode on /healthz, answers 404 under /paypal-local and never opens a stand-in.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeMillixNode, startFakeMillixNode } from '@quern/adapters/millix/fake-node-server';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PayPalOAuthStub, startPayPalOAuthStub } from '../../test/paypal-oauth-stub.js';
import { durableTestDataDir } from '@quern/test-support/durable-dir';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SPAWN_TIMEOUT_MS = 40_000;
const HEX = 'cd'.repeat(32);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Only what the test gives: no setting of the developer's shell leaks into the process. */
const baseEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'test',
  REDIS_URL: process.env.REDIS_URL,
});

function runEntry(entry: string, env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'api/src/bin', entry)],
      { cwd: REPO_ROOT, env: { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', ...env }, timeout: SPAWN_TIMEOUT_MS },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

let node: FakeMillixNode;
let paypal: PayPalOAuthStub;
let smtp: TestSmtpServer;
const dataDirs: string[] = [];

/** A DATA_DIR outside the temporary folders (live refuses them). */
function durableDataDir(): string {
  const dir = durableTestDataDir('live-mode');
  dataDirs.push(dir);
  return dir;
}

/** The shared contract's live configuration, complete. */
function liveEnv(): Record<string, string> {
  return {
    QUERN_MODE: 'live',
    MILLIX_NODE_URL: node.url,
    MILLIX_NODE_ID: node.nodeId,
    MILLIX_NODE_SIGNATURE: node.nodeSignature,
    MILLIX_NETWORK: 'mainnet',
    PAYPAL_ENV: 'live',
    PAYPAL_API_URL: paypal.url,
    PAYPAL_CLIENT_ID: 'live-client',
    PAYPAL_CLIENT_SECRET: 'live-secret',
    PAYPAL_WEBHOOK_ID: 'WH-LIVE',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://pay.quern.test',
    APP_SECRET: HEX,
    PERSONAL_DATA_KEY: HEX,
    DATA_DIR: durableDataDir(),
  };
}

beforeAll(async () => {
  node = await startFakeMillixNode();
  paypal = await startPayPalOAuthStub({ clientId: 'live-client', clientSecret: 'live-secret' });
  smtp = await startTestSmtpServer();
});

afterAll(async () => {
  await node?.close();
  await paypal?.close();
  await smtp?.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Asserts a refusal: exit 1, nothing served, every named setting in the one message. */
function expectRefusal(run: Run, settings: string[]): void {
  expect(run.code, run.stderr + run.stdout).toBe(1);
  expect(run.stdout).not.toContain('running');
  for (const setting of settings) expect(run.stderr).toContain(`- ${setting} `);
  // One message: the lines are the header and two per setting.
  expect(run.stderr.trim().split('\n')).toHaveLength(1 + settings.length * 2);
}

describe('live mode refuses to start', () => {
  it('given QUERN_MODE=live alone, when npm start runs, then it exits 1 naming every missing live setting with its fix', async () => {
    const run = await runEntry('quern.ts', { QUERN_MODE: 'live' });
    const missing = [
      'MILLIX_NODE_URL',
      'MILLIX_NODE_ID',
      'MILLIX_NODE_SIGNATURE',
      'PAYPAL_ENV',
      'PAYPAL_CLIENT_ID',
      'PAYPAL_CLIENT_SECRET',
      'PAYPAL_WEBHOOK_ID',
      'SMTP_URL',
      'PUBLIC_URL',
      'APP_SECRET',
      'PERSONAL_DATA_KEY',
      'DATA_DIR',
    ];
    expectRefusal(run, missing);
    expect(run.stderr).toContain('QUERN_MODE=live refuses to start: 12 setting(s) to fix');
    expect(run.stderr).toContain('Fix: ');
  });

  it.each([
    'MILLIX_NODE_URL',
    'MILLIX_NODE_ID',
    'MILLIX_NODE_SIGNATURE',
    'PAYPAL_CLIENT_ID',
    'PAYPAL_CLIENT_SECRET',
    'PAYPAL_WEBHOOK_ID',
    'SMTP_URL',
    'PUBLIC_URL',
    'APP_SECRET',
    'PERSONAL_DATA_KEY',
    'DATA_DIR',
  ])('given the live configuration without %s, when npm start runs, then it exits 1 naming it', async (setting) => {
    const run = await runEntry('quern.ts', { ...liveEnv(), [setting]: undefined });
    expectRefusal(run, [setting]);
  });

  it.each([
    [{ PAYPAL_ENV: 'local' }, 'PAYPAL_ENV'],
    [{ PAYPAL_ENV: 'sandbox' }, 'PAYPAL_ENV'],
    [{ MILLIX_NETWORK: 'testnet' }, 'MILLIX_NETWORK'],
    [{ DATA_DIR: '/tmp/quern-live' }, 'DATA_DIR'],
    [{ PUBLIC_URL: 'http://pay.quern.test' }, 'PUBLIC_URL'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'],
  ])('given the live configuration with %o, when npm start runs, then it exits 1 naming %s', async (change, setting) => {
    expectRefusal(await runEntry('quern.ts', { ...liveEnv(), ...change }), [setting]);
  });

  it.each(['api.ts', 'projections.ts', 'workers.ts'])(
    'given live without PAYPAL_WEBHOOK_ID and SMTP_URL, when %s runs, then it refuses the same way',
    async (entry) => {
      const run = await runEntry(entry, { ...liveEnv(), PAYPAL_WEBHOOK_ID: undefined, SMTP_URL: undefined });
      expectRefusal(run, ['PAYPAL_WEBHOOK_ID', 'SMTP_URL']);
    },
  );
});

describe('sandbox mode refuses real money for test money', () => {
  it.each([
    [{ PAYPAL_ENV: 'live', PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret' }, 'PAYPAL_ENV'],
    [
      { MILLIX_NETWORK: 'mainnet', MILLIX_NODE_URL: 'http://127.0.0.1:5500', MILLIX_NODE_ID: 'n', MILLIX_NODE_SIGNATURE: 's' },
      'MILLIX_NODE_URL',
    ],
  ])('given sandbox with %o, when npm start runs, then it exits 1 naming %s', async (change, setting) => {
    const run = await runEntry('quern.ts', { QUERN_MODE: 'sandbox', DATA_DIR: durableDataDir(), ...change });
    expectRefusal(run, [setting]);
    expect(run.stderr).toContain('QUERN_MODE=sandbox refuses to start');
  });
});

describe('a complete live configuration', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((done) => child?.once('exit', done));
    }
  });

  it('starts in live mode, reports it on /healthz, answers 404 under /paypal-local and opens no stand-in', async () => {
    const env = liveEnv();
    const started = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'api/src/bin/quern.ts')], {
      cwd: REPO_ROOT,
      env: { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout?.on('data', (chunk) => {
      output += String(chunk);
    });
    started.stderr?.on('data', (chunk) => {
      output += String(chunk);
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not started: ${output}`)), SPAWN_TIMEOUT_MS);
      started.stdout?.on('data', () => {
        // The start-up line is JSON (ADR 052): its message names the mode and the address.
        const match = /"msg":"Quern running in live mode at (http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      started.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const health = await fetch(`${url}/healthz`);
    expect(((await health.json()) as { mode: string }).mode).toBe('live');
    for (const path of ['/paypal-local', '/paypal-local/sdk/js', '/paypal-local/v1/oauth2/token', '/paypal-local/checkoutnow?token=X']) {
      const response = await fetch(`${url}${path}`, { method: path.includes('oauth2') ? 'POST' : 'GET' });
      expect(response.status, path).toBe(404);
    }
    // Neither the simulated network nor the local PayPal server ever opened their files.
    expect(existsSync(join(env.DATA_DIR as string, 'simulated-network.sqlite'))).toBe(false);
    expect(existsSync(join(env.DATA_DIR as string, 'paypal-local.sqlite'))).toBe(false);
  });
});

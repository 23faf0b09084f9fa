// Proves `npm run doctor` (ADR 049), run as its own process: against a complete live
// configuration (the fake millix node, a stub PayPal OAuth endpoint, an SMTP stand-in, real Redis)
// it prints the mode and every check and exits 0; with one piece broken (PayPal refusing the
// secret, the SMTP server gone, the node refusing its identity, a live setting missing) it exits 1
// naming that check; and in sandbox it says PayPal is the local stand-in. It starts nothing and
// creates nothing in DATA_DIR.
import { execFile } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeMillixNode, startFakeMillixNode } from '@quern/adapters/millix/fake-node-server';
import { openKeyVault, parseMasterKey } from '@quern/adapters/personal-data';
import { freePort } from '@quern/test-support/redis';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PayPalOAuthStub, startPayPalOAuthStub } from '../../test/paypal-oauth-stub.js';
import { durableTestDataDir } from '@quern/test-support/durable-dir';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SPAWN_TIMEOUT_MS = 40_000;
const HEX = 'ef'.repeat(32);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDoctor(env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'api/src/bin/doctor.ts')],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: SPAWN_TIMEOUT_MS },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

const lineOf = (run: Run, check: string) => run.stdout.split('\n').find((l) => new RegExp(`^  (ok  |FAIL)  ${check}:`).test(l)) ?? '';

let node: FakeMillixNode;
let paypal: PayPalOAuthStub;
let smtp: TestSmtpServer;
let dataDir: string;

function liveEnv(): Record<string, string | undefined> {
  return {
    QUERN_MODE: 'live',
    REDIS_URL: process.env.REDIS_URL,
    MILLIX_NODE_URL: node.url,
    MILLIX_NODE_ID: node.nodeId,
    MILLIX_NODE_SIGNATURE: node.nodeSignature,
    MILLIX_NETWORK: 'mainnet',
    PAYPAL_ENV: 'live',
    PAYPAL_API_URL: paypal.url,
    PAYPAL_CLIENT_ID: 'doctor-client',
    PAYPAL_CLIENT_SECRET: 'doctor-secret',
    PAYPAL_WEBHOOK_ID: 'WH-DOCTOR',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://pay.quern.test',
    APP_SECRET: HEX,
    PERSONAL_DATA_KEY: HEX,
    DATA_DIR: dataDir,
  };
}

beforeAll(async () => {
  node = await startFakeMillixNode();
  paypal = await startPayPalOAuthStub({ clientId: 'doctor-client', clientSecret: 'doctor-secret' });
  smtp = await startTestSmtpServer();
  dataDir = durableTestDataDir('doctor');
});

afterAll(async () => {
  await node?.close();
  await paypal?.close();
  await smtp?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run doctor', () => {
  it('given a complete live configuration, then it prints live mode and every check passing and exits 0', async () => {
    const tokenRequestsBefore = paypal.tokenRequests;
    const run = await runDoctor(liveEnv());
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('Quern doctor: live mode');
    for (const check of ['configuration', 'event store', 'Redis', 'millix node', 'PayPal', 'SMTP', 'key files']) {
      expect(lineOf(run, check), check).toMatch(/^ {2}ok {4}/);
    }
    expect(lineOf(run, 'millix node')).toContain(`wallet ${node.walletAddress}`);
    expect(lineOf(run, 'PayPal')).toContain(`live credentials accepted by ${paypal.url}`);
    expect(paypal.tokenRequests).toBe(tokenRequestsBefore + 1);
    expect(run.stdout).toContain('doctor: all checks pass');
    // Nothing started, nothing written.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('given a PayPal secret PayPal refuses, then it exits 1 naming PayPal and the 401', async () => {
    const run = await runDoctor({ ...liveEnv(), PAYPAL_CLIENT_SECRET: 'wrong-secret' });
    expect(run.code).toBe(1);
    expect(lineOf(run, 'PayPal')).toMatch(/^ {2}FAIL {2}PayPal: .*refused PAYPAL_CLIENT_ID\/PAYPAL_CLIENT_SECRET: 401 invalid_client/);
    expect(lineOf(run, 'SMTP')).toMatch(/^ {2}ok/);
    expect(run.stdout).toContain('doctor: 1 check(s) failed: PayPal');
  });

  it('given the SMTP server down, then it exits 1 naming SMTP', async () => {
    const run = await runDoctor({ ...liveEnv(), SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    expect(run.code).toBe(1);
    expect(lineOf(run, 'SMTP')).toMatch(/^ {2}FAIL {2}SMTP: .*ECONNREFUSED/);
    expect(run.stdout).toContain('doctor: 1 check(s) failed: SMTP');
  });

  it('given a node signature the node refuses, then it exits 1 naming the millix node', async () => {
    const run = await runDoctor({ ...liveEnv(), MILLIX_NODE_SIGNATURE: 'not-the-signature' });
    expect(run.code).toBe(1);
    expect(lineOf(run, 'millix node')).toMatch(/^ {2}FAIL/);
    expect(run.stdout).toContain('doctor: 1 check(s) failed: millix node');
  });

  it('given a mainnet node while MILLIX_NETWORK says testnet, then it exits 1 naming the millix node and both networks', async () => {
    const run = await runDoctor({
      ...liveEnv(),
      QUERN_MODE: 'sandbox',
      PAYPAL_ENV: 'local',
      PAYPAL_API_URL: undefined,
      MILLIX_NETWORK: 'testnet',
    });
    expect(run.code, run.stdout).toBe(1);
    expect(lineOf(run, 'millix node')).toMatch(/^ {2}FAIL {2}millix node: .*mainnet.*MILLIX_NETWORK=testnet/);
    expect(run.stdout).toContain('doctor: 1 check(s) failed: millix node');
  });

  it('given live without APP_SECRET, then the configuration check fails naming it, the others still run, and it exits 1', async () => {
    const run = await runDoctor({ ...liveEnv(), APP_SECRET: undefined });
    expect(run.code).toBe(1);
    expect(lineOf(run, 'configuration')).toMatch(/^ {2}FAIL/);
    expect(run.stdout).toContain('- APP_SECRET is not set');
    expect(lineOf(run, 'PayPal')).toMatch(/^ {2}ok/);
    expect(run.stdout).toContain('doctor: 1 check(s) failed: configuration');
  });

  it('given a PERSONAL_DATA_KEY other than the one the key vault was written under, then it exits 1 naming the key files, and with the right key it passes', async () => {
    const vaultDir = join(dataDir, 'vault');
    const vault = openKeyVault(join(vaultDir, 'personal-data-keys.sqlite'), parseMasterKey(HEX));
    vault.sealingKey('account-1');
    vault.close();
    const wrong = await runDoctor({ ...liveEnv(), DATA_DIR: vaultDir, PERSONAL_DATA_KEY: '12'.repeat(32) });
    expect(wrong.code).toBe(1);
    expect(lineOf(wrong, 'key files')).toMatch(
      /^ {2}FAIL {2}key files: the personal-data key does not open personal-data-keys.sqlite \(1 account keys\)/,
    );
    const right = await runDoctor({ ...liveEnv(), DATA_DIR: vaultDir });
    expect(right.code, right.stdout).toBe(0);
    expect(lineOf(right, 'key files')).toContain('opened by the personal-data key (1 account keys)');
  });

  it('given the sandbox defaults, then it says PayPal is the local stand-in and exits 0', async () => {
    const run = await runDoctor({ REDIS_URL: process.env.REDIS_URL, DATA_DIR: join(dataDir, 'sandbox') });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('Quern doctor: sandbox mode (test money only)');
    expect(lineOf(run, 'PayPal')).toContain('PAYPAL_ENV=local: uses the local stand-in');
    expect(lineOf(run, 'millix node')).toContain('simulated network');
  });
});

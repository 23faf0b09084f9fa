// Proves the faucet CLI, run as its own process (as `npm run faucet` runs it) while this test
// process holds the event log and the simulated network open as a running Quern does: it finds
// a user's wallet by username or e-mail, deposits through the simulated network so that Quern's
// handle sees the deposit, and refuses bad input and unknown users with exit code 2.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { identityKeyStream } from '@quern/core/identity';
import { walletStream } from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAddress } from '@quern/core/wallet/testing';
import { openEventStore } from '@quern/adapters/eventstore';
import type { SealingEventStore } from '@quern/adapters/personal-data';
import { isMillixTransactionId } from '@quern/adapters/millix';
import { simulatedNetworkFile } from '@quern/adapters/millix';
import { openSimulatedNetwork, type SimulatedNetwork } from '@quern/adapters/millix';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FAUCET = join(REPO_ROOT, 'api/src/bin/faucet.ts');
const SPAWN_TIMEOUT_MS = 30_000;

const ALICE = '0b7c8e52-3f7e-4d0a-9a54-5b8c2f1d6e01';
const BOB = '1c8d9f63-4a8f-4e1b-8b65-6c9d3a2e7f12';
const CAROL = '2d9ea074-5b90-4f2c-9c76-7dae4b3f8a23';
const ALICE_ADDRESS = testAddress(501);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runFaucet(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', FAUCET, ...args],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, DATA_DIR: dataDir, MILLIX_CONFIRM_DELAY_MS: '60000', MILLIX_NODE_URL: '', ...env },
        timeout: SPAWN_TIMEOUT_MS,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let dataDir: string;
let store: SealingEventStore;
let quernNetwork: SimulatedNetwork;

const claimed = (kind: 'username' | 'email', value: string, userId: string) => ({
  type: 'IdentityKeyClaimed',
  data: { kind, value, userId, claimedAt: '2026-01-01T00:00:00.000Z' },
});

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'quern-faucet-'));
  // Through the personal-data layer, as Quern writes it: the faucet finds users by digest (ADR 042).
  store = openEventStore({ dataDir });
  await store.append(identityKeyStream('username', 'alice'), [claimed('username', 'alice', ALICE)], 'no_stream');
  await store.append(identityKeyStream('email', 'alice@example.com'), [claimed('email', 'alice@example.com', ALICE)], 'no_stream');
  await store.append(
    walletStream(ALICE),
    [
      {
        type: 'WalletOpened',
        data: { walletId: ALICE, kind: 'user', address: ALICE_ADDRESS, ownerUserId: ALICE, openedAt: '2026-01-01T00:00:01.000Z' },
      },
    ],
    'no_stream',
  );
  await store.append(identityKeyStream('username', 'bob'), [claimed('username', 'bob', BOB)], 'no_stream');
  await store.append(
    identityKeyStream('username', 'carol'),
    [
      claimed('username', 'carol', CAROL),
      { type: 'IdentityKeyReleased', data: { kind: 'username', value: 'carol', userId: CAROL, releasedAt: '2026-01-01T00:00:02.000Z' } },
    ],
    'no_stream',
  );
  quernNetwork = openSimulatedNetwork({ file: simulatedNetworkFile(dataDir), confirmDelayMs: 0 });
});

afterAll(async () => {
  await quernNetwork.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('faucet CLI', () => {
  it('deposits to a username’s wallet while Quern holds the files open; Quern sees it pending', async () => {
    const before = await quernNetwork.incomingSince(undefined, 1000);
    const run = await runFaucet(['--to', 'Alice', '--amount', '1,000,000']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const hash = /Transaction (\S+):/.exec(run.stdout)?.[1] ?? '';
    expect(isMillixTransactionId(hash)).toBe(true);
    expect(run.stdout).toContain(`Deposited 1,000,000 MLX to alice (${ALICE_ADDRESS}).`);
    const page = await quernNetwork.incomingSince(before.cursor, 1000);
    expect(page.transactions.map((t) => [t.transactionHash, t.toAddress, t.amountMlx])).toEqual([[hash, ALICE_ADDRESS, 1_000_000n]]);
    // The faucet's delay (60 s), not Quern's (0), decides when it is stable.
    expect(await quernNetwork.transactionStatus(hash)).toBe('pending');
  });

  it('finds the wallet by e-mail, case-insensitively, and deposits to a plain address without any user', async () => {
    const byEmail = await runFaucet(['--to', 'ALICE@Example.com', '--amount', '25'], { MILLIX_CONFIRM_DELAY_MS: '0' });
    expect(byEmail.code).toBe(0);
    const hash = /Transaction (\S+):/.exec(byEmail.stdout)?.[1] ?? '';
    expect(await quernNetwork.transactionStatus(hash)).toBe('stable');
    const external = testAddress(777);
    const byAddress = await runFaucet([`--to=${external}`, '--amount', '7']);
    expect(byAddress.code).toBe(0);
    expect(await quernNetwork.balance(external)).toEqual({ stableMlx: 0n, unstableMlx: 7n });
  });

  it('exits 2 with a clear message for unknown users, users without a wallet and released names', async () => {
    const unknown = await runFaucet(['--to', 'nobody', '--amount', '10']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No Quern user has the username "nobody".');
    const noWallet = await runFaucet(['--to', 'bob', '--amount', '10']);
    expect(noWallet.code).toBe(2);
    expect(noWallet.stderr).toContain('The user "bob" has no wallet yet.');
    const released = await runFaucet(['--to', 'carol', '--amount', '10']);
    expect(released.code).toBe(2);
    expect(released.stderr).toContain('No Quern user has the username "carol".');
  });

  it('exits 2 for a bad amount, a missing --to, an unknown option or a real node configured, and deposits nothing', async () => {
    const before = await quernNetwork.incomingSince(undefined, 1000);
    const runs = await Promise.all([
      runFaucet(['--to', 'alice', '--amount', '1.5']),
      runFaucet(['--amount', '10']),
      runFaucet(['--to', 'alice', '--amount', '10', '--mint']),
      runFaucet(['--to', 'alice', '--amount', '10'], { MILLIX_NODE_URL: 'https://127.0.0.1:5500' }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2]);
    expect(runs[0]?.stderr).toContain('Please enter a whole number of MLX');
    expect(runs[1]?.stderr).toContain('--to is required');
    expect(runs[2]?.stderr).toContain("Unknown option '--mint'");
    expect(runs[3]?.stderr).toContain('MILLIX_NODE_URL is set');
    expect((await quernNetwork.incomingSince(before.cursor, 1000)).transactions).toEqual([]);
  });

  it('given QUERN_MODE=live, when run with valid arguments, then it exits 2 saying the faucet does not exist in live mode and deposits nothing', async () => {
    const before = await quernNetwork.incomingSince(undefined, 1000);
    const run = await runFaucet(['--to', 'alice', '--amount', '10'], { QUERN_MODE: 'live' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('QUERN_MODE=live: the faucet does not exist in live mode');
    expect((await quernNetwork.incomingSince(before.cursor, 1000)).transactions).toEqual([]);
  });

  it('prints its usage with --help', async () => {
    const run = await runFaucet(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run faucet -- --to <username|email|address> --amount <MLX>');
  });
});

// Proves that `npm run audit`, run as its own process over a live DATA_DIR, exits 0 and prints
// the network boundary figures after each documented flow of the production set-up (a faucet
// deposit confirmed, an internal send, an external send that completes, an external send voided
// `expired` after the settlement wait), names a PayPal purchase, its refund and its reversal (and a chargeback the reserve lost) on
// lines of their own, names the MLX deposited to a closed wallet (ADR 042) as held for closed
// accounts, and exits 1 naming the violation once an event is forged.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock, type EventStore } from '@quern/core';
import { creditPurchase, orderPurchase, recordCaptureResult, recordRefund, recordReversal, requestCapture } from '@quern/core/purchases';
import {
  closeWallet,
  createAddress,
  ensureSystemWallets,
  executeWalletCommand,
  loadWallet,
  openUserWallet,
  recordConfiguredExchangeRate,
  SEND_FEE_MLX,
  sendMlx,
  walletStream,
  type WalletDeps,
} from '@quern/core/wallet';
import { identityPayeeDirectory } from '@quern/core/identity';
import { openEventStore } from '@quern/adapters/eventstore';
import { createMailer, type Mailer } from '@quern/adapters/mail';
import { openMillixNetwork, openSimulatedNetwork, simulatedNetworkFile, type OpenedMillixNetwork } from '@quern/adapters/millix';
import { connectRedis } from '@quern/adapters/redis';
import { captureLog } from '@quern/test-support/log';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import {
  startDepositWatcher,
  startDispatcher,
  startWorkers,
  type DepositWatcher,
  type Dispatcher,
  type WorkersHandle,
} from '@quern/workers';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/quern.js';
import { transferTermsBook } from '@quern/core/transfer-references';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SPAWN_TIMEOUT_MS = 30_000;
/** Settlement and deposits in this test take well under a second each; this only bounds a hang. */
const SETTLED_WITHIN_MS = 30_000;
/** Short, so an external send the network keeps pending is voided `expired` while the test waits. */
const SETTLEMENT_WAIT_MS = 1_500;
/** What `ensureSystemWallets` is given: the default supply, a small reserve. */
const SUPPLY_MLX = 9_000_000_000_000_000n;
const RESERVE_FUNDING_MLX = 1_000_000_000n;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment `npm start` would have here: this DATA_DIR, the embedded store, the simulated network. */
function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, MILLIX_CONFIRM_DELAY_MS: '0', ...extra };
  delete env.EVENTSTORE_URL;
  delete env.MILLIX_NODE_URL;
  return env;
}

function runCli(script: 'audit' | 'faucet', args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, `api/src/bin/${script}.ts`), ...args],
      {
        cwd: REPO_ROOT,
        env: cliEnv(env),
        timeout: SPAWN_TIMEOUT_MS,
      },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The audit's line for a figure, e.g. `network account: -1,000,000 MLX (...)`. */
const line = (run: Run, prefix: string): string => run.stdout.split('\n').find((l) => l.startsWith(prefix)) ?? '';

let dataDir: string;
let redisServer: RedisServer;
let redis: Redis;
let store: EventStore;
let network: OpenedMillixNetwork;
let mailer: Mailer;
let dispatcher: Dispatcher;
let workers: WorkersHandle;
let watcher: DepositWatcher;
let deps: WalletDeps;
const alice = randomUUID();
const bob = randomUUID();
let aliceAddress: string;
let bobAddress: string;
const outsideAddress = () => createAddress(new Uint8Array(randomBytes(20)), 'mainnet');

async function transferStatus(walletId: string, transferId: string): Promise<{ status: string; reason?: string } | undefined> {
  const transfer = (await loadWallet(deps, walletId)).state.transfers.get(transferId);
  if (!transfer || transfer.status === 'reserved') return undefined;
  return { status: transfer.status, reason: 'voidReason' in transfer ? String(transfer.voidReason) : undefined };
}

beforeAll(async () => {
  // The parts `npm start` runs that move money, composed as api/src/main.ts composes them, on a
  // DATA_DIR of their own; only the settlement wait is shortened.
  dataDir = mkdtempSync(join(tmpdir(), 'quern-audit-'));
  redisServer = await startPrivateRedis();
  redis = connectRedis(redisServer.url, 'audit-test');
  store = openEventStore({ dataDir });
  network = openMillixNetwork({ dataDir, confirmDelayMs: 0 });
  deps = {
    store,
    transferTerms: transferTermsBook,
    clock: systemClock,
    newId: randomUUID,
    newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
    network: 'mainnet',
    payees: identityPayeeDirectory({ store }),
  };
  await ensureSystemWallets(deps, { supplyMlx: SUPPLY_MLX, reserveFundingMlx: RESERVE_FUNDING_MLX });
  aliceAddress = await openUserWallet(deps, alice);
  bobAddress = await openUserWallet(deps, bob);
  const { logger } = captureLog();
  mailer = createMailer({ dataDir, from: 'Quern <no-reply@quern.example>', logger });
  dispatcher = startDispatcher({ store, redis, logger });
  workers = startWorkers({
    store,
    connection: redisServer.url,
    mailer,
    appSecret: 'audit-test-app-secret-with-enough-characters',
    publicUrl: 'http://quern.test:3000',
    network,
    settlementWaitMs: SETTLEMENT_WAIT_MS,
    networkPollIntervalMs: 50,
    logger,
  });
  watcher = startDepositWatcher({ store, transferTerms: transferTermsBook, redis, network, intervalMs: 50, logger });
});

afterAll(async () => {
  await watcher?.close();
  await dispatcher?.close();
  await workers?.close();
  await mailer?.close();
  await network?.close();
  await store?.close();
  redis?.disconnect();
  await redisServer?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run audit after each documented flow', () => {
  it('given a faucet deposit confirmed into alice’s wallet, when audited, then it exits 0 with the network account at minus the deposit', async () => {
    const faucet = await runCli('faucet', [`--to=${aliceAddress}`, '--amount', '1,000,000']);
    expect([faucet.code, faucet.stderr]).toEqual([0, '']);
    await eventually(async () => {
      const deposits = [...(await loadWallet(deps, alice)).state.deposits.values()];
      return deposits.some((d) => d.status === 'confirmed') ? true : undefined;
    }, SETTLED_WITHIN_MS);

    const audit = await runCli('audit');
    expect([audit.code, audit.stderr]).toEqual([0, '']);
    expect(audit.stdout.split('\n')[0]).toBe(`Quern audit in sandbox mode (test money only): SQLite in ${dataDir}`);
    expect(audit.stdout).toContain('audit: OK');
    expect(line(audit, 'network boundary:')).toBe(
      'network boundary: in 1,000,000 MLX (confirmed deposits), out 0 MLX (posted external sends), net 1,000,000 MLX; allocated inside Quern: 0 MLX',
    );
    expect(line(audit, 'network account:')).toBe('network account: -1,000,000 MLX (must equal allocated − net)');
  });

  it('given QUERN_MODE=live without the other live settings, when audited, then the header names live mode and the log is still audited', async () => {
    // The audit reads the log only: mail, PayPal and node settings are not needed to check it.
    const audit = await runCli('audit', [], { QUERN_MODE: 'live' });
    expect([audit.code, audit.stderr]).toEqual([0, '']);
    expect(audit.stdout.split('\n')[0]).toBe(`Quern audit in live mode: SQLite in ${dataDir}`);
    expect(audit.stdout).toContain('audit: OK');
  });

  it('given an internal send from alice to bob settled by the worker, when audited, then it exits 0 and nothing crossed', async () => {
    const sent = await sendMlx(deps, alice, { to: { kind: 'address', address: bobAddress }, amount: 10_000n, fee: SEND_FEE_MLX });
    expect(await eventually(() => transferStatus(alice, sent.transferId), SETTLED_WITHIN_MS)).toEqual({ status: 'posted' });

    const audit = await runCli('audit');
    expect(audit.code).toBe(0);
    expect(line(audit, 'network boundary:')).toContain('in 1,000,000 MLX (confirmed deposits), out 0 MLX');
    expect(line(audit, 'network account:')).toContain('-1,000,000 MLX');
  });

  it('given an external send the network confirms, when audited, then it exits 0 and the send counts as MLX out', async () => {
    const sent = await sendMlx(deps, alice, { to: { kind: 'address', address: outsideAddress() }, amount: 20_000n, fee: SEND_FEE_MLX });
    expect(await eventually(() => transferStatus(alice, sent.transferId), SETTLED_WITHIN_MS)).toEqual({ status: 'posted' });

    const audit = await runCli('audit');
    expect(audit.code).toBe(0);
    expect(line(audit, 'network boundary:')).toContain(
      'in 1,000,000 MLX (confirmed deposits), out 20,000 MLX (posted external sends), net 980,000 MLX',
    );
    expect(line(audit, 'network account:')).toContain('network account: -980,000 MLX');
  });

  it('given an external send the network keeps pending past the settlement wait, when audited after it is voided expired, then it exits 0 and nothing more crossed', async () => {
    // The simulated network fixes a transaction's confirmation time when it is first submitted;
    // submitting it first with an hour's delay makes the worker's (idempotent) submission find it pending.
    const transferId = randomUUID();
    const request = { transferId, fromAddress: aliceAddress, toAddress: outsideAddress(), amountMlx: 30_000n, feeMlx: SEND_FEE_MLX };
    const slow = openSimulatedNetwork({ file: simulatedNetworkFile(dataDir), confirmDelayMs: 3_600_000 });
    try {
      await slow.send(request);
    } finally {
      await slow.close();
    }
    await executeWalletCommand(deps, alice, {
      type: 'ReserveTransfer',
      data: { transferId, toAddress: request.toAddress, amountMlx: request.amountMlx, feeMlx: request.feeMlx },
    });
    expect(await eventually(() => transferStatus(alice, transferId), SETTLED_WITHIN_MS)).toEqual({ status: 'voided', reason: 'expired' });

    const audit = await runCli('audit');
    expect(audit.code).toBe(0);
    expect(line(audit, 'network boundary:')).toContain('out 20,000 MLX (posted external sends), net 980,000 MLX');
    expect(line(audit, 'transfers:')).toMatch(/1 voided, 0 open$/);
  });

  it('given a PayPal purchase credited to bob, partly refunded and the rest reversed, when audited, then it exits 0 and names the purchase, the refund and the reversal', async () => {
    await recordConfiguredExchangeRate(deps, '0.000012');
    // 10 USD at 0.000012 USD per MLX buys 833,333 MLX; 4 USD refunded takes back 333,334 (rounded up), the reversal the rest.
    await orderPurchase(deps, { buyerUserId: bob, usdCents: 1000n, orderId: 'AUDIT-ORDER' });
    await requestCapture(deps, { orderId: 'AUDIT-ORDER', requestId: 'audit-approval', buyerUserId: bob });
    await recordCaptureResult(deps, {
      orderId: 'AUDIT-ORDER',
      result: { status: 'completed', captureId: 'AUDIT-CAPTURE', usdCents: 1000n },
    });
    await creditPurchase(deps, { orderId: 'AUDIT-ORDER', buyerUserId: bob });
    await recordRefund(deps, { orderId: 'AUDIT-ORDER', captureId: 'AUDIT-CAPTURE', refundId: 'AUDIT-REFUND', usdCents: 400n });
    await recordReversal(deps, { orderId: 'AUDIT-ORDER', captureId: 'AUDIT-CAPTURE', reversalId: 'AUDIT-REVERSAL', usdCents: 600n });

    const audit = await runCli('audit');
    expect([audit.code, audit.stderr]).toEqual([0, '']);
    expect(audit.stdout).toContain('audit: OK');
    expect(line(audit, 'purchases:')).toBe('purchases: 1 ordered, 1 captured, 1 credited (833,333 MLX from the reserve)');
    expect(line(audit, 'purchase refunds:')).toBe('purchase refunds: 1 (333,334 MLX back to the reserve)');
    expect(line(audit, 'purchase reversals (chargebacks):')).toBe('purchase reversals (chargebacks): 1 (499,999 MLX back to the reserve)');
    // Purchases move MLX inside Quern only: the network boundary is as the sends left it.
    expect(line(audit, 'network account:')).toContain('network account: -980,000 MLX');
  });

  it('given a purchase bob sent away after its hold and then charged back in full, when audited, then it exits 0 and lists the reserve loss', async () => {
    // 10 USD buys 833,333 MLX; after the hold bob keeps only 100,000, so the chargeback takes that back and the reserve loses the rest.
    await orderPurchase(deps, { buyerUserId: bob, usdCents: 1000n, orderId: 'AUDIT-LOSS-ORDER' });
    await requestCapture(deps, { orderId: 'AUDIT-LOSS-ORDER', requestId: 'audit-loss-approval', buyerUserId: bob });
    await recordCaptureResult(deps, {
      orderId: 'AUDIT-LOSS-ORDER',
      result: { status: 'completed', captureId: 'AUDIT-LOSS-CAPTURE', usdCents: 1000n },
    });
    await creditPurchase(deps, { orderId: 'AUDIT-LOSS-ORDER', buyerUserId: bob });
    const afterHold: WalletDeps = { ...deps, clock: { now: () => new Date(Date.now() + 73 * 3_600_000) } };
    const available = (await loadWallet(deps, bob)).state;
    const keep = 100_000n;
    const spendable = available.postedBalanceMlx - available.pendingDebitsMlx - keep - SEND_FEE_MLX;
    await sendMlx(afterHold, bob, { to: { kind: 'address', address: aliceAddress }, amount: spendable, fee: SEND_FEE_MLX });
    const reversed = await recordReversal(deps, {
      orderId: 'AUDIT-LOSS-ORDER',
      captureId: 'AUDIT-LOSS-CAPTURE',
      reversalId: 'AUDIT-LOSS-REVERSAL',
      usdCents: 1000n,
    });
    expect(reversed.mlxReturned).toBe(keep);

    const audit = await runCli('audit');
    expect([audit.code, audit.stderr]).toEqual([0, '']);
    expect(audit.stdout).toContain('audit: OK');
    expect(line(audit, 'reserve losses (chargebacks not taken back):')).toBe(
      'reserve losses (chargebacks not taken back): 1 (733,333 MLX sold and not paid for)',
    );
  });

  it('given carol’s empty wallet closed (ADR 042) and a faucet deposit confirmed to her address after, when audited, then it exits 0 and names the MLX held for closed accounts', async () => {
    const carol = randomUUID();
    const carolAddress = await openUserWallet(deps, carol);
    await expect(closeWallet(deps, carol)).resolves.toEqual({ closed: true });
    const before = await runCli('audit');
    expect(line(before, 'closed wallets:')).toBe(
      'closed wallets: 1 (held for closed accounts: 0 MLX from 0 deposit(s) confirmed after closing, 0 MLX pending)',
    );

    const faucet = await runCli('faucet', [`--to=${carolAddress}`, '--amount', '5,000']);
    expect([faucet.code, faucet.stderr]).toEqual([0, '']);
    await eventually(async () => {
      const deposits = [...(await loadWallet(deps, carol)).state.deposits.values()];
      return deposits.some((d) => d.status === 'confirmed') ? true : undefined;
    }, SETTLED_WITHIN_MS);

    const audit = await runCli('audit');
    expect([audit.code, audit.stderr]).toEqual([0, '']);
    expect(audit.stdout).toContain('audit: OK');
    expect(line(audit, 'closed wallets:')).toBe(
      'closed wallets: 1 (held for closed accounts: 5,000 MLX from 1 deposit(s) confirmed after closing, 0 MLX pending)',
    );
    // The deposit crossed the boundary like any other.
    expect(line(audit, 'network account:')).toContain('network account: -985,000 MLX');
  });

  it('given a deposit confirmation forged onto bob’s stream with no deposit behind it, when audited, then it exits 1 naming the boundary', async () => {
    await store.append(
      walletStream(bob),
      [
        {
          type: 'DepositConfirmed',
          data: { walletId: bob, depositId: 'forged:0', amountMlx: '5000', confirmedAt: new Date().toISOString() },
        },
      ],
      'any',
    );
    const audit = await runCli('audit');
    expect(audit.code).toBe(1);
    expect(audit.stdout).toContain('"code":"depositUnknown"');
    expect(audit.stdout).toContain('"code":"networkBoundaryMismatch"');
    expect(line(audit, 'network account:')).toContain('-990,000 MLX');
  });
});

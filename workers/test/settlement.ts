/**
 * Test support for the settlement and deposit specs (not exported from the package): a wallet
 * world on a real SQLite log and the real simulated millix network, the pipeline wired as the app
 * wires it, and a driver that runs a waiting job to its end without BullMQ.
 */
import { dispatchRules } from '../src/dispatch/rules.js';
import { NOTICE_EMAIL_QUEUE } from '../src/notice-email/payload.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock, type EventStore, type RecordedEvent } from '@quern/core';
import { identityPayeeDirectory } from '@quern/core/identity';
import {
  createAddress,
  ensureSystemWallets,
  executeWalletCommand,
  loadWallet,
  openUserWallet,
  sendMlx,
  settleInternalTransfer,
  SEND_FEE_MLX,
  SYSTEM_WALLET_IDS,
  walletStream,
  type WalletDeps,
} from '@quern/core/wallet';
import { auditLedger, type LedgerAudit } from '@quern/core/audit';
import type { Redis } from 'ioredis';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { openSimulatedNetwork, type SimulatedNetwork } from '@quern/adapters/millix';
import { startDepositWatcher, type DepositWatcher } from '../src/deposits/watcher.js';
import { startDispatcher, type Dispatcher } from '../src/dispatcher.js';
import { createMailer, type Mailer } from '@quern/adapters/mail';
import type { Logger } from '@quern/core';
import { startWorkers, type StartWorkersOptions, type WorkersHandle } from '../src/workers.js';
import type { ResumableJob } from '../src/job/resumable.js';
import { transferTermsBook } from '@quern/core/transfer-references';

export const SUPPLY_MLX = 9_000_000_000_000_000n;
export const RESERVE_FUNDING_MLX = 1_000_000_000n;
/** The genesis allocation of the MLX outside Quern: deposits come out of it (ADR 005). */
export const NETWORK_ALLOCATION_MLX = 1_000_000_000n;
const NETWORK_ALLOCATION_TRANSFER_ID = 'test-network-allocation';

export interface WalletWorld {
  store: EventStore;
  dir: string;
  network: SimulatedNetwork;
  networkFile: string;
  deps: WalletDeps;
  /** Opens a user wallet; funds it from the reserve (settled before returning) when asked. */
  openUser(fundMlx?: bigint): Promise<{ walletId: string; address: string }>;
  /** A valid mainnet address that no Quern wallet holds. */
  outsideAddress(): string;
  events(walletId: string, type?: string): Promise<RecordedEvent[]>;
  transferStatus(walletId: string, transferId: string): Promise<string | undefined>;
  /** The audit over the whole log, read in bounded pages. */
  audit(): Promise<LedgerAudit>;
  dispose(): Promise<void>;
}

export async function openWalletWorld(options: { confirmDelayMs: number }): Promise<WalletWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'quern-settlement-'));
  const store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  const networkFile = join(dir, 'simulated-network.sqlite');
  const network = openSimulatedNetwork({ file: networkFile, confirmDelayMs: options.confirmDelayMs });
  const deps: WalletDeps = {
    store,
    transferTerms: transferTermsBook,
    clock: systemClock,
    newId: randomUUID,
    newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
    network: 'mainnet',
    payees: identityPayeeDirectory({ store }),
  };
  await ensureSystemWallets(deps, { supplyMlx: SUPPLY_MLX, reserveFundingMlx: RESERVE_FUNDING_MLX });
  await allocateNetworkAccount(deps);

  const world: WalletWorld = {
    store,
    dir,
    network,
    networkFile,
    deps,
    async openUser(fundMlx) {
      const walletId = randomUUID();
      const address = await openUserWallet(deps, walletId);
      if (fundMlx !== undefined) {
        const sent = await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, {
          to: { kind: 'address', address },
          amount: fundMlx,
          fee: SEND_FEE_MLX,
        });
        await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.reserve, sent.transferId);
      }
      return { walletId, address };
    },
    outsideAddress: () => createAddress(new Uint8Array(randomBytes(20)), 'mainnet'),
    async events(walletId, type) {
      const events = await store.readStream(walletStream(walletId));
      return type === undefined ? events : events.filter((event) => event.type === type);
    },
    async transferStatus(walletId, transferId) {
      const transfer = (await loadWallet(deps, walletId)).state.transfers.get(transferId);
      return transfer?.status;
    },
    async audit() {
      const records: RecordedEvent[] = [];
      let after: bigint | undefined;
      for (;;) {
        const page = await store.readAll({ after, maxCount: 1_000 });
        records.push(...page);
        if (page.length < 1_000) break;
        after = page.at(-1)?.position;
      }
      return auditLedger(records);
    },
    async dispose() {
      await network.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** Moves MLX from genesis to the network account, settled at once, so confirmed deposits have a source. */
async function allocateNetworkAccount(deps: WalletDeps): Promise<void> {
  const network = (await loadWallet(deps, SYSTEM_WALLET_IDS.network)).state.wallet;
  if (!network) throw new Error('The network account was not opened');
  await executeWalletCommand(deps, SYSTEM_WALLET_IDS.genesis, {
    type: 'ReserveTransfer',
    data: {
      transferId: NETWORK_ALLOCATION_TRANSFER_ID,
      toAddress: network.address,
      toWalletId: SYSTEM_WALLET_IDS.network,
      amountMlx: NETWORK_ALLOCATION_MLX,
      feeMlx: SEND_FEE_MLX,
    },
  });
  await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.genesis, NETWORK_ALLOCATION_TRANSFER_ID);
}

export interface WalletPipeline {
  dispatcher: Dispatcher;
  workers: WorkersHandle;
  watcher: DepositWatcher | undefined;
  stop(): Promise<void>;
}

/** The dispatcher, the workers with the network, and (when asked) the deposit watcher. */
export function startWalletPipeline(options: {
  world: WalletWorld;
  redis: Redis;
  redisUrl: string;
  prefix: string;
  logger: Logger;
  workers?: Partial<StartWorkersOptions>;
  watchDeposits?: boolean;
}): WalletPipeline {
  const { world } = options;
  const mailer: Mailer = createMailer({ dataDir: world.dir, from: 'Quern <no-reply@quern.example>', logger: options.logger });
  const dispatcher = startDispatcher({
    // The wallet world opens wallets without accounts, so a notice has nobody to mail; notices are
    // proven in notice-email.int.spec.ts and left out here, so these specs count settlement work only.
    rules: dispatchRules.filter((rule) => rule.queue !== NOTICE_EMAIL_QUEUE),
    store: world.store,
    redis: options.redis,
    prefix: options.prefix,
    logger: options.logger,
    checkpointCheckIntervalMs: 60_000,
    redisLossGraceMs: 1_000,
  });
  const workers = startWorkers({
    store: world.store,
    connection: options.redisUrl,
    mailer,
    appSecret: 'test-app-secret-with-enough-characters',
    publicUrl: 'http://quern.test:3000',
    prefix: options.prefix,
    network: world.network,
    networkPollIntervalMs: 50,
    logger: options.logger,
    ...options.workers,
  });
  const watcher = options.watchDeposits
    ? startDepositWatcher({
        store: world.store,
        transferTerms: transferTermsBook,
        redis: options.redis,
        network: world.network,
        intervalMs: 50,
        pageSize: 10,
        logger: options.logger,
      })
    : undefined;
  return {
    dispatcher,
    workers,
    watcher,
    async stop() {
      await watcher?.close();
      await dispatcher.close();
      await workers.close();
      await mailer.close();
    },
  };
}

/** Thrown by the driver's runAgainAt: the run ended asking to be run again at `atMs`. */
export class RunAgain extends Error {
  constructor(readonly atMs: number) {
    super(`run again at ${atMs}`);
  }
}

/** A job held in memory: updateData keeps the data, runAgainAt ends the run with RunAgain. */
export function memoryJob(data: Record<string, unknown>): ResumableJob & { readonly current: Record<string, unknown>; runs: number } {
  let current = data;
  return {
    runs: 0,
    get data() {
      return current;
    },
    get current() {
      return current;
    },
    async updateData(next) {
      current = next;
    },
    async runAgainAt(atMs) {
      throw new RunAgain(atMs);
    },
  };
}

/** Runs a job until it returns, sleeping whenever it asks to run again; bounded by maxRuns. */
export async function runToEnd<T>(job: ReturnType<typeof memoryJob>, run: (job: ResumableJob) => Promise<T>, maxRuns = 200): Promise<T> {
  for (;;) {
    job.runs += 1;
    if (job.runs > maxRuns) throw new Error(`The job did not finish in ${maxRuns} runs`);
    try {
      return await run(job);
    } catch (error) {
      if (!(error instanceof RunAgain)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, error.atMs - Date.now())));
    }
  }
}

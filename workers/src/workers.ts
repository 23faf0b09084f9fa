/**
 * The BullMQ workers, one per queue this process consumes. Each job folder registers its processor
 * in its module.ts (job-modules.ts lists them); this builds the context they run on, once, from
 * the options. Each job is a plain function of (payload, deps) that checks the log before acting,
 * so a stalled job that runs twice, or a job re-derived after a Redis loss, does not repeat its
 * effect (see welcome-email/job.ts and settlement/job.ts).
 */
import { describeError, systemClock, type Clock, type EventStore, type KeyedSerializer, type Logger, type QuernMode } from '@quern/core';
import type { MillixNetworkPort, WalletStateCache } from '@quern/core/wallet';
import { Queue, Worker, type ConnectionOptions, type RedisOptions } from 'bullmq';
import type { Mailer } from '@quern/adapters/mail';
import type { PayPalClient } from '@quern/adapters/paypal';
import { processLogger } from '@quern/adapters/runtime';
import { sendWebhookAttempt } from '@quern/adapters/webhooks';
import { checkedSchedule, DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS, DEFAULT_WEBHOOK_TIMEOUT_MS } from '@quern/core/webhooks';
import { transferTermsBook } from '@quern/core/transfer-references';
import { mailerForMode } from './email/sandbox-subject.js';
import type { QueueProcessor } from './job/job-module.js';
import { checkedWait } from './job/resumable.js';
import type { NetworkJobsContext, PurchaseJobsContext, WorkerContext } from './job/worker-context.js';
import { jobModules } from './job-modules.js';
import { DEFAULT_QUEUE_PREFIX } from './jobs.js';
import type { PlanSubscriptions } from './plan-price-notice/job.js';
import { type OpenPurchases, type PurchaseSweep, type PurchaseSweepStatus, startPurchaseSweep } from './purchase-sweep/sweep.js';
import { SUBSCRIPTION_RENEWAL_QUEUE } from './subscription-renewal/payload.js';
import { type RenewalSweep, type RenewalSweepStatus, startRenewalSweep } from './subscription-renewal/sweep.js';
import type { WebhookDeliveryDeps } from './webhook-delivery/job.js';

export interface StartWorkersOptions {
  store: EventStore;
  /**
   * A Redis URL or ioredis options (BullMQ's spelling of them, which only differs in not allowing
   * a null retryStrategy); each worker opens its own connections from it.
   */
  connection: string | RedisOptions;
  mailer: Mailer;
  /** Key for reset-link MACs (at least 16 characters; the api requires 32). */
  appSecret: string;
  /** Where users reach Quern, used in e-mailed links. */
  publicUrl: string;
  /** The support mailbox contact and support messages go to (SUPPORT_EMAIL); its default unless given. */
  supportEmail?: string;
  /** The operator's company (COMPANY_NAME), which signs the e-mails; 'Quern' unless given. */
  companyName?: string;
  /**
   * QUERN_MODE (ADR 050): in a sandbox every e-mail subject starts with `[Sandbox] ` and webhook
   * bodies say `livemode: false`; live, `livemode: true` and the subjects as written. Sandbox, the
   * default mode, unless given.
   */
  mode?: QuernMode;
  /**
   * The millix network: settlement of external sends and confirmation of deposits. Without it
   * the settlement and deposit-confirmation queues are not consumed (their jobs wait, nothing is
   * lost) and the start is logged as such; every Quern process that settles must pass it.
   */
  network?: MillixNetworkPort;
  /**
   * Earliest settlement of a send after its reservation, in ms (default 0). Lets people watch a
   * send pending in demos; the job is parked in BullMQ's delayed set meanwhile.
   */
  settlementDelayMs?: number;
  /**
   * The per-wallet command queue of this process, shared with the api in `npm start`: settlement
   * posting on a payer's stream then waits its turn instead of racing the payer's sends.
   */
  walletSerializer?: KeyedSerializer;
  /** The process's wallet state cache, shared with the api; used only with walletSerializer. */
  walletStateCache?: WalletStateCache;
  /**
   * PayPal purchases: the capture and credit workers and the sweep (ADR 026). Without it those
   * queues are not consumed (their jobs wait) and no sweep runs; the receipt e-mails still go out.
   */
  purchases?: PurchaseWorkersOptions;
  /** How long an external send may stay unconfirmed on the network before it is voided 'expired' (default 10 minutes). */
  settlementWaitMs?: number;
  /** How long a deposit may stay unconfirmed on the network before it is rejected 'expired' (default 1 hour). */
  depositWaitMs?: number;
  /** First pause between two looks at a transaction's status; it doubles up to 30 s (default 2 s). */
  networkPollIntervalMs?: number;
  /** Webhook delivery (ADR 035); the fan-out and delivery queues always run, with these settings. */
  webhooks?: WebhookWorkerOptions;
  /**
   * The plans' subscriptions read model: the price-change announcements need it. Without it the
   * plan-price-notice queue is not consumed (its jobs wait, nothing is lost) and the start is logged.
   */
  planSubscriptions?: PlanSubscriptions;
  /**
   * Consume only these queues (a process dedicated to one kind of work, such as billing); every
   * queue this process can run when absent. The jobs of the other queues wait for another process.
   */
  queues?: readonly string[];
  /**
   * Pause between two sweeps re-queueing renewal jobs that failed for good (ADR 057,
   * RENEWAL_SWEEP_INTERVAL_MS; default a minute). The sweep runs where the renewals are consumed.
   */
  renewalSweepIntervalMs?: number;
  /** Jobs processed at once per queue. */
  concurrency?: number;
  /** BullMQ key prefix; must match the dispatcher's. */
  prefix?: string;
  clock?: Clock;
  logger?: Logger;
}

export interface WebhookWorkerOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: deliver to loopback and private addresses too (tests, self-hosting). */
  allowPrivateNetworks: boolean;
  /** Pauses before each retry; DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS (about three days) unless given. */
  retryScheduleMs?: readonly number[];
  /** A 2xx must come within this (default 10 s). */
  timeoutMs?: number;
  /** The HTTP sender (tests may count calls); sendWebhookAttempt unless given. */
  send?: WebhookDeliveryDeps['send'];
  /** Told how each delivery run ended (the metrics count them). */
  onDeliveryOutcome?: WebhookDeliveryDeps['onOutcome'];
}

export interface PurchaseWorkersOptions {
  paypal: Pick<PayPalClient, 'captureOrder' | 'getOrder'>;
  /** How long after a capture the credit is left to the buyer's browser (PURCHASE_CREDIT_GRACE_MS). */
  creditGraceMs: number;
  /** Pause between two sweeps of the open purchases (PURCHASE_SWEEP_INTERVAL_MS). */
  sweepIntervalMs: number;
  /** The purchases read model the sweep reads its open orders from. */
  openPurchases: OpenPurchases;
  /** How long credited MLX may not be sent or paid out (PURCHASE_HOLD_HOURS, ADR 047); core's default when unset. */
  holdMs?: number;
}

/** A type, not an interface, so it fits the api's heartbeat record with its index signature. */
export type WorkersStatus = {
  running: boolean;
  /** The queues consumed (settlement and deposit-confirmation only with a network, capture and credit only with purchases). */
  queues: string[];
  lastError: string | undefined;
  completedJobs: number;
  failedJobs: number;
  /** The purchase sweep, when purchases are on. */
  purchaseSweep: PurchaseSweepStatus | undefined;
  /** The renewal sweep, when this process consumes the renewal queue. */
  renewalSweep: RenewalSweepStatus | undefined;
};

export interface WorkersHandle {
  status(): WorkersStatus;
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}

const MAX_CONCURRENCY = 100;
/** The api's SUPPORT_EMAIL default, for workers started without one (tests). */
const DEFAULT_SUPPORT_EMAIL = 'support@quern.example';
/**
 * A worker killed mid-job (kill -9, a lost container) leaves its job locked. Every job here checks
 * the log before acting, so running a stalled job again is safe: the lock is short so another
 * worker takes it over within seconds, and a job may stall many times (one crash after another)
 * before BullMQ gives up on it; with BullMQ's default of 1, a second crash during the same
 * settlement would fail it for good and leave the payer's hold open.
 */
const STALLED_JOB_RECOVERY = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 50 } as const;
const MINUTE_MS = 60_000;
const RENEWAL_SWEEP_INTERVAL_MS_DEFAULT = 60_000;

/** What every job module's processor is given, built once; a setting out of bounds stops the start. */
function workerContextOf(options: StartWorkersOptions, clock: Clock, logger: Logger): WorkerContext {
  const mode = options.mode ?? 'sandbox';
  const serialize = options.walletSerializer;
  const stateCache = options.walletStateCache;
  return {
    store: options.store,
    clock,
    logger,
    mode,
    email: {
      store: options.store,
      // Every job's mail goes through this one mailer: the sandbox tag is added here, once.
      mailer: mailerForMode(options.mailer, mode),
      publicUrl: options.publicUrl.replace(/\/+$/, ''),
      appSecret: options.appSecret,
      ...(options.companyName ? { companyName: options.companyName } : {}),
      clock,
      logger,
    },
    supportEmail: options.supportEmail ?? DEFAULT_SUPPORT_EMAIL,
    serialize,
    stateCache,
    transferTerms: transferTermsBook,
    // Checked in this order: the webhook settings always, the network's and PayPal's only when given.
    webhookDelivery: webhookDeliveryDepsOf(options, clock, logger),
    network: options.network && networkJobsContextOf(options, options.network),
    purchases:
      options.purchases &&
      purchaseJobsContextOf(
        options.purchases,
        { store: options.store, clock, serialize, stateCache, transferTerms: transferTermsBook },
        logger,
      ),
    planSubscriptions: options.planSubscriptions,
  };
}

function webhookDeliveryDepsOf(options: StartWorkersOptions, clock: Clock, logger: Logger): WebhookDeliveryDeps {
  const settings = options.webhooks ?? { allowPrivateNetworks: false };
  const timeoutMs = settings.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) throw new RangeError('webhooks.timeoutMs must be 1 to 60000 ms');
  return {
    store: options.store,
    clock,
    logger,
    send: settings.send ?? sendWebhookAttempt,
    retryScheduleMs: checkedSchedule(settings.retryScheduleMs ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS),
    timeoutMs,
    allowPrivateNetworks: settings.allowPrivateNetworks,
    ...(settings.onDeliveryOutcome ? { onOutcome: settings.onDeliveryOutcome } : {}),
  };
}

function networkJobsContextOf(options: StartWorkersOptions, port: MillixNetworkPort): NetworkJobsContext {
  const pollIntervalMs = options.networkPollIntervalMs ?? 2_000;
  const settlementWait = checkedWait({ waitMs: options.settlementWaitMs ?? 10 * MINUTE_MS, pollIntervalMs }, 'settlementWaitMs');
  const depositWait = checkedWait({ waitMs: options.depositWaitMs ?? 60 * MINUTE_MS, pollIntervalMs }, 'depositWaitMs');
  const settlementDelayMs = options.settlementDelayMs ?? 0;
  if (!Number.isInteger(settlementDelayMs) || settlementDelayMs < 0 || settlementDelayMs > 60 * MINUTE_MS)
    throw new RangeError('settlementDelayMs must be an integer number of milliseconds from 0 to an hour');
  return { port, settlementWait, depositWait, settlementDelayMs };
}

function purchaseJobsContextOf(
  purchases: PurchaseWorkersOptions,
  core: Omit<PurchaseJobsContext['deps']['core'], 'purchaseHoldMs'>,
  logger: Logger,
): PurchaseJobsContext {
  const { creditGraceMs } = purchases;
  if (!Number.isInteger(creditGraceMs) || creditGraceMs < 0 || creditGraceMs > 60 * MINUTE_MS)
    throw new RangeError('creditGraceMs must be an integer number of milliseconds from 0 to an hour');
  const deps = {
    core: { ...core, ...(purchases.holdMs === undefined ? {} : { purchaseHoldMs: purchases.holdMs }) },
    paypal: purchases.paypal,
    logger,
  };
  return { deps, creditGraceMs };
}

/** The renewal sweep over this process's view of the renewal queue; closing it closes the queue too. */
function startFailedRenewalSweep(options: StartWorkersOptions, connection: ConnectionOptions, clock: Clock, logger: Logger): RenewalSweep {
  const queue = new Queue(SUBSCRIPTION_RENEWAL_QUEUE, { connection, prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX });
  const sweep = startRenewalSweep({
    core: { store: options.store, clock },
    jobs: { failed: (count) => queue.getFailed(0, count - 1) },
    logger,
    intervalMs: options.renewalSweepIntervalMs ?? RENEWAL_SWEEP_INTERVAL_MS_DEFAULT,
  });
  return {
    status: () => sweep.status(),
    close: async () => {
      await sweep.close();
      await queue.close();
    },
  };
}

/** The job modules this process consumes, each with its processor over what the process has. */
function queueProcessorsOf(context: WorkerContext, only: readonly string[] | undefined): (QueueProcessor & { queue: string })[] {
  return jobModules
    .filter((module) => only === undefined || only.includes(module.queue))
    .flatMap((module) => {
      const processor = module.processor(context);
      return processor ? [{ queue: module.queue, ...processor }] : [];
    });
}

export function startWorkers(options: StartWorkersOptions): WorkersHandle {
  const concurrency = options.concurrency ?? 5;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new Error(`Worker concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
  }
  const logger = options.logger ?? processLogger;
  const clock = options.clock ?? systemClock;
  const context = workerContextOf(options, clock, logger);
  const processors = queueProcessorsOf(context, options.queues);
  if (!options.network)
    logger.info('[workers] no millix network given: settlement and deposit confirmation are not running in this process');
  if (!options.purchases) logger.info('[workers] no PayPal given: purchase capture, credit and sweep are not running in this process');
  if (!options.planSubscriptions)
    logger.info('[workers] no plan subscriptions read model given: plan price-change announcements are not running in this process');
  const connection: ConnectionOptions = typeof options.connection === 'string' ? { url: options.connection } : options.connection;
  let lastError: string | undefined;
  let completedJobs = 0;
  let failedJobs = 0;
  let closed = false;

  const workers = processors.map(({ queue, process, maxStartedAttempts }) => {
    const worker = new Worker(queue, (job, token) => process(job, token), {
      connection,
      prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX,
      concurrency,
      ...(maxStartedAttempts === undefined ? {} : { maxStartedAttempts }),
      ...STALLED_JOB_RECOVERY,
    });
    worker.on('completed', () => (completedJobs += 1));
    worker.on('failed', (job, error) => {
      failedJobs += 1;
      lastError = `${queue} job ${job?.id ?? '?'} (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`;
      logger.error(`[workers] ${lastError}`);
    });
    // Without a listener an 'error' (e.g. Redis unreachable) would crash the process.
    worker.on('error', (error) => (lastError = `${queue}: ${describeError(error)}`));
    return worker;
  });
  const { purchases } = options;
  const sweep: PurchaseSweep | undefined =
    purchases && context.purchases
      ? startPurchaseSweep({
          deps: context.purchases.deps,
          openPurchases: purchases.openPurchases,
          intervalMs: purchases.sweepIntervalMs,
          creditGraceMs: purchases.creditGraceMs,
        })
      : undefined;
  const renewalSweep = processors.some((processor) => processor.queue === SUBSCRIPTION_RENEWAL_QUEUE)
    ? startFailedRenewalSweep(options, connection, clock, logger)
    : undefined;

  let closing: Promise<void> | undefined;
  return {
    status: () => ({
      running: !closed && workers.every((worker) => worker.isRunning()),
      queues: processors.map((processor) => processor.queue),
      lastError,
      completedJobs,
      failedJobs,
      purchaseSweep: sweep?.status(),
      renewalSweep: renewalSweep?.status(),
    }),
    close() {
      closed = true;
      closing ??= Promise.all([...workers.map((worker) => worker.close()), sweep?.close(), renewalSweep?.close()]).then(() => undefined);
      return closing;
    },
  };
}

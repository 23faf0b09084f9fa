/**
 * The BullMQ workers, one per queue. Each job is a plain function of (payload, deps) that checks
 * the log before acting, so a stalled job that runs twice, or a job re-derived after a Redis
 * loss, does not repeat its effect (see welcome-email/job.ts and settlement/job.ts).
 */
import type { KeyedSerializer } from '@quern/core';
import type { WalletStateCache } from '@quern/core/wallet';
import { systemClock, type Clock, type EventStore, type QuernMode } from '@quern/core';
import { DelayedError, Queue, Worker, type ConnectionOptions, type Job, type RedisOptions } from 'bullmq';
import { confirmDeposit } from './deposits/job.js';
import { DEPOSIT_CONFIRMATION_QUEUE } from './deposits/payload.js';
import type { Mailer } from '@quern/adapters/mail';
import type { PayPalClient } from '@quern/adapters/paypal';
import type { EmailJobDeps } from './job/email-job.js';
import { sendEmailVerificationEmail } from './email-verification-email/job.js';
import {
  DEFAULT_QUEUE_PREFIX,
  EMAIL_VERIFICATION_EMAIL_QUEUE,
  PASSWORD_CHANGED_EMAIL_QUEUE,
  PASSWORD_RESET_EMAIL_QUEUE,
  TWO_FACTOR_LOCKED_EMAIL_QUEUE,
  WELCOME_EMAIL_QUEUE,
} from './jobs.js';
import { sendTwoFactorLockedEmail } from './two-factor-locked-email/job.js';
import { describeError, type Logger } from '@quern/core';
import { processLogger } from '@quern/adapters/runtime';
import { sendPasswordChangedEmail } from './password-changed-email/job.js';
import { sendPasswordResetEmail } from './password-reset-email/job.js';
import type { PurchaseJobDeps } from './purchase-capture/deps.js';
import { capturePurchase } from './purchase-capture/job.js';
import { PURCHASE_CAPTURE_QUEUE } from './purchase-capture/payload.js';
import { creditPurchaseAfterGrace } from './purchase-credit/job.js';
import { PURCHASE_CREDIT_QUEUE } from './purchase-credit/payload.js';
import { sendPurchaseReceiptEmail } from './purchase-receipt-email/job.js';
import { PURCHASE_RECEIPT_EMAIL_QUEUE } from './purchase-receipt-email/payload.js';
import { type OpenPurchases, type PurchaseSweep, type PurchaseSweepStatus, startPurchaseSweep } from './purchase-sweep/sweep.js';
import { settleTransfer } from './settlement/job.js';
import type { MillixNetworkPort } from '@quern/core/wallet';
import { SETTLEMENT_QUEUE } from './settlement/payload.js';
import { checkedWait, resumableBullJob, type NetworkWait } from './job/resumable.js';
import { sendWelcomeEmail } from './welcome-email/job.js';
import { mailerForMode } from './email/sandbox-subject.js';
import { checkedSchedule, DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS, DEFAULT_WEBHOOK_TIMEOUT_MS } from '@quern/core/webhooks';
import { sendWebhookAttempt } from '@quern/adapters/webhooks';
import { deliverWebhook, type WebhookDeliveryDeps } from './webhook-delivery/job.js';
import { WEBHOOK_DELIVERY_QUEUE } from './webhook-delivery/payload.js';
import { fanOutWebhookJob } from './webhook-fanout/job.js';
import { WEBHOOK_FANOUT_QUEUE } from './webhook-fanout/payload.js';
import { unlistedQueues } from './queues.js';
import { announcePlanPriceChange, type PlanSubscriptions } from './plan-price-notice/job.js';
import { PLAN_PRICE_NOTICE_QUEUE } from './plan-price-notice/payload.js';
import { sendSubscriptionEmail } from './subscription-email/job.js';
import { SUBSCRIPTION_EMAIL_QUEUE } from './subscription-email/payload.js';
import { renewSubscription } from './subscription-renewal/job.js';
import { SUBSCRIPTION_RENEWAL_QUEUE } from './subscription-renewal/payload.js';
import { type RenewalSweep, type RenewalSweepStatus, startRenewalSweep } from './subscription-renewal/sweep.js';
import { sendSupportEmail } from './support-email/job.js';
import { SUPPORT_EMAIL_QUEUE } from './support-email/payload.js';
import { sendNoticeEmail } from './notice-email/job.js';
import { NOTICE_EMAIL_QUEUE } from './notice-email/payload.js';

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

type JobProcessor = (job: Job, token: string | undefined) => Promise<unknown>;

interface QueueProcessor {
  queue: string;
  process: JobProcessor;
  /**
   * A guard on runs of one job, waits included (BullMQ fails the job past it). The waits are
   * bounded by their deadlines long before; this only stops a job that somehow never ends.
   */
  maxStartedAttempts?: number;
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
/** Above POLLS_MAX plus the retry attempts, so the jobs' own deadline always acts first. */
const WAITING_JOB_RUNS_MAX = 10_000;

function emailProcessors(
  deps: EmailJobDeps,
  options: Pick<StartWorkersOptions, 'walletSerializer' | 'walletStateCache' | 'supportEmail'>,
): QueueProcessor[] {
  const subscriptionDeps = { ...deps, serialize: options.walletSerializer, stateCache: options.walletStateCache };
  const supportDeps = { ...deps, supportEmail: options.supportEmail ?? DEFAULT_SUPPORT_EMAIL };
  return [
    { queue: WELCOME_EMAIL_QUEUE, process: (job) => sendWelcomeEmail(job.data, deps) },
    { queue: PASSWORD_RESET_EMAIL_QUEUE, process: (job) => sendPasswordResetEmail(job.data, deps) },
    { queue: EMAIL_VERIFICATION_EMAIL_QUEUE, process: (job) => sendEmailVerificationEmail(job.data, deps) },
    { queue: PASSWORD_CHANGED_EMAIL_QUEUE, process: (job) => sendPasswordChangedEmail(job.data, deps) },
    { queue: TWO_FACTOR_LOCKED_EMAIL_QUEUE, process: (job) => sendTwoFactorLockedEmail(job.data, deps) },
    { queue: PURCHASE_RECEIPT_EMAIL_QUEUE, process: (job) => sendPurchaseReceiptEmail(job.data, deps) },
    { queue: SUBSCRIPTION_EMAIL_QUEUE, process: (job) => sendSubscriptionEmail(job.data, subscriptionDeps) },
    { queue: SUPPORT_EMAIL_QUEUE, process: (job) => sendSupportEmail(job.data, supportDeps) },
    { queue: NOTICE_EMAIL_QUEUE, process: (job) => sendNoticeEmail(job.data, deps) },
  ];
}

/**
 * Billing (ADR 037): the renewals always run (they need only the log and the clock, the workers'
 * clock so tests move time); the price-change announcements only with the subscriptions read model.
 */
function subscriptionProcessors(options: StartWorkersOptions, clock: Clock): QueueProcessor[] {
  const core = { store: options.store, clock, serialize: options.walletSerializer, stateCache: options.walletStateCache };
  const { planSubscriptions } = options;
  return [
    {
      queue: SUBSCRIPTION_RENEWAL_QUEUE,
      process: (job, token) => renewSubscription(resumableBullJob(job, token), core),
      maxStartedAttempts: WAITING_JOB_RUNS_MAX,
    },
    ...(planSubscriptions
      ? [
          {
            queue: PLAN_PRICE_NOTICE_QUEUE,
            process: (job: Job, token: string | undefined) =>
              announcePlanPriceChange(resumableBullJob(job, token), { ...core, planSubscriptions }),
            maxStartedAttempts: WAITING_JOB_RUNS_MAX,
          },
        ]
      : []),
  ];
}

const RENEWAL_SWEEP_INTERVAL_MS_DEFAULT = 60_000;

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

function webhookProcessors(options: StartWorkersOptions, clock: Clock, logger: Logger): QueueProcessor[] {
  const settings = options.webhooks ?? { allowPrivateNetworks: false };
  const timeoutMs = settings.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60_000) throw new RangeError('webhooks.timeoutMs must be 1 to 60000 ms');
  const deps: WebhookDeliveryDeps = {
    store: options.store,
    clock,
    logger,
    send: settings.send ?? sendWebhookAttempt,
    retryScheduleMs: checkedSchedule(settings.retryScheduleMs ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS),
    timeoutMs,
    allowPrivateNetworks: settings.allowPrivateNetworks,
    ...(settings.onDeliveryOutcome ? { onOutcome: settings.onDeliveryOutcome } : {}),
  };
  return [
    {
      queue: WEBHOOK_FANOUT_QUEUE,
      process: (job) => fanOutWebhookJob(job.data, { store: options.store, clock, mode: options.mode ?? 'sandbox' }),
    },
    {
      queue: WEBHOOK_DELIVERY_QUEUE,
      process: (job, token) =>
        deliverWebhook(resumableBullJob(job, token), deps).catch((error: unknown) => {
          // A DelayedError is the job parking itself until its next attempt, not a failure.
          if (!(error instanceof DelayedError)) deps.onOutcome?.('failed');
          throw error;
        }),
      maxStartedAttempts: WAITING_JOB_RUNS_MAX,
    },
  ];
}

function purchaseProcessors(deps: PurchaseJobDeps, creditGraceMs: number): QueueProcessor[] {
  if (!Number.isInteger(creditGraceMs) || creditGraceMs < 0 || creditGraceMs > 60 * MINUTE_MS)
    throw new RangeError('creditGraceMs must be an integer number of milliseconds from 0 to an hour');
  return [
    { queue: PURCHASE_CAPTURE_QUEUE, process: (job) => capturePurchase(job.data, deps) },
    {
      queue: PURCHASE_CREDIT_QUEUE,
      process: (job, token) => creditPurchaseAfterGrace(resumableBullJob(job, token), { ...deps, creditGraceMs }),
    },
  ];
}

function networkProcessors(options: StartWorkersOptions, network: MillixNetworkPort, clock: Clock, logger: Logger): QueueProcessor[] {
  const pollIntervalMs = options.networkPollIntervalMs ?? 2_000;
  const settlementWait: NetworkWait = checkedWait(
    { waitMs: options.settlementWaitMs ?? 10 * MINUTE_MS, pollIntervalMs },
    'settlementWaitMs',
  );
  const depositWait: NetworkWait = checkedWait({ waitMs: options.depositWaitMs ?? 60 * MINUTE_MS, pollIntervalMs }, 'depositWaitMs');
  const settlementDelayMs = options.settlementDelayMs ?? 0;
  if (!Number.isInteger(settlementDelayMs) || settlementDelayMs < 0 || settlementDelayMs > 60 * MINUTE_MS)
    throw new RangeError('settlementDelayMs must be an integer number of milliseconds from 0 to an hour');
  const store = options.store;
  return [
    {
      queue: SETTLEMENT_QUEUE,
      process: (job, token) =>
        settleTransfer(resumableBullJob(job, token), {
          store,
          clock,
          network,
          logger,
          settlementDelayMs,
          wait: settlementWait,
          serialize: options.walletSerializer,
          stateCache: options.walletStateCache,
        }),
      maxStartedAttempts: WAITING_JOB_RUNS_MAX,
    },
    {
      queue: DEPOSIT_CONFIRMATION_QUEUE,
      process: (job, token) =>
        confirmDeposit(resumableBullJob(job, token), {
          store,
          clock,
          network,
          logger,
          wait: depositWait,
          serialize: options.walletSerializer,
          stateCache: options.walletStateCache,
        }),
      maxStartedAttempts: WAITING_JOB_RUNS_MAX,
    },
  ];
}

export function startWorkers(options: StartWorkersOptions): WorkersHandle {
  const concurrency = options.concurrency ?? 5;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new Error(`Worker concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
  }
  const logger = options.logger ?? processLogger;
  const clock = options.clock ?? systemClock;
  const mode = options.mode ?? 'sandbox';
  const deps: EmailJobDeps = {
    store: options.store,
    // Every job's mail goes through this one mailer: the sandbox tag is added here, once.
    mailer: mailerForMode(options.mailer, mode),
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    appSecret: options.appSecret,
    ...(options.companyName ? { companyName: options.companyName } : {}),
    clock,
    logger,
  };
  const { purchases } = options;
  const purchaseDeps: PurchaseJobDeps | undefined = purchases && {
    core: {
      store: options.store,
      clock,
      serialize: options.walletSerializer,
      stateCache: options.walletStateCache,
      ...(purchases.holdMs === undefined ? {} : { purchaseHoldMs: purchases.holdMs }),
    },
    paypal: purchases.paypal,
    logger,
  };
  const available = [
    ...emailProcessors(deps, options),
    ...subscriptionProcessors(options, clock),
    ...webhookProcessors(options, clock, logger),
    ...(options.network ? networkProcessors(options, options.network, clock, logger) : []),
    ...(purchases && purchaseDeps ? purchaseProcessors(purchaseDeps, purchases.creditGraceMs) : []),
  ];
  // A queue missing from ALL_QUEUES would work unseen by the metrics: refused at start, in every test that starts workers.
  const unlisted = unlistedQueues(available.map((processor) => processor.queue));
  if (unlisted.length > 0) throw new Error(`Queues processed but missing from ALL_QUEUES (workers/src/queues.ts): ${unlisted.join(', ')}`);
  const only = options.queues;
  const processors = only ? available.filter((processor) => only.includes(processor.queue)) : available;
  if (!options.network)
    logger.info('[workers] no millix network given: settlement and deposit confirmation are not running in this process');
  if (!purchases) logger.info('[workers] no PayPal given: purchase capture, credit and sweep are not running in this process');
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
  const sweep: PurchaseSweep | undefined =
    purchases && purchaseDeps
      ? startPurchaseSweep({
          deps: purchaseDeps,
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

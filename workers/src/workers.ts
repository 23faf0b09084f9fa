/**
 * The BullMQ workers, one per queue. Each job is a plain function of (payload, deps) that checks
 * the log before acting, so a stalled job that runs twice, or a job re-derived after a Redis
 * loss, does not repeat its effect (see welcome-email/job.ts).
 */
import { systemClock, type Clock, type EventStore } from '@quern/core';
import { Worker, type ConnectionOptions, type RedisOptions } from 'bullmq';
import type { Mailer } from './email/mailer.js';
import type { EmailJobDeps, EmailJobResult } from './email-job.js';
import { DEFAULT_QUEUE_PREFIX, PASSWORD_RESET_EMAIL_QUEUE, WELCOME_EMAIL_QUEUE } from './jobs.js';
import { consoleLogger, describeError, type Logger } from './log.js';
import { sendPasswordResetEmail } from './password-reset-email/job.js';
import { sendWelcomeEmail } from './welcome-email/job.js';

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
  /** Jobs processed at once per queue. */
  concurrency?: number;
  /** BullMQ key prefix; must match the dispatcher's. */
  prefix?: string;
  clock?: Clock;
  logger?: Logger;
}

/** A type, not an interface, so it fits the api's heartbeat record with its index signature. */
export type WorkersStatus = {
  running: boolean;
  lastError: string | undefined;
  completedJobs: number;
  failedJobs: number;
};

export interface WorkersHandle {
  status(): WorkersStatus;
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}

type JobProcessor = (data: unknown, deps: EmailJobDeps) => Promise<EmailJobResult>;

const processors: ReadonlyArray<{ queue: string; process: JobProcessor }> = [
  { queue: WELCOME_EMAIL_QUEUE, process: sendWelcomeEmail },
  { queue: PASSWORD_RESET_EMAIL_QUEUE, process: sendPasswordResetEmail },
];

const MAX_CONCURRENCY = 100;

export function startWorkers(options: StartWorkersOptions): WorkersHandle {
  const concurrency = options.concurrency ?? 5;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new Error(`Worker concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
  }
  const logger = options.logger ?? consoleLogger;
  const deps: EmailJobDeps = {
    store: options.store,
    mailer: options.mailer,
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    appSecret: options.appSecret,
    clock: options.clock ?? systemClock,
    logger,
  };
  const connection: ConnectionOptions = typeof options.connection === 'string' ? { url: options.connection } : options.connection;
  let lastError: string | undefined;
  let completedJobs = 0;
  let failedJobs = 0;
  let closed = false;

  const workers = processors.map(({ queue, process }) => {
    const worker = new Worker(queue, (job) => process(job.data, deps), {
      connection,
      prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX,
      concurrency,
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

  let closing: Promise<void> | undefined;
  return {
    status: () => ({ running: !closed && workers.every((worker) => worker.isRunning()), lastError, completedJobs, failedJobs }),
    close() {
      closed = true;
      closing ??= Promise.all(workers.map((worker) => worker.close())).then(() => undefined);
      return closing;
    },
  };
}

/**
 * Adds dispatched jobs to their BullMQ queues under deterministic ids. An id BullMQ still knows
 * is left alone; an id it forgot runs again, which the jobs make harmless by checking the log.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { dispatchedJobOptions } from '../jobs.js';
import type { PendingJob } from '../job/dispatch-rule.js';

const ADD_BULK_SIZE = 500;

export class Enqueuer {
  readonly #queues = new Map<string, Queue>();
  #enqueued = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: (message: string) => void,
  ) {}

  /** Jobs handed to BullMQ so far (including ids it already knew). */
  get enqueued(): number {
    return this.#enqueued;
  }

  async enqueue(jobs: readonly PendingJob[]): Promise<void> {
    for (let start = 0; start < jobs.length; start += ADD_BULK_SIZE) {
      const chunk = jobs.slice(start, start + ADD_BULK_SIZE);
      for (const queueName of new Set(chunk.map((job) => job.queue))) {
        const jobsOfQueue = chunk.filter((job) => job.queue === queueName);
        await this.#queue(queueName).addBulk(jobsOfQueue.map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.jobId } })));
      }
      this.#enqueued += chunk.length;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
  }

  #queue(name: string): Queue {
    let queue = this.#queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.redis, prefix: this.prefix, defaultJobOptions: dispatchedJobOptions });
      queue.on('error', (error) => this.onError(`queue ${name}: ${error.message}`));
      this.#queues.set(name, queue);
    }
    return queue;
  }
}

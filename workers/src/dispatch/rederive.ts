/**
 * Re-derives open work after Redis lost the dispatcher's state: scans the whole log in bounded
 * pages and enqueues the requests that have no completion event (see OpenWork for the bound).
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import { OpenWork } from './open-work.js';
import type { DispatchRule, PendingJob } from '../job/dispatch-rule.js';

export interface RederiveOptions {
  store: EventStore;
  rules: readonly DispatchRule[];
  scanPageSize: number;
  maxOpenJobs: number;
  enqueue(jobs: readonly PendingJob[]): Promise<void>;
  /** Reads the jobs an event asks for, reporting (and passing over) a malformed request. */
  read(event: RecordedEvent, observe: (event: RecordedEvent) => PendingJob[]): PendingJob[];
  signal: AbortSignal;
}

export interface RederiveReport {
  /** Last position scanned; undefined when the log is empty. */
  after: bigint | undefined;
  scannedEvents: number;
  enqueuedJobs: number;
}

export async function rederiveOpenWork(options: RederiveOptions): Promise<RederiveReport> {
  const work = new OpenWork(options.rules, options.maxOpenJobs);
  let after: bigint | undefined;
  let scannedEvents = 0;
  let enqueuedJobs = 0;
  for (;;) {
    if (options.signal.aborted) throw new Error('The dispatcher closed during the scan');
    const page = await options.store.readAll({ after, maxCount: options.scanPageSize });
    for (const event of page) {
      const overflow = options.read(event, (e) => work.observe(e));
      await options.enqueue(overflow);
      enqueuedJobs += overflow.length;
    }
    scannedEvents += page.length;
    after = page.at(-1)?.position ?? after;
    if (page.length < options.scanPageSize) break;
  }
  const open = work.drain();
  await options.enqueue(open);
  return { after, scannedEvents, enqueuedJobs: enqueuedJobs + open.length };
}

/**
 * Every BullMQ queue Quern has, whichever process consumes it: the metrics report each one's
 * waiting, active, delayed and failed jobs, so work that no process takes (a queue whose worker
 * is not running anywhere) shows as a growing backlog instead of staying invisible.
 */
import { jobModules } from './job-modules.js';

/** One queue per job module, so a job cannot run without its queue being watched. */
export const ALL_QUEUES: readonly string[] = jobModules.map((module) => module.queue);

/** The queues of `named` missing from ALL_QUEUES: a queue named with no job module in the list. */
export const unlistedQueues = (named: readonly string[]): string[] => named.filter((queue) => !ALL_QUEUES.includes(queue));

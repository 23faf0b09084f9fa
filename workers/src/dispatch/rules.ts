/**
 * The dispatch rules of every job, from the job list (job-modules.ts): which event asks for which
 * job, and which event records it as done. Each job folder declares its own rules (its rules.ts,
 * built on job/dispatch-rule.ts) and registers them in its module.ts. The job id is derived from
 * the request alone, so the same request always maps to the same job, whether it is enqueued live,
 * again after a restart, or re-derived after Redis was lost.
 */
import type { DispatchRule } from '../job/dispatch-rule.js';
import { jobModules } from '../job-modules.js';

export const dispatchRules: readonly DispatchRule[] = jobModules.flatMap((module) => module.rules);

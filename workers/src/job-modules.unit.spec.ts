// Proves the job list is whole and consistent: one module per queue, each module's rules ask for its own queue, and only the jobs that need the millix network, PayPal or the subscriptions read model stay off without them.
import { describe, expect, it } from 'vitest';
import type { WorkerContext } from './job/worker-context.js';
import { jobModules } from './job-modules.js';

/** A context as far as the modules read it while building processors: which parts the process has. */
const contextWith = (has: boolean): WorkerContext =>
  ({
    email: {},
    webhookDelivery: {},
    network: has ? { port: {} } : undefined,
    purchases: has ? { deps: {}, creditGraceMs: 0 } : undefined,
    planSubscriptions: has ? {} : undefined,
  }) as unknown as WorkerContext;

const queuesRunning = (context: WorkerContext) =>
  jobModules.filter((module) => module.processor(context) !== undefined).map((m) => m.queue);

describe('the job list', () => {
  it('given every module, when their queues are read, then each queue has exactly one module', () => {
    const queues = jobModules.map((module) => module.queue);
    expect(new Set(queues).size).toBe(queues.length);
  });

  it('given every module, when its rules are read, then each rule asks for its own queue and it has at least one', () => {
    for (const module of jobModules) {
      expect(module.rules.length, module.queue).toBeGreaterThan(0);
      expect(new Set(module.rules.map((rule) => rule.queue)), module.queue).toEqual(new Set([module.queue]));
    }
  });

  it('given a process with everything, when processors are built, then every queue runs', () => {
    expect(queuesRunning(contextWith(true))).toEqual(jobModules.map((module) => module.queue));
  });

  it('given a process without network, PayPal or subscriptions read model, when processors are built, then exactly their jobs do not run', () => {
    const running = new Set(queuesRunning(contextWith(false)));
    const off = jobModules.map((module) => module.queue).filter((queue) => !running.has(queue));
    expect(off.sort()).toEqual(['deposit-confirmation', 'plan-price-notice', 'purchase-capture', 'purchase-credit', 'settlement']);
  });
});

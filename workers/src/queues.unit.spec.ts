// ALL_QUEUES comes from the job list: every queue a job module names (its `*_QUEUE` constant) must
// be in it, so a queue with no module in job-modules.ts (whose backlog the metrics would never
// show, and which no worker would consume) fails here.
import { describe, expect, it } from 'vitest';
import { ALL_QUEUES, unlistedQueues } from './queues.js';

/** Every module that names a queue: the jobs' payload modules and the e-mail jobs' shared one. */
const modules = (
  import.meta as unknown as { glob(patterns: string[], options: { eager: true }): Record<string, Record<string, unknown>> }
).glob(['./*/payload.ts', './jobs.ts'], { eager: true });

describe('ALL_QUEUES', () => {
  it('lists every queue a job module names', () => {
    const named = Object.values(modules).flatMap((exports) =>
      Object.entries(exports)
        .filter(([name, value]) => name.endsWith('_QUEUE') && typeof value === 'string')
        .map(([, value]) => value as string),
    );
    expect(named.length).toBeGreaterThanOrEqual(16);
    expect(unlistedQueues(named)).toEqual([]);
    expect(new Set(ALL_QUEUES).size).toBe(ALL_QUEUES.length);
  });

  it('names the processed queues it lacks', () => {
    expect(unlistedQueues(['welcome-email', 'made-up-queue'])).toEqual(['made-up-queue']);
  });
});

import { defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './test-support/test-workers.js';

// Three projects: pure unit tests (node), web component tests (jsdom), and integration tests
// that talk to real SQLite, Redis and SMTP. The integration project's global setup makes sure
// a Redis answers (starting a private redis-server when none does) and exports REDIS_URL.
export default defineConfig({
  test: {
    // A Redis given in REDIS_URL is shared, so its specs run one at a time (test-support/global-setup.ts).
    maxWorkers: process.env.REDIS_URL ? 1 : TEST_WORKERS,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{core,adapters,projections,workers,api}/src/**/*.unit.spec.ts', 'test-support/**/*.unit.spec.ts'],
          environment: 'node',
          // Pure functions over plain values: no spec mocks a module, stubs a global or sets the
          // environment, so the files of one worker share one module graph instead of importing
          // core again for each of 140 files (import was two thirds of this project's CPU; ADR 086).
          isolate: false,
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.unit.spec.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{core,adapters,projections,workers,api}/src/**/*.int.spec.ts', 'bench/**/*.int.spec.ts'],
          environment: 'node',
          globalSetup: ['test-support/global-setup.ts'],
          setupFiles: ['test-support/worker-redis.ts'],
          // The servers these tests start log one JSON line per request at info (ADR 052); only
          // trouble is worth reading here. LOG_LEVEL=info npx vitest ... shows everything.
          env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

// Three projects: pure unit tests (node), web component tests (jsdom), and integration tests
// that talk to real SQLite, Redis and SMTP. The integration project's global setup makes sure
// a Redis answers (starting a private redis-server when none does) and exports REDIS_URL.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{core,adapters,projections,workers,api}/src/**/*.unit.spec.ts', 'test-support/**/*.unit.spec.ts'],
          environment: 'node',
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

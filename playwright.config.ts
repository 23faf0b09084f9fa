import { defineConfig } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '@quern/test-support/chromium';

/**
 * Browser tests of the built app against a real Quern process. web/e2e/global-setup.ts builds
 * the web app, starts Quern (and a private Redis when REDIS_URL is unset) on a free port and
 * exports its address as QUERN_E2E_BASE_URL; this file is read again in each worker, after that.
 */
export default defineConfig({
  testDir: 'web/e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: 'test-results/playwright',
  globalSetup: './web/e2e/global-setup.ts',
  // After the server stopped: no secret the specs created is in its log (ADR 052).
  globalTeardown: './web/e2e/global-teardown.ts',
  // One shared server on a 2-core machine: a little parallelism, bounded.
  workers: 2,
  fullyParallel: true,
  forbidOnly: true,
  // A test that fails once and passes on its retry is reported as flaky in the list and counted
  // apart in the JSON report; one retry keeps a loaded CI machine from failing the run on a
  // timing fluke while a real fault still fails twice (ADR 061).
  retries: 1,
  // Journeys with two users, screenshots and axe take 15-25 s on a quiet 2-core machine and up to
  // twice that on a loaded one.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.QUERN_E2E_BASE_URL,
    browserName: 'chromium',
    screenshot: 'only-on-failure',
    // A trace is recorded on the retry of a failed test, not on every test: recording one for all
    // 300 tests cost about a tenth of the suite's CPU, and a real fault fails its retry too, with
    // the trace (ADR 070).
    trace: 'on-first-retry',
    launchOptions: {
      // Debian's chromium; never `playwright install` (see docs/CONVENTIONS.md).
      executablePath: chromiumPath,
      args: [...chromiumFlags],
    },
  },
});

/**
 * Integration-test setup file, run in each worker before a spec loads: points REDIS_URL at this
 * worker's own private Redis (global-setup.ts starts one per worker), so one spec's FLUSHALL or
 * queue never reaches a spec running beside it.
 */
const urls = process.env.QUERN_TEST_REDIS_URLS?.split(',').filter(Boolean) ?? [];
if (urls.length > 0) {
  // Vitest numbers its workers 1..maxWorkers.
  const worker = Math.max(1, Number(process.env.VITEST_POOL_ID ?? '1'));
  process.env.REDIS_URL = urls[(worker - 1) % urls.length];
}

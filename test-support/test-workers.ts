/**
 * How many test files Vitest runs at once. Most integration files wait on processes, sockets and
 * timers rather than on the CPU, so two run side by side even on a 2-core machine; each worker
 * gets a Redis of its own (global-setup.ts, worker-redis.ts), because projection specs reset
 * theirs with FLUSHALL.
 */
export const TEST_WORKERS = 2;

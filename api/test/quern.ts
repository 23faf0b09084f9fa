/**
 * A whole Quern (api, projections, workers) for integration tests: a fresh data directory, its
 * own private Redis, a free port. Nothing is shared with other test files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '@quern/core';
import { startPrivateRedis } from '@quern/test-support/redis';
import { loadConfig } from '../src/config.js';
import { startQuern, type RunningQuern } from '../src/main.js';

/** Tests read response bodies field by field and assert on them; the shape is what is under test. */
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body whose shape the assertions check.
type JsonBody = any;

export interface TestQuern extends RunningQuern {
  url: string;
  dataDir: string;
  /** The private Redis this Quern uses (tests read BullMQ's job states there). */
  redisUrl: string;
  /** JSON request helper: returns status, parsed body, Set-Cookie and all the headers. */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; cookie?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: JsonBody; setCookie: string | null; headers: Headers }>;
}

export async function startTestQuern(env: Record<string, string> = {}, options: { ledgerClock?: Clock } = {}): Promise<TestQuern> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quern-test-'));
  const redis = await startPrivateRedis();
  // LOG_LEVEL: the test run's (vitest.config.ts makes it warn), unless a test sets its own.
  const logLevel = process.env.LOG_LEVEL ? { LOG_LEVEL: process.env.LOG_LEVEL } : {};
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    REDIS_URL: redis.url,
    ...logLevel,
    ...env,
  });
  const running = await startQuern(config, { api: true, projections: true, workers: true, ...options });
  const url = running.url as string;
  return {
    ...running,
    url,
    dataDir,
    redisUrl: redis.url,
    async call(method, path, options = {}) {
      const response = await fetch(url + path, {
        method,
        headers: {
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: the test sees the text.
      }
      return { status: response.status, body, setCookie: response.headers.get('set-cookie'), headers: response.headers };
    },
    async stop() {
      await running.stop();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The `name=value` part of a Set-Cookie header, for sending back. */
export const cookieOf = (setCookie: string | null): string => (setCookie ?? '').split(';')[0] ?? '';

/** Polls until check() returns a value, or fails after timeoutMs. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

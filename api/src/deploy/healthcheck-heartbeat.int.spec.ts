// The container health check of projections and workers (scripts/healthcheck-heartbeat.mjs), run
// as Docker runs it against a real Redis: healthy only while every named part's heartbeat is there
// and says running. A runner that gave up keeps beating `{ running: false, lastError }`
// (api/src/infra/heartbeat.ts), which /healthz counts as down, and so must the container.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const script = join(repoRoot, 'scripts/healthcheck-heartbeat.mjs');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl);
const PARTS = ['workers', 'dispatcher', 'deposits'];

const check = (...parts: string[]) =>
  spawnSync(process.execPath, [script, ...parts], { cwd: repoRoot, env: { ...process.env, REDIS_URL: redisUrl }, encoding: 'utf8' });
const beat = (part: string, status: object) => redis.set(`quern:heartbeat:${part}`, JSON.stringify(status), 'PX', 60_000);

describe('healthcheck-heartbeat', () => {
  beforeEach(async () => {
    await redis.del(...PARTS.map((part) => `quern:heartbeat:${part}`));
  });
  afterAll(async () => {
    await redis.del(...PARTS.map((part) => `quern:heartbeat:${part}`));
    redis.disconnect();
  });

  it('given every named part beating running: true, then it exits 0', async () => {
    for (const part of PARTS) await beat(part, { running: true });
    expect(check(...PARTS).status).toBe(0);
  });

  it('given one part beating running: false after it gave up, then it exits 1 naming the part and its error', async () => {
    for (const part of PARTS) await beat(part, { running: true });
    await beat('dispatcher', { running: false, lastError: 'stopping after 10 failed attempts' });
    const result = check(...PARTS);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('dispatcher');
    expect(result.stderr).toContain('stopping after 10 failed attempts');
  });

  it('given one named part with no heartbeat, then it exits 1', async () => {
    await beat('workers', { running: true });
    await beat('deposits', { running: true });
    const result = check(...PARTS);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('dispatcher');
  });

  it('given no part name or a name that is not a part name, then it exits 2 without asking Redis', () => {
    expect(check().status).toBe(2);
    expect(check('workers', 'quern:*').status).toBe(2);
  });
});

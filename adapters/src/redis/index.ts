/**
 * Finds the Redis Quern uses. REDIS_URL wins; otherwise a Redis on 127.0.0.1:6379; otherwise a
 * private redis-server started with its data under DATA_DIR, installed first with apt-get when it
 * is missing and this process may (as the test set-up does, runtime/debian-package.ts); otherwise
 * a message saying how to get Redis, because nothing in Quern works without it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { type DebianPackage, ensureDebianPackage, type InstallOptions } from '../runtime/debian-package.js';
import { log } from '../runtime/logger.js';

/** Debian's redis-server: what `npm start` and the test set-up install when it is missing. */
export const REDIS_SERVER_PACKAGE: DebianPackage = {
  binary: 'redis-server',
  packageName: 'redis-server',
  otherwise: 'macOS: brew install redis; or set REDIS_URL to a Redis you run',
};

export interface RedisEndpoint {
  url: string;
  /** Set when Quern started its own redis-server; stop() ends it. */
  stop?: () => Promise<void>;
}

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 6379;
const START_TIMEOUT_MS = 10_000;

export function redisAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket();
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('error', () => finish(false));
    socket.connect(port, host, () => socket.write('PING\r\n'));
    socket.once('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, DEFAULT_HOST, () => server.close(() => done(true)));
  });
}

export async function resolveRedis(options: { redisUrl?: string; dataDir: string; install?: InstallOptions }): Promise<RedisEndpoint> {
  if (options.redisUrl) return { url: options.redisUrl };
  if (await redisAnswers(DEFAULT_HOST, DEFAULT_PORT)) return { url: `redis://${DEFAULT_HOST}:${DEFAULT_PORT}` };
  try {
    // One JSON line like every other line on stdout (ADR 052), not a bare text line among them.
    ensureDebianPackage(REDIS_SERVER_PACKAGE, { log: (line) => log.info({ part: 'redis' }, line), ...options.install });
  } catch (error) {
    throw new Error(`Quern needs Redis. None answers on 127.0.0.1:6379, and ${error instanceof Error ? error.message : String(error)}`);
  }
  // Port 6379 is busy with something that is not Redis, or free: use it only when free.
  const port = (await portIsFree(DEFAULT_PORT)) ? DEFAULT_PORT : 6390;
  const dir = resolve(options.dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const child: ChildProcess = spawn(
    'redis-server',
    ['--bind', DEFAULT_HOST, '--port', String(port), '--dir', dir, '--appendonly', 'yes', '--logfile', join(dir, 'redis.log')],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await redisAnswers(DEFAULT_HOST, port))) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`Could not start redis-server on port ${port} (see ${dir}/redis.log)`);
    await new Promise((r) => setTimeout(r, 50));
  }
  log.info({ part: 'redis', port, dir }, 'started a private redis-server');
  return {
    url: `redis://${DEFAULT_HOST}:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export function connectRedis(url: string, name: string): Redis {
  // BullMQ requires maxRetriesPerRequest null on the connections it uses; sessions share it.
  return new Redis(url, { connectionName: `quern-${name}`, maxRetriesPerRequest: null, lazyConnect: false });
}

/**
 * Redis for tests: use the one that answers, or start a private redis-server. Tests that must
 * flush Redis (FLUSHALL) start their own private server so they cannot disturb other test files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { REDIS_SERVER_PACKAGE } from '@quern/adapters/redis';
import { ensureDebianPackage } from '@quern/adapters/runtime';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** Resolves true when something at host:port answers PING with PONG within the timeout. */
export function redisAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Installs Debian's redis-server when the binary is missing, as `npm start` does (adapters/src/runtime/debian-package.ts). */
export function ensureRedisBinary(): void {
  ensureDebianPackage(REDIS_SERVER_PACKAGE, { log: (line) => console.log(`[test setup] ${line}`) });
}

/** Starts a private, non-persistent redis-server on a free loopback port. */
export async function startPrivateRedis(): Promise<RedisServer> {
  ensureRedisBinary();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'quern-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!(await redisAnswers('127.0.0.1', port))) {
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Proves that sends survive crashes: Quern runs as a child process that is killed with SIGKILL
// at random moments while sends stream in (20 times). After each restart every acknowledged
// send is in the log exactly once, unacknowledged ones retried with their Idempotency-Key are
// never doubled, every reservation ends posted or voided, and the audit passes.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { auditLog, fundFromReserve } from '../../test/ledger.js';
import { cookieOf, eventually } from '../../test/quern.js';

const KILLS = 20;
const SENDERS = 4;
const root = new URL('../../../', import.meta.url).pathname;

let redis: RedisServer;
let dataDir: string;
let port: number;
let child: ChildProcess | undefined;

async function startQuernProcess(): Promise<void> {
  child = spawn(process.execPath, ['--import', 'tsx', 'api/src/bin/quern.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REDIS_URL: redis.url,
      NODE_ENV: 'test',
      REGISTRATIONS_PER_IP_HOUR: '1000',
    },
    stdio: 'ignore',
  });
  await eventually(async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    return response?.status === 200 ? true : undefined;
  }, 60_000);
}

async function kill(): Promise<void> {
  const running = child;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGKILL');
  await exited;
}

async function call(method: string, path: string, cookie: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  dataDir = mkdtempSync(join(tmpdir(), 'quern-crash-'));
  port = await freePort();
  await startQuernProcess();
}, 120_000);

afterAll(async () => {
  await kill();
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it(`keeps every acknowledged send exactly once across ${KILLS} kill -9 restarts`, async () => {
  const base = `http://127.0.0.1:${port}`;
  const user = {
    userName: 'crash_payer',
    firstName: 'C',
    lastName: 'P',
    email: 'crash@example.com',
    phone: '+15550001111',
    password: 'long enough secret',
  };
  const payee = { ...user, userName: 'crash_payee', email: 'payee@example.com', phone: '+15550002222' };
  for (const u of [user, payee])
    await fetch(`${base}/api/user/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(u) });
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const cookie = cookieOf(login.headers.get('set-cookie'));
  const { address } = (await call('GET', '/api/millix/address', cookie)).body as { address: string };
  {
    // Fund through a second handle on the same log, as another process would.
    const store = openSqliteEventStore({ file: join(dataDir, 'events.sqlite') });
    await fundFromReserve(store, address, 10_000_000n);
    await store.close();
  }

  const acknowledged = new Map<string, string>(); // idempotency key -> transfer id
  const unacknowledged = new Set<string>();
  for (let round = 0; round < KILLS; round++) {
    let stop = false;
    const senders = Array.from({ length: SENDERS }, async () => {
      while (!stop) {
        const key = randomUUID();
        unacknowledged.add(key);
        try {
          const sent = await call(
            'POST',
            '/api/millix/send',
            cookie,
            { to: payee.userName, amount: '7', fee: '1000' },
            { 'idempotency-key': key },
          );
          if (sent.status === 200) {
            acknowledged.set(key, sent.body.transferId as string);
            unacknowledged.delete(key);
          } else {
            // 429: too many sends pending settlement; a polite client waits.
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        } catch {
          return; // the process died under us: this request stays unacknowledged
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.floor(Math.random() * 500)));
    await kill();
    stop = true;
    await Promise.all(senders);
    await startQuernProcess();
    // Retrying an unacknowledged send with its key never makes a second transfer.
    for (const key of [...unacknowledged]) {
      const retry = () =>
        call('POST', '/api/millix/send', cookie, { to: payee.userName, amount: '7', fee: '1000' }, { 'idempotency-key': key });
      // Back-pressure (429) while the restarted workers take over stalled settlements: wait, bounded.
      const retried = await eventually(async () => {
        const response = await retry();
        return response.status === 429 ? undefined : response;
      }, 60_000);
      expect(retried.status).toBe(200);
      acknowledged.set(key, retried.body.transferId as string);
      unacknowledged.delete(key);
    }
  }
  expect(acknowledged.size).toBeGreaterThan(KILLS);

  const store = openSqliteEventStore({ file: join(dataDir, 'events.sqlite') });
  try {
    const audit = await eventually(async () => {
      const result = await auditLog(store);
      return result.transfers.open === 0 ? result : undefined;
    }, 120_000);
    for (const transferId of acknowledged.values()) expect(audit.reservedTransferIds.get(transferId)).toBe(1);
    expect(new Set(acknowledged.values()).size).toBe(acknowledged.size);
    expect([...audit.reservedTransferIds.values()].every((count) => count === 1)).toBe(true);
    expect(audit.violations).toEqual([]);
    expect(audit.ledgerTotalMlx).toBe(audit.mintedMlx);
  } finally {
    await store.close();
  }
}, 600_000);

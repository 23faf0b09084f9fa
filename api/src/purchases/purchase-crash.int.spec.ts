// Proves that a crash between a purchase's capture and its credit ends with exactly one credit: Quern runs as a child process that is killed with SIGKILL right after PurchaseCaptured is in the log (and again right after its restart, that time losing Redis too), and once restarted the log holds one credit, one reserve transfer and one receipt e-mail, the browser's late claim is refused, and both the in-process audit and `npm run audit` are clean.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteEventStore } from '@quern/adapters/eventstore';
import { purchaseStream } from '@quern/core/purchases';
import { freePort, startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { verificationTokenInText } from '@quern/test-support/eml';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog } from '../../test/ledger.js';
import { cookieOf, eventually } from '../../test/quern.js';

/** Long enough that the kills below come before the credit, short enough to wait out. */
const GRACE_MS = 8_000;
const ORDER_MLX = '800000';
const root = new URL('../../../', import.meta.url).pathname;

let redis: RedisServer;
let smtp: TestSmtpServer;
let dataDir: string;
let port: number;
let child: ChildProcess | undefined;

/** The embedded set-up (SQLite log in DATA_DIR, the local PayPal server), whatever the outer environment says. */
function env(): NodeJS.ProcessEnv {
  const vars: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    REDIS_URL: redis.url,
    SMTP_URL: smtp.url,
    NODE_ENV: 'test',
    REGISTRATIONS_PER_IP_HOUR: '1000',
    PURCHASE_CREDIT_GRACE_MS: String(GRACE_MS),
    PURCHASE_SWEEP_INTERVAL_MS: '1000',
  };
  delete vars.EVENTSTORE_URL;
  delete vars.PAYPAL_ENV;
  return vars;
}

async function startQuernProcess(): Promise<void> {
  child = spawn(process.execPath, ['--import', 'tsx', 'api/src/bin/quern.ts'], { cwd: root, env: env(), stdio: 'ignore' });
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

async function call(method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json', cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body whose shape the assertions check.
  return { status: response.status, body: (await response.json()) as any };
}

/** The order's events, read through a second handle on the log, as another process would. */
async function purchaseEvents(orderId: string): Promise<string[]> {
  const store = openSqliteEventStore({ file: join(dataDir, 'events.sqlite') });
  try {
    return (await store.readStream(purchaseStream(orderId))).map((event) => event.type);
  } finally {
    await store.close();
  }
}

function runAuditCli(): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'api/src/bin/audit.ts')],
      { cwd: root, env: env(), timeout: 60_000 },
      (error, stdout) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout }),
    );
  });
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  smtp = await startTestSmtpServer();
  dataDir = mkdtempSync(join(tmpdir(), 'quern-purchase-crash-'));
  port = await freePort();
  await startQuernProcess();
}, 120_000);

afterAll(async () => {
  await kill();
  await smtp?.stop();
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('given a Quern killed (twice) after PurchaseCaptured and before the credit, when restarted, then the order is credited exactly once', async () => {
  const base = `http://127.0.0.1:${port}`;
  const buyer = {
    userName: 'crash_buyer',
    firstName: 'Cora',
    lastName: 'Buyer',
    email: 'crash-buyer@example.com',
    phone: '+15550003333',
    password: 'long enough secret',
  };
  await fetch(`${base}/api/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(buyer),
  });
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: buyer.email, password: buyer.password }),
  });
  const cookie = cookieOf(login.headers.get('set-cookie'));
  // The receipt goes only to a proven address (ADR 046): the buyer opens the welcome mail's link.
  const token = await eventually(() =>
    smtp.received
      .filter((mail) => mail.envelopeTo.includes(buyer.email))
      .map((mail) => verificationTokenInText(mail.parsed.text))
      .find(Boolean),
  );
  const verified = await fetch(`${base}/api/user/email/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(verified.status).toBe(200);
  const created = await call('POST', '/api/paypal/orders', cookie, { cart: { value: '10.00' } });
  expect(created.status).toBe(200);
  const orderId = created.body.id as string;
  const approved = await fetch(`${base}/paypal-local/checkoutnow/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ token: orderId }),
  });
  expect(approved.status).toBe(200);

  // The capture answers once PurchaseCaptured is in the log; the browser then "goes away" with the process.
  const captured = await call('POST', `/api/paypal/orders/${orderId}/capture`, cookie);
  expect(captured.body.status).toBe('COMPLETED');
  const captureId = captured.body.purchase_units[0].payments.captures[0].id as string;
  await kill();
  expect(await purchaseEvents(orderId)).toEqual(['PurchaseOrdered', 'PurchaseCaptureRequested', 'PurchaseCaptured']);

  // Killed again as soon as it is back, with the credit job waiting out its grace; this time Redis
  // loses everything too (queues, checkpoints, sessions), so the credit must be re-derived from the log.
  await startQuernProcess();
  await kill();
  const flush = new Redis(redis.url);
  await flush.flushall();
  flush.disconnect();
  await startQuernProcess();

  await eventually(async () => ((await purchaseEvents(orderId)).includes('PurchaseReceiptSent') ? true : undefined), 60_000);
  const events = await purchaseEvents(orderId);
  expect(events.filter((type) => type === 'PurchaseCaptured')).toHaveLength(1);
  expect(events.filter((type) => type === 'PurchaseCredited')).toHaveLength(1);
  expect(smtp.received.filter((mail) => mail.envelopeTo.includes(buyer.email) && mail.parsed.subject.includes('receipt'))).toHaveLength(1);

  // The browser's late claim (signed in again: the sessions went with Redis) finds the credit made.
  const relogin = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: buyer.email, password: buyer.password }),
  });
  const claim = await call('POST', '/api/reserve/transfer', cookieOf(relogin.headers.get('set-cookie')), {
    id: captureId,
    amount: ORDER_MLX,
  });
  expect(claim.status).toBe(409);

  const store = openSqliteEventStore({ file: join(dataDir, 'events.sqlite') });
  try {
    const audit = await auditLog(store);
    expect(audit.violations).toEqual([]);
    expect(audit.ledgerTotalMlx).toBe(audit.mintedMlx);
    expect(audit.reservedTransferIds.get(`purchase-${captureId}`)).toBe(1);
    expect(audit.purchases).toMatchObject({ captured: 1, credited: 1, creditedMlx: BigInt(ORDER_MLX) });
  } finally {
    await store.close();
  }
  const cli = await runAuditCli();
  expect(cli.code).toBe(0);
  expect(cli.stdout).toContain('purchases: 1 ordered, 1 captured, 1 credited (800,000 MLX from the reserve)');
}, 300_000);

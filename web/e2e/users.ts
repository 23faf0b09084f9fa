/** Test users: unique on every call, so tests can run in parallel against one server. */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type APIRequestContext, request } from '@playwright/test';

export interface TestUser {
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
}

let sequence = 0;

export function uniqueUser(): TestUser {
  sequence += 1;
  const suffix = `${Date.now().toString(36)}${process.pid.toString(36)}${sequence}`;
  // Seven digits after +1555 derived from the time, the process and the sequence keep phones unique.
  const phoneDigits = String((Date.now() * 7 + process.pid * 131 + sequence) % 10_000_000).padStart(7, '0');
  return {
    userName: `e2e_${suffix}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `e2e-${suffix}@example.com`,
    phone: `+1555${phoneDigits}`,
    password: 'correct horse battery',
  };
}

/** Registers through the spec's REST call (POST /api/user/register), bypassing the form. */
export async function registerByApi(request: APIRequestContext, user: TestUser): Promise<void> {
  const response = await request.post('/api/user/register', { data: user });
  if (!response.ok()) throw new Error(`register answered ${response.status()}: ${await response.text()}`);
}

/** Signs in through POST /api/user/login; the session cookie lands in the request's context. */
export async function loginByApi(request: APIRequestContext, user: TestUser): Promise<void> {
  const response = await request.post('/api/user/login', { data: { email: user.email, password: user.password } });
  if (!response.ok()) throw new Error(`login answered ${response.status()}: ${await response.text()}`);
}

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runFile = promisify(execFile);
const quernUrl = () => process.env.QUERN_E2E_BASE_URL ?? '';

/** A new user, registered and signed in on an API context of their own. */
export async function apiUser(): Promise<{ user: TestUser; api: APIRequestContext }> {
  const user = uniqueUser();
  const api = await request.newContext({ baseURL: quernUrl() });
  await registerByApi(api, user);
  await loginByApi(api, user);
  return { user, api };
}

/** A tRPC query's data, or an error naming the procedure and the answer. */
export async function trpcQuery<T>(api: APIRequestContext, path: string): Promise<T> {
  const response = await api.get(`/trpc/${path}`);
  if (!response.ok()) throw new Error(`${path} answered ${response.status()}: ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** Deposits MLX to an address through the dev faucet, against the e2e Quern's data dir. */
export async function faucet(to: string, amountMlx: number): Promise<void> {
  const dataDir = process.env.QUERN_E2E_DATA_DIR;
  if (!dataDir) throw new Error('QUERN_E2E_DATA_DIR is not set: run through playwright (web/e2e/global-setup.ts)');
  await runFile(process.execPath, ['--import', 'tsx', 'api/src/bin/faucet.ts', '--to', to, '--amount', String(amountMlx)], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, MILLIX_CONFIRM_DELAY_MS: process.env.QUERN_E2E_MILLIX_CONFIRM_DELAY_MS ?? '2000' },
    timeout: 60_000,
  });
}

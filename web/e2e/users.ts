/** Test users: unique on every call, so tests can run in parallel against one server. */
import type { APIRequestContext } from '@playwright/test';

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

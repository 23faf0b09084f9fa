/**
 * Registered, signed-in users for integration specs, through the spec's own calls (register,
 * login, address), and their API Direct keys: the merchant API's specs all start this way.
 */
import { expect } from 'vitest';
import { cookieOf, type TestQuern } from './quern.js';

export interface TestUser {
  id: string;
  name: string;
  email: string;
  cookie: string;
  address: string;
}

/** Phones must be unique within one Quern; a spec file has its own Quern and its own module. */
let registered = 0;

export async function registerUser(quern: TestQuern, name: string): Promise<TestUser> {
  const user = {
    userName: name,
    firstName: 'Test',
    lastName: 'User',
    email: `${name}@example.com`,
    phone: `+1555200${String(++registered).padStart(4, '0')}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  const cookie = cookieOf(login.setCookie);
  const { address } = (await quern.call('GET', '/api/millix/address', { cookie })).body as { address: string };
  return { id: login.body.id as string, name, email: user.email, cookie, address };
}

/** A new API Direct key for the user (the previous one stops working). */
export const generateApiKey = async (quern: TestQuern, user: Pick<TestUser, 'cookie'>): Promise<string> =>
  (await quern.call('POST', '/api/direct/key-generate', { cookie: user.cookie })).body.content.api_key as string;

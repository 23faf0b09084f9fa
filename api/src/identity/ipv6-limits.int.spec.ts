// Proves that per-address limits count an IPv6 client by its /64: a client behind a trusted proxy
// that rotates through addresses of its own prefix meets the registration and failed sign-in
// limits as one client, while a client of another /64 is not affected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuern, type TestQuern } from '../../test/quern.js';

let quern: TestQuern;
beforeAll(async () => {
  quern = await startTestQuern({ TRUST_PROXY: 'loopback', REGISTRATIONS_PER_IP_HOUR: '2', LOGIN_FAILURES_PER_IP: '3' });
});
afterAll(async () => quern?.stop());

const from = (address: string) => ({ 'x-forwarded-for': address });
const registration = (n: number) => ({
  userName: `v6_user_${n}`,
  firstName: 'V',
  lastName: 'Six',
  email: `v6_user_${n}@example.com`,
  phone: `+1555000${String(n).padStart(4, '0')}`,
  password: 'long enough secret',
});

describe('IPv6 clients are limited per /64', () => {
  it('refuses a third registration from a third address of the same /64, and takes one from another /64', async () => {
    const sameNetwork = ['2001:db8:aa:1::1', '2001:db8:aa:1::2', '2001:db8:aa:1:ffff::3'];
    const answers = [];
    for (const [i, address] of sameNetwork.entries())
      answers.push((await quern.call('POST', '/api/user/register', { body: registration(i), headers: from(address) })).status);
    expect(answers).toEqual([200, 200, 429]);
    const other = await quern.call('POST', '/api/user/register', { body: registration(9), headers: from('2001:db8:aa:2::1') });
    expect(other.status).toBe(200);
  });

  it('counts failed sign-ins from rotating addresses of one /64 together', async () => {
    const statuses = [];
    for (let i = 1; i <= 5; i++) {
      const wrong = { email: `nobody${i}@example.com`, password: 'not the password' };
      statuses.push((await quern.call('POST', '/api/user/login', { body: wrong, headers: from(`2001:db8:bb:1::${i}`) })).status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
  });
});

// Proves a server message that carries an amount writes it in the request's language over real HTTP (real SQLite and Redis): '300,000 MLX' in English, '300.000 MLX' in Spanish, on REST and tRPC alike, while the params stay wire digits for clients that format themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let payer: TestUser;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  payer = await registerUser(quern, 'format_payer');
  await registerUser(quern, 'format_payee');
});
afterAll(async () => {
  await quern?.stop();
});

// 299,000 MLX plus the 1,000 MLX fee: the refusal names 300,000 MLX needed, from an empty wallet.
const body = { to: 'format_payee', amount: '299000', fee: '1000' };

describe('amounts in server messages', () => {
  it.each([
    ['en', '300,000 MLX', '300.000'],
    ['es', '300.000 MLX', '300,000'],
  ])('given Accept-Language %s, when a send is refused for funds, then the message reads %s', async (language, amount, other) => {
    const rest = await quern.call('POST', '/api/millix/send', { cookie: payer.cookie, body, headers: { 'accept-language': language } });
    expect(rest.status).toBe(409);
    expect(rest.body).toMatchObject({ messageKey: 'errors:insufficientFunds', params: { requiredMlx: '300000', availableMlx: '0' } });
    expect(rest.body.message).toContain(amount);
    expect(rest.body.message).not.toContain(other);
    expect(rest.body.message).not.toContain('300000');

    const trpc = await quern.call('POST', '/trpc/wallet.send', { cookie: payer.cookie, body, headers: { 'accept-language': language } });
    expect(trpc.status).toBe(409);
    expect(trpc.body.error.data.appError.message).toContain(amount);
  });

  it('given an invalid amount, when refused, then the message is the whole-number one and nothing is formatted into it', async () => {
    const refused = await quern.call('POST', '/api/millix/send', {
      cookie: payer.cookie,
      body: { ...body, amount: '12,5' },
      headers: { 'accept-language': 'es' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual(expect.any(String));
    expect(refused.body.message).not.toContain('12,5');
  });
});

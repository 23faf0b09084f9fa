// Proves the dashboard's Receive (wallet.receive, issue 27, ADR 079) over real HTTP: it answers the
// caller's own address as a millix payment URI, with the amount asked for (typed as in the send form,
// grouped or not) or none for an empty field, and the URI's QR code as SVG markup; a fractional,
// zero, too large or unreadable amount, an extra field and a signed-out caller are refused with the
// send form's messages and statuses.
import { parsePaymentUri } from '@quern/core/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let user: TestUser;

const receive = (input: unknown, session: 'signed-in' | 'signed-out' = 'signed-in') =>
  quern.call(
    'GET',
    `/trpc/wallet.receive?input=${encodeURIComponent(JSON.stringify(input))}`,
    session === 'signed-in' ? { cookie: user.cookie } : {},
  );

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  user = await registerUser(quern, 'receive_user');
});
afterAll(async () => {
  await quern?.stop();
});

describe('wallet.receive', () => {
  it('given no amount or an empty one, then the bare address as a millix URI, with its QR code', async () => {
    for (const input of [{}, { amount: '' }]) {
      const answer = await receive(input);
      expect(answer.status, JSON.stringify(input)).toBe(200);
      const data = answer.body.result.data;
      expect(data.address).toBe(user.address);
      expect(data.payment_uri).toBe(`millix:${user.address}`);
      expect(data.qr_svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
      expect(data.qr_svg).not.toMatch(/<script|on\w+=/i);
    }
  });

  it('given an amount as the send form takes it, then the URI asks for it in whole MLX', async () => {
    for (const amount of ['12500', '12,500', '12.500', ' 12 500 ']) {
      const answer = await receive({ amount });
      expect(answer.status, amount).toBe(200);
      expect(answer.body.result.data.payment_uri, amount).toBe(`millix:${user.address}?amount=12500`);
      expect(parsePaymentUri(answer.body.result.data.payment_uri)).toEqual({
        ok: true,
        request: { address: user.address, amountMlx: 12_500n },
      });
    }
  });

  it("given an amount Send would refuse, then Send's message and nothing else", async () => {
    for (const [amount, messageKey] of [
      ['1.5', 'errors:invalidAmount'],
      ['0', 'errors:invalidAmount'],
      ['-3', 'errors:invalidAmount'],
      ['ten', 'errors:invalidAmount'],
      ['9000000000000000001', 'errors:amountTooLarge'],
    ] as const) {
      const answer = await receive({ amount });
      expect(answer.status, amount).toBe(400);
      expect(JSON.stringify(answer.body), amount).toContain(messageKey);
      expect(JSON.stringify(answer.body), amount).not.toContain('millix:');
    }
    expect((await receive({ amount: 5 })).status).toBe(400);
    expect((await receive({ amount: '5', label: 'x' })).status).toBe(400);
  });

  it('given no session, then 401 and no address', async () => {
    const answer = await receive({}, 'signed-out');
    expect(answer.status).toBe(401);
    expect(JSON.stringify(answer.body)).not.toContain('millix:');
  });
});

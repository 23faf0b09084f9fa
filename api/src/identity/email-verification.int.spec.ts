// Proves e-mail verification over real HTTP (ADR 046): whoever registers an address first cannot be paid through it until the link mailed to it is opened: a send (GET and POST /api/millix/send, tRPC wallet.send), a merchant payout and a checkout naming the unproven e-mail are refused with a message pointing to the username or the address, and move nothing; the link (from the welcome mail in the outbox) proves it once, a forged or reset token does not; more mails are refused past the hourly limit (429); no password-change notice goes to an unproven address; a reset link proves it too.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createResetToken, verifyEmailVerificationToken } from '@quern/core/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { generateApiKey, registerUser, verificationTokenMailedTo, verifyEmail, type TestUser } from '../../test/users.js';

const APP_SECRET = 'verification-spec-app-secret-0123456789abcdef';
let quern: TestQuern;
let payer: TestUser;

const REFUSAL =
  "This e-mail address has not been verified by its owner yet, so it cannot be paid. Send to the recipient's username or millix address instead.";

const stable = async (user: TestUser): Promise<bigint> =>
  BigInt((await quern.call('GET', `/api/millix/balance/${user.address}`, { cookie: user.cookie })).body.stable as string);

const eventsOf = async (userId: string, type: string) => (await quern.store.readStream(`user-${userId}`)).filter((e) => e.type === type);

const outboxFiles = (): string[] => {
  try {
    return readdirSync(join(quern.dataDir, 'outbox'));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  quern = await startTestQuern({ APP_SECRET, REGISTRATIONS_PER_IP_HOUR: '1000', API_KEY_REQUESTS_PER_MINUTE: '10000' });
  payer = await registerUser(quern, 'verify_payer');
  await fundFromReserve(quern.store, payer.address, 10_000_000n);
  await eventually(async () => ((await stable(payer)) === 10_000_000n ? true : undefined));
});
afterAll(async () => {
  await quern?.stop();
});

describe('an e-mail address nobody proved', () => {
  it('given a squatter registered with the address, when a send, a payout or a checkout names it, then each is refused with the message and nothing moves; by username it pays', async () => {
    const squatter = await registerUser(quern, 'verify_squatter', { verified: false });
    const before = await stable(payer);

    const byGet = await quern.call('GET', `/api/millix/send?to=${encodeURIComponent(squatter.email)}&amount=1000&fee=1000`, {
      cookie: payer.cookie,
      headers: { 'sec-fetch-site': 'same-origin', 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(byGet.status).toBe(400);
    expect(JSON.stringify(byGet.body)).toContain(REFUSAL);

    const byPost = await quern.call('POST', '/api/millix/send', {
      cookie: payer.cookie,
      body: { to: squatter.email, amount: '1000', fee: '1000' },
    });
    expect(byPost.status).toBe(400);
    expect(JSON.stringify(byPost.body)).toContain(REFUSAL);

    const byTrpc = await quern.call('POST', '/trpc/wallet.send', {
      cookie: payer.cookie,
      body: { to: squatter.email.toUpperCase(), amount: '1000', fee: '1000', idempotencyKey: 'verify-trpc-1' },
    });
    expect(byTrpc.status).toBe(400);
    expect(byTrpc.body.error.message).toBe(REFUSAL);

    const key = await generateApiKey(quern, payer);
    const payout = await quern.call('POST', '/api/v1/payouts', {
      body: { to: squatter.email, amount: '1000' },
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'verify-payout-1' },
    });
    expect(payout.status).toBe(400);
    expect(JSON.stringify(payout.body)).toContain(REFUSAL);

    const checkout = await quern.call('POST', '/api/quern/checkout', {
      cookie: payer.cookie,
      body: { cart: [{ name: 'Tea', price: '1000', quantity: 1 }], price: '1000', currency: 'mlx', to: squatter.email },
    });
    expect(checkout.status).toBe(400);
    expect(JSON.stringify(checkout.body)).toContain(REFUSAL);

    expect(await stable(payer)).toBe(before);
    expect(await stable(squatter)).toBe(0n);

    // The username and the address are the owner's own choice: they still pay.
    const byName = await quern.call('POST', '/api/millix/send', {
      cookie: payer.cookie,
      body: { to: squatter.name, amount: '1000', fee: '1000' },
    });
    expect(byName.status).toBe(200);
  });

  it('given the link of the welcome mail opened, then the address is proven once and can be paid by e-mail', async () => {
    const owner = await registerUser(quern, 'verify_owner', { verified: false });
    expect((await quern.call('POST', '/api/user/email/status', { cookie: owner.cookie })).body).toEqual({
      email: owner.email,
      verified: false,
    });
    const token = await verificationTokenMailedTo(quern, owner.email);
    expect(outboxFiles().some((file) => file.startsWith(`welcome-email-${owner.id}`))).toBe(true);
    expect(verifyEmailVerificationToken(APP_SECRET, token)?.userId).toBe(owner.id);

    // A reset token of the same ids, or a forged signature, proves nothing.
    const [userId, requestId] = token.split('.') as [string, string];
    const asReset = createResetToken(APP_SECRET, userId, requestId);
    expect((await quern.call('POST', '/api/user/email/verify', { body: { token: asReset } })).status).toBe(400);
    const forged = `${userId}.${requestId}.${'A'.repeat(43)}`;
    const refused = await quern.call('POST', '/api/user/email/verify', { body: { token: forged } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('This verification link is invalid or has expired. Sign in and ask for a new one.');
    expect(await eventsOf(owner.id, 'EmailVerified')).toHaveLength(0);

    expect((await quern.call('POST', '/trpc/identity.verifyEmail', { body: { token } })).status).toBe(200);
    expect((await quern.call('POST', '/api/user/email/verify', { body: { token } })).status).toBe(200);
    expect(await eventsOf(owner.id, 'EmailVerified')).toHaveLength(1);
    expect((await quern.call('POST', '/api/user/email/status', { cookie: owner.cookie })).body.verified).toBe(true);

    const paid = await quern.call('POST', '/api/millix/send', {
      cookie: payer.cookie,
      body: { to: owner.email, amount: '2000', fee: '1000' },
    });
    expect(paid.status).toBe(200);
    await eventually(async () => ((await stable(owner)) === 2000n ? true : undefined));
  });

  it('given more verification mails asked for, then past three an hour (the sign-up included) the answer is 429, and each one sent is mailed', async () => {
    const owner = await registerUser(quern, 'verify_resend', { verified: false });
    const resend = () => quern.call('POST', '/api/user/email/resend', { cookie: owner.cookie });
    expect((await resend()).status).toBe(200);
    expect((await quern.call('POST', '/trpc/identity.resendEmailVerification', { cookie: owner.cookie, body: {} })).status).toBe(200);
    const refused = await resend();
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many verification e-mails were sent in the last hour. Please try again later.');
    expect((await quern.call('POST', '/api/user/email/resend', {})).status).toBe(401);
    expect(await eventsOf(owner.id, 'EmailVerificationRequested')).toHaveLength(3);
    await eventually(async () => ((await eventsOf(owner.id, 'EmailVerificationEmailSent')).length === 2 ? true : undefined), 15_000);
    expect(outboxFiles().filter((file) => file.startsWith('email-verification-email-'))).toHaveLength(2);

    // The newest link proves the address; another mail is then nothing to ask for.
    await verifyEmail(quern, owner);
    expect((await resend()).body).toEqual({ email: owner.email, verified: true });
  });

  it('given an unproven address, when its password is changed on the profile, then no notice is mailed; a reset link proves the address', async () => {
    const owner = await registerUser(quern, 'verify_quiet', { verified: false });
    const changed = await quern.call('POST', `/api/user/update/${owner.id}`, {
      cookie: owner.cookie,
      body: { password: 'another long secret', current_password: 'long enough secret' },
    });
    expect(changed.status).toBe(200);
    // The change asked for its notice job; the job found the address unproven and sent nothing.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await eventsOf(owner.id, 'PasswordChangedEmailSent')).toHaveLength(0);
    expect(outboxFiles().filter((file) => file.startsWith('password-changed-email-'))).toHaveLength(0);

    expect((await quern.call('POST', '/api/user/password/reset', { body: { email: owner.email } })).status).toBe(200);
    const [request] = await eventually(async () => {
      const requests = await eventsOf(owner.id, 'PasswordResetRequested');
      return requests.length > 0 ? requests : undefined;
    });
    const token = createResetToken(APP_SECRET, owner.id, String(request?.data.requestId));
    const reset = await quern.call('POST', '/api/user/password/reset-verify', {
      body: { token, password: 'third long secret', password1: 'third long secret' },
    });
    expect(reset.status).toBe(200);
    expect((await eventsOf(owner.id, 'EmailVerified')).map((e) => e.data.via)).toEqual(['passwordReset']);
  });
});

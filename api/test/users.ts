/**
 * Registered, signed-in users for integration specs, through the spec's own calls (register,
 * login, address), and their API Direct keys: the merchant API's specs all start this way.
 */
import { verificationTokenIn, verificationTokenInText } from '@quern/test-support/eml';
import type { TestSmtpServer } from '@quern/test-support/smtp';
import { expect } from 'vitest';
import { outboxMails } from './outbox.js';
import { cookieOf, eventually, type TestQuern } from './quern.js';

export interface TestUser {
  id: string;
  name: string;
  email: string;
  cookie: string;
  address: string;
}

/** A registration body, as the spec's register call takes it. */
export interface NewUser {
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
}

/**
 * New registration bodies for one spec file: username `${userPrefix}<n>`, e-mail
 * `${emailPrefix}<n>@example.com` and phone `+1${area}` and seven digits. The register call
 * refuses a taken username, e-mail or phone, so all three are unique across the file: n is the
 * file's start time (five digits) and a serial, and the phone's digits count up from the start time.
 * `count` is how many were made so far (to tell other names apart).
 */
export function userFactory({ userPrefix, emailPrefix, area }: { userPrefix: string; emailPrefix: string; area: string }) {
  const start = Date.now();
  let counter = 0;
  const newUser = (): NewUser => {
    counter += 1;
    const n = `${String(start % 100_000).padStart(5, '0')}${counter}`;
    return {
      userName: `${userPrefix}${n}`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `${emailPrefix}${n}@example.com`,
      phone: `+1${area}${String((start + counter) % 10_000_000).padStart(7, '0')}`,
      password: 'correct horse battery',
    };
  };
  return { newUser, count: () => counter };
}

/** Phones must be unique within one Quern; a spec file has its own Quern and its own module. */
let registered = 0;

/**
 * The verification link's token in the newest mail to `email` that carries one: in DATA_DIR/outbox,
 * or received by `smtp` when the Quern mails through a test SMTP server.
 */
export async function verificationTokenMailedTo(
  quern: TestQuern,
  email: string,
  { smtp, timeoutMs = 15_000 }: { smtp?: TestSmtpServer; timeoutMs?: number } = {},
): Promise<string> {
  if (smtp)
    return eventually(
      () =>
        smtp.received
          .filter((mail) => mail.envelopeTo.includes(email))
          .map((mail) => verificationTokenInText(mail.parsed.text))
          .findLast((token) => token !== undefined),
      timeoutMs,
    );
  return eventually(() => {
    const mails = outboxMails(quern).filter((mail) => new RegExp(`^To: ${email}`, 'mi').test(mail));
    return mails.map(verificationTokenIn).findLast((token) => token !== undefined);
  }, timeoutMs);
}

/**
 * Proves the user's e-mail address as its owner would (ADR 046): opens the link of the mail the
 * workers sent, through the real verify call. Until then the address cannot be paid by e-mail.
 */
export async function verifyEmail(quern: TestQuern, user: Pick<TestUser, 'email'>, options: { smtp?: TestSmtpServer } = {}): Promise<void> {
  const token = await verificationTokenMailedTo(quern, user.email, options);
  const verified = await quern.call('POST', '/api/user/email/verify', { body: { token } });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
}

/** Registers and signs in; the address is proven through the mailed link unless `verified` is false. */
export async function registerUser(quern: TestQuern, name: string, { verified = true }: { verified?: boolean } = {}): Promise<TestUser> {
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
  if (verified) await verifyEmail(quern, user);
  return { id: login.body.id as string, name, email: user.email, cookie, address };
}

/** A new API Direct key for the user (the previous one stops working). */
export const generateApiKey = async (quern: TestQuern, user: Pick<TestUser, 'cookie'>): Promise<string> =>
  (await quern.call('POST', '/api/direct/key-generate', { cookie: user.cookie })).body.content.api_key as string;

/**
 * Two-factor enrollment for integration specs, through the spec's own calls (start, confirm with a
 * TOTP code of the shown secret), and the codes a client's authenticator app would show.
 */
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { cookieOf, type TestQuern } from './quern.js';
import { type NewUser, verifyEmail } from './users.js';

/** Waits out the last two seconds of a 30-second step, so a code made now is checked in its step. */
export async function awayFromStepEnd(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 28_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 100));
}

/** The code of the step `offset` steps from now (−1, 0 and 1 are all accepted). */
export const codeAt = (secret: string, offset: number): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + offset * 30_000 });

/** Headers of a request from `ip` behind the trusted proxy, with the client's cookie if any. */
export const from = (ip: string, cookie?: string): Record<string, string> => ({ 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) });

export interface Enrollment {
  cookie: string;
  enrollmentId: string;
  secret: string;
}

/** Starts enrollment for the signed-in client: the secret it shows and the enrollment to confirm. */
export async function startTwoFactor(quern: TestQuern, cookie: string): Promise<Enrollment> {
  const started = await quern.call('POST', '/api/user/two-factor/start', { cookie });
  expect(started.status).toBe(200);
  return { cookie, enrollmentId: started.body.enrollment_id as string, secret: started.body.secret as string };
}

/** Confirms with the code `offset` steps from now (the step before by default); answers the recovery codes shown. */
export async function confirmTwoFactor(quern: TestQuern, enrollment: Enrollment, offset = -1): Promise<string[]> {
  await awayFromStepEnd();
  const confirmed = await quern.call('POST', '/api/user/two-factor/confirm', {
    cookie: enrollment.cookie,
    body: { enrollment_id: enrollment.enrollmentId, code: codeAt(enrollment.secret, offset) },
  });
  expect(confirmed.status).toBe(200);
  return confirmed.body.recovery_codes as string[];
}

/**
 * Registers `user` (with `registerHeaders`), proves the address if `verified`, signs in from `ip`
 * and turns two-factor on.
 */
export async function registeredWithTwoFactor(
  quern: TestQuern,
  user: NewUser,
  { ip, registerHeaders, verified = false }: { ip: string; registerHeaders?: Record<string, string>; verified?: boolean },
) {
  expect((await quern.call('POST', '/api/user/register', { body: user, headers: registerHeaders })).status).toBe(200);
  if (verified) await verifyEmail(quern, user);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password }, headers: from(ip) });
  const enrollment = await startTwoFactor(quern, cookieOf(login.setCookie));
  const recoveryCodes = await confirmTwoFactor(quern, enrollment);
  return { user, cookie: enrollment.cookie, secret: enrollment.secret, recoveryCodes };
}

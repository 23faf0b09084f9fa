/**
 * The TOTP and recovery-code side of two-factor sign-in (ADR 040), on the maintained `otpauth`
 * library: SHA-1, six digits, 30-second steps (what every authenticator app reads from an
 * otpauth:// URI), codes accepted within ±1 step. Recovery codes are random and kept as SHA-256.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TotpCodes } from '@quern/core/identity';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Quern';

/** Recovery codes as typed: case, spaces and dashes do not matter. */
const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

export const totpCodes: TotpCodes = {
  newSecret: () => new Secret({ size: 20 }).base32,
  matchStep(secret, code, now) {
    const delta = TOTP.validate({
      token: code,
      secret: Secret.fromBase32(secret),
      period: TOTP_PERIOD_SECONDS,
      timestamp: now.getTime(),
      window: 1,
    });
    if (delta === null) return undefined;
    return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now.getTime() }) + delta;
  },
  newRecoveryCodes() {
    const codes = Array.from({ length: 10 }, () => {
      const hex = randomBytes(5).toString('hex');
      return `${hex.slice(0, 5)}-${hex.slice(5)}`;
    });
    return { codes, hashes: codes.map((code) => totpCodes.hashRecoveryCode(code)) };
  },
  hashRecoveryCode: (code) => createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex'),
};

/** The otpauth:// URI an authenticator app reads, and its QR code as an SVG string. */
export async function enrollmentQr(secret: string, accountLabel: string): Promise<{ uri: string; qrSvg: string }> {
  const uri = new TOTP({ issuer: ISSUER, label: accountLabel, secret: Secret.fromBase32(secret), period: TOTP_PERIOD_SECONDS }).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1 });
  return { uri, qrSvg };
}

/** How long the password step's challenge is good for. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * The password step's challenge: `<userId>.<expiresAtMs>.<HMAC(secret, 'two-factor.' + both)>`.
 * Nothing is stored; it proves the password was right a short while ago and nothing more, so
 * it creates no session.
 */
export function makeChallenge(appSecret: string, userId: string, nowMs: number): string {
  const body = `${userId}.${nowMs + CHALLENGE_TTL_MS}`;
  return `${body}.${mac(appSecret, body)}`;
}

export function readChallenge(appSecret: string, challenge: string, nowMs: number): string | undefined {
  const parts = challenge.split('.');
  if (parts.length !== 3) return undefined;
  const [userId, expiresAt, given] = parts as [string, string, string];
  const expected = Buffer.from(mac(appSecret, `${userId}.${expiresAt}`));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  if (!(Number(expiresAt) > nowMs)) return undefined;
  return userId;
}

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(`two-factor.${body}`).digest('base64url');

/**
 * The TOTP and recovery-code side of two-factor sign-in (ADR 040), on the maintained `otpauth`
 * library: SHA-1, six digits, 30-second steps (what every authenticator app reads from an
 * otpauth:// URI), codes accepted within ±1 step. Recovery codes are random base32 (ADR 045).
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_NAME_CHARS,
  RECOVERY_CODE_SECRET_CHARS,
  type TotpCodes,
} from '@quern/core/identity';
import { Secret, TOTP } from 'otpauth';
import { qrCodeSvg } from '../http/qr-code.js';

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Quern';

/** Hex recovery codes of enrollments before ADR 045, as typed: case, spaces and dashes do not matter. */
const normalizeEarlierRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** `length` characters of RFC 4648 base32, each from a uniform random index (5 bits each). */
const randomBase32 = (length: number) => Array.from({ length }, () => RECOVERY_CODE_ALPHABET[randomInt(32)]).join('');

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
    const names = new Set<string>();
    const codes: string[] = [];
    while (codes.length < RECOVERY_CODE_COUNT) {
      const code = randomBase32(RECOVERY_CODE_NAME_CHARS + RECOVERY_CODE_SECRET_CHARS);
      const name = code.slice(0, RECOVERY_CODE_NAME_CHARS);
      if (names.has(name)) continue;
      names.add(name);
      codes.push(code.match(/.{4}/g)?.join('-') ?? code);
    }
    return codes;
  },
  hashRecoveryCode: (code) => createHash('sha256').update(normalizeEarlierRecoveryCode(code)).digest('hex'),
};

/** The otpauth:// URI an authenticator app reads, and its QR code as an SVG string. */
export async function enrollmentQr(secret: string, accountLabel: string): Promise<{ uri: string; qrSvg: string }> {
  const uri = new TOTP({ issuer: ISSUER, label: accountLabel, secret: Secret.fromBase32(secret), period: TOTP_PERIOD_SECONDS }).toString();
  const qrSvg = await qrCodeSvg(uri);
  return { uri, qrSvg };
}

/** How long the password step's challenge is good for. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * The client that passed the password (ADR 045): the random nonce of the httpOnly cookie set with
 * the challenge, and the address it came from. A challenge read by anyone else is worthless.
 */
export interface ChallengeClient {
  nonce: string;
  ip: string;
}

/** A fresh nonce for the challenge cookie (256 bits). */
export const newChallengeNonce = (): string => randomBytes(32).toString('base64url');

/**
 * The password step's challenge: `<userId>.<challengeId>.<expiresAtMs>.<MAC>`, the MAC (HMAC of
 * APP_SECRET) covering those and the client: the SHA-256 of its cookie's nonce and its address.
 * Nothing is stored; it proves the password was right a short while ago for this client and
 * nothing more, so it creates no session. `challengeId` names it for the count of wrong codes.
 */
export function makeChallenge(appSecret: string, userId: string, nowMs: number, client: ChallengeClient): string {
  const body = `${userId}.${randomBytes(12).toString('base64url')}.${nowMs + CHALLENGE_TTL_MS}`;
  return `${body}.${mac(appSecret, boundBody(body, client))}`;
}

export function readChallenge(
  appSecret: string,
  challenge: string,
  nowMs: number,
  client: ChallengeClient | undefined,
): { userId: string; challengeId: string } | undefined {
  const parts = challenge.split('.');
  if (parts.length !== 4 || client === undefined) return undefined;
  const [userId, challengeId, expiresAt, given] = parts as [string, string, string, string];
  const expected = Buffer.from(mac(appSecret, boundBody(`${userId}.${challengeId}.${expiresAt}`, client)));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  if (!(Number(expiresAt) > nowMs)) return undefined;
  return { userId, challengeId };
}

const boundBody = (body: string, client: ChallengeClient) =>
  `${body}.${createHash('sha256').update(client.nonce).digest('base64url')}.${client.ip}`;

const mac = (secret: string, body: string) => createHmac('sha256', secret).update(`two-factor.${body}`).digest('base64url');

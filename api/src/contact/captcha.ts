/**
 * The contact forms' captcha (issue 14, ADR 039). ALTCHA by default: a self-hosted proof of work
 * whose challenges Quern signs with an HMAC key derived from the app secret, so it works offline
 * and needs no account anywhere. reCAPTCHA when RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET are set,
 * checked against Google's siteverify (or any server speaking its protocol).
 *
 * A response counts once. `check` (POST /api/auth/recaptcha-verify) proves it and remembers the
 * proof for a few minutes without spending it; `spend` (the send calls) spends it: it is marked
 * used with SET NX under the challenge's signature, so a solved challenge replayed (re-encoded
 * or not), or two sends racing with one solution, get one message through at most. ALTCHA challenges also expire after CHALLENGE_TTL_SECONDS.
 */
import { createHash, createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Redis } from 'ioredis';
import { z } from 'zod';

export const CHALLENGE_TTL_SECONDS = 10 * 60;
/** Longer than any challenge lives, so a used one is remembered until it would be refused anyway. */
const USED_TTL_SECONDS = CHALLENGE_TTL_SECONDS + 5 * 60;
/** How long a checked, unspent response stays good for the send that follows it. */
const CHECKED_TTL_SECONDS = 5 * 60;
/**
 * PBKDF2, not plain SHA-256 (ADR 048): the browser pays a fixed overhead per WebCrypto call, so
 * with one hash per try a person waited about a second for work a bot's native code finishes in
 * about ten milliseconds. With thousands of iterations per try, the browser's native PBKDF2 runs
 * at nearly the bot's speed: the person waits less and the bot pays about as much as the person.
 */
const ALGORITHM = 'PBKDF2/SHA-256';
/** The secret counter's range: the solver tries about 30 counters, each one `iterations` deep. */
const COUNTER_RANGE: [number, number] = [10, 50];

export type CaptchaPublicConfig = { provider: 'altcha' } | { provider: 'recaptcha'; siteKey: string };

export interface CaptchaSettings {
  appSecret: string;
  redis: Redis;
  /** Key prefix in Redis (tests keep theirs apart). */
  prefix?: string;
  recaptcha?: { siteKey: string; secret: string; verifyUrl: string; timeoutMs?: number };
  /** PBKDF2 iterations per try (CAPTCHA_ITERATIONS): the work grows linearly with it. */
  iterations: number;
  /** Bounds of the secret counter the solver must find; tests may lower them. */
  counterRange?: [number, number];
  nowMs?: () => number;
}

export interface Captcha {
  publicConfig: CaptchaPublicConfig;
  /** A fresh ALTCHA challenge (only when ALTCHA is the provider). */
  challenge(): Promise<Challenge>;
  /** Whether the response is good and unspent; remembers a good one briefly for the send. */
  check(response: string, remoteIp?: string): Promise<boolean>;
  /** Spends the response: true once for a good one, false for a bad, expired or used one. */
  spend(response: string, remoteIp?: string): Promise<boolean>;
}

const altchaPayload = z.object({
  challenge: z.object({
    parameters: z
      .object({
        algorithm: z.literal(ALGORITHM),
        nonce: z.string().max(200),
        salt: z.string().max(200),
        cost: z.number().int().min(1).max(10_000_000),
        keyLength: z.number().int().min(1).max(64),
        keyPrefix: z.string().max(128),
        keySignature: z.string().max(200).optional(),
        expiresAt: z.number().optional(),
        data: z.record(z.string(), z.unknown()).optional(),
      })
      .loose(),
    signature: z.string().min(1).max(200),
  }),
  solution: z.object({ counter: z.number().int().min(0), derivedKey: z.string().max(200), time: z.number().optional() }).loose(),
});

/** The widget's value: base64 of the JSON {challenge, solution}; undefined when it is not one. */
function parseAltchaPayload(response: string) {
  try {
    const parsed = altchaPayload.safeParse(JSON.parse(Buffer.from(response, 'base64').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Google's siteverify protocol: a form POST of secret, response and remoteip; `success` in the JSON answer. */
export async function recaptchaSiteVerify(
  settings: { secret: string; verifyUrl: string; timeoutMs?: number },
  response: string,
  remoteIp?: string,
): Promise<boolean> {
  const form = new URLSearchParams({ secret: settings.secret, response, ...(remoteIp ? { remoteip: remoteIp } : {}) });
  try {
    const answer = await fetch(settings.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(settings.timeoutMs ?? 5_000),
    });
    if (!answer.ok) return false;
    const body = (await answer.json()) as { success?: unknown };
    return body.success === true;
  } catch {
    // Unreachable, slow or not JSON: the check did not pass (the sender may try again).
    return false;
  }
}

export function createCaptcha(settings: CaptchaSettings): Captcha {
  const { redis, recaptcha } = settings;
  const prefix = settings.prefix ?? 'captcha';
  const nowMs = settings.nowMs ?? Date.now;
  // Two keys derived from the app secret, one per purpose; the app secret itself never leaves.
  const derive = (purpose: string) => createHmac('sha256', settings.appSecret).update(`altcha:${purpose}`).digest('hex');
  const hmacSignatureSecret = derive('challenge');
  const hmacKeySignatureSecret = derive('key');
  const [low, high] = settings.counterRange ?? COUNTER_RANGE;
  const { iterations } = settings;
  const digest = (response: string) => createHash('sha256').update(response).digest('hex');
  // What a response proves, once: an ALTCHA challenge's signature (the payload's other fields,
  // its counter or time, or its JSON spacing, can change without changing the proof), or a
  // reCAPTCHA token.
  const proofOf = (response: string) => (recaptcha ? response : (parseAltchaPayload(response)?.challenge.signature ?? response));
  const usedKey = (response: string) => `${prefix}:used:${digest(proofOf(response))}`;
  const checkedKey = (response: string) => `${prefix}:checked:${digest(response)}`;

  const verifyAltcha = async (response: string): Promise<boolean> => {
    const payload = parseAltchaPayload(response);
    if (!payload) return false;
    const { expiresAt, cost } = payload.challenge.parameters;
    // Only the work Quern asks for is derived: a payload naming another cost (its signature would
    // fail anyway) must not make the server run a key derivation of the sender's choosing.
    if (cost !== iterations) return false;
    // Every challenge Quern issues expires; one without an expiry is not one of them.
    if (expiresAt === undefined || expiresAt * 1000 < nowMs()) return false;
    try {
      const result = await verifySolution({
        challenge: payload.challenge as Challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
      return result.verified;
    } catch {
      return false;
    }
  };

  const verify = (response: string, remoteIp?: string) =>
    recaptcha ? recaptchaSiteVerify(recaptcha, response, remoteIp) : verifyAltcha(response);

  return {
    publicConfig: recaptcha ? { provider: 'recaptcha', siteKey: recaptcha.siteKey } : { provider: 'altcha' },

    async challenge() {
      return createChallenge({
        algorithm: ALGORITHM,
        cost: iterations,
        counter: randomInt(low, high),
        deriveKey,
        expiresAt: Math.floor(nowMs() / 1000) + CHALLENGE_TTL_SECONDS,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
    },

    async check(response, remoteIp) {
      if (await redis.exists(usedKey(response))) return false;
      if (await redis.exists(checkedKey(response))) return true;
      if (!(await verify(response, remoteIp))) return false;
      // reCAPTCHA tokens are single-use at Google too: the send relies on this record, not a second call.
      await redis.set(checkedKey(response), '1', 'EX', CHECKED_TTL_SECONDS);
      return true;
    },

    async spend(response, remoteIp) {
      const checked = (await redis.getdel(checkedKey(response))) !== null;
      if (!checked && !(await verify(response, remoteIp))) return false;
      // Only a response proven good is recorded, so garbage never fills Redis.
      const first = await redis.set(usedKey(response), '1', 'EX', USED_TTL_SECONDS, 'NX');
      return first === 'OK';
    },
  };
}

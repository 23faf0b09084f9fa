// Proves the contact and support calls end to end: an ALTCHA challenge solved, checked and spent once, the message mailed to SUPPORT_EMAIL (reply-to the sender) with an acknowledgement, and every refusal (no captcha, a replay, a forged solution, another user's id, a header injection, the hourly limits per account and per reply address) sending nothing, and captcha checks bounded per client address; and the reCAPTCHA adapter against a local stand-in speaking siteverify's protocol.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaptcha, recaptchaSiteVerify } from './captcha.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

const SUPPORT = 'help-desk@quern.example';

/** What the widget submits: base64 of {challenge, solution}. */
async function solvedPayload(quern: TestQuern): Promise<string> {
  const served = await quern.call('GET', '/api/captcha/challenge');
  expect(served.status).toBe(200);
  expect(served.headers.get('cache-control')).toBe('no-store');
  const challenge = served.body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  expect(solution).not.toBeNull();
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const outbox = (quern: TestQuern) => {
  try {
    const dir = join(quern.dataDir, 'outbox');
    return readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
  } catch {
    return [];
  }
};

const supportEvents = async (quern: TestQuern, type: string) => {
  const page = await quern.store.readAll({ maxCount: 10_000 });
  return page.filter((event) => event.type === type);
};

describe('contact and support with ALTCHA', () => {
  let quern: TestQuern;
  let ana: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    quern = await startTestQuern({ SUPPORT_EMAIL: SUPPORT, CONTACT_MESSAGES_PER_USER_HOUR: '3' });
    ana = await registerUser(quern, 'ana_contact');
    bob = await registerUser(quern, 'bob_contact');
  });
  afterAll(async () => {
    await quern?.stop();
  });

  it('given no reCAPTCHA keys, when the forms ask, then the captcha is ALTCHA and the pages admit no Google source', async () => {
    const config = await quern.call('GET', '/api/captcha/config');
    expect(config.body).toEqual({ provider: 'altcha' });
    const page = await quern.call('GET', '/support');
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(page.headers.get('content-security-policy')).not.toMatch(/google|gstatic/);
  });

  it('given a solved challenge, when checked and then sent on /support, then the support mailbox gets it reply-to the user and the user an acknowledgement', async () => {
    const captcha = await solvedPayload(quern);
    const check = await quern.call('POST', '/api/auth/recaptcha-verify', { body: { response: captcha } });
    expect(check).toMatchObject({ status: 200, body: { success: true, message: 'Verification passed.' } });

    const sent = await quern.call('POST', '/api/support/send-email', {
      cookie: ana.cookie,
      body: { userId: ana.id, subject: 'Stuck send', text: 'My send has been pending for an hour.', captcha },
    });
    expect(sent).toMatchObject({ status: 200, body: { message: `Your message was sent. We will reply to ${ana.email}.` } });

    const toSupport = await eventually(() =>
      outbox(quern).find((m) => /^To: help-desk@quern\.example/m.test(m) && m.includes('Stuck send')),
    );
    expect(toSupport).toMatch(/^Subject: \[Sandbox\] \[Support\] Stuck send/m);
    expect(toSupport).toMatch(new RegExp(`^Reply-To: Test User <${ana.email}>`, 'm'));
    expect(toSupport).toContain('My send has been pending for an hour.');
    const ack = await eventually(() => outbox(quern).find((m) => m.includes(`To: ${ana.email}`) && m.includes('We received your message')));
    // The acknowledgement quotes nothing the sender wrote (ADR 046).
    expect(ack).not.toContain('Stuck send');
    expect(ack).not.toContain('pending for an hour');
    const [submitted] = await eventually(async () => {
      const events = await supportEvents(quern, 'SupportMessageSent');
      return events.length === 1 ? events : undefined;
    });
    expect(submitted?.streamId).toMatch(/^support-/);
  });

  it('given a solution already spent, when replayed, then it is refused as failed and nothing more is recorded', async () => {
    const captcha = await solvedPayload(quern);
    const body = { from: bob.email, subject: 'Once', text: 'First', captcha };
    expect((await quern.call('POST', '/api/contact/send-email', { cookie: bob.cookie, body })).status).toBe(200);
    const before = (await supportEvents(quern, 'SupportMessageSubmitted')).length;

    const replay = await quern.call('POST', '/api/contact/send-email', { cookie: bob.cookie, body: { ...body, text: 'Again' } });
    expect(replay).toMatchObject({ status: 400, body: { message: 'reCAPTCHA verification failed' } });
    // The same proof re-encoded (another counter, another time, other spacing) is the same solution.
    const payload = JSON.parse(Buffer.from(captcha, 'base64').toString());
    payload.solution.time = 1;
    const reencoded = Buffer.from(JSON.stringify(payload, null, 1)).toString('base64');
    const again = await quern.call('POST', '/api/contact/send-email', { cookie: bob.cookie, body: { ...body, captcha: reencoded } });
    expect(again).toMatchObject({ status: 400, body: { message: 'reCAPTCHA verification failed' } });
    const recheck = await quern.call('POST', '/api/auth/recaptcha-verify', { body: { response: captcha } });
    expect(recheck.body).toMatchObject({ success: false, message: 'reCAPTCHA verification failed' });
    expect(await supportEvents(quern, 'SupportMessageSubmitted')).toHaveLength(before);
  });

  it('given two sends racing with one solution, then one gets through', async () => {
    const captcha = await solvedPayload(quern);
    const body = { from: bob.email, subject: 'Race', text: 'Same solution twice', captcha };
    const answers = await Promise.all([
      quern.call('POST', '/api/contact/send-email', { cookie: bob.cookie, body }),
      quern.call('POST', '/api/contact/send-email', { cookie: bob.cookie, body }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it('given a forged solution or garbage, when checked, then success is false', async () => {
    const captcha = await solvedPayload(quern);
    const payload = JSON.parse(Buffer.from(captcha, 'base64').toString());
    const last = payload.solution.derivedKey.at(-1) === '0' ? '1' : '0';
    payload.solution.derivedKey = `${payload.solution.derivedKey.slice(0, -1)}${last}`;
    const forged = Buffer.from(JSON.stringify(payload)).toString('base64');
    for (const response of [forged, 'not-a-payload', Buffer.from('{"challenge":1}').toString('base64')]) {
      const answer = await quern.call('POST', '/api/auth/recaptcha-verify', { body: { response } });
      expect(answer).toMatchObject({ status: 200, body: { success: false } });
    }
  });

  it('given no captcha, when sending, then the answer is Verify reCAPTCHA and nothing is recorded', async () => {
    const before = (await supportEvents(quern, 'SupportMessageSubmitted')).length;
    const answer = await quern.call('POST', '/api/support/send-email', {
      cookie: ana.cookie,
      body: { userId: ana.id, subject: 'Hi', text: 'No captcha' },
    });
    expect(answer).toMatchObject({ status: 400, body: { message: 'Verify reCAPTCHA' } });
    expect(await supportEvents(quern, 'SupportMessageSubmitted')).toHaveLength(before);
  });

  it("given another user's id, a visitor, or a line break in the subject, then each is refused before the captcha is spent", async () => {
    const captcha = await solvedPayload(quern);
    const asBob = await quern.call('POST', '/api/support/send-email', {
      cookie: ana.cookie,
      body: { userId: bob.id, subject: 'Hi', text: 'Pretending', captcha },
    });
    expect(asBob.status).toBe(403);
    const visitor = await quern.call('POST', '/api/contact/send-email', {
      body: { from: 'x@example.com', subject: 'Hi', text: 'x', captcha },
    });
    expect(visitor.status).toBe(401);
    const injected = await quern.call('POST', '/api/contact/send-email', {
      cookie: ana.cookie,
      body: { from: ana.email, subject: 'Hi\r\nBcc: victim@example.com', text: 'x', captcha },
    });
    expect(injected).toMatchObject({ status: 400, body: { message: 'The subject cannot contain line breaks.' } });
    // The solution is still unspent: none of those reached the captcha.
    expect((await quern.call('POST', '/api/auth/recaptcha-verify', { body: { response: captcha } })).body.success).toBe(true);
  });

  it('given an account at its hourly limit, when it sends again, then 429 and nothing is recorded', async () => {
    // Ana sent one message above; the limit is 3 an hour.
    for (const subject of ['Two', 'Three']) {
      const body = { userId: ana.id, subject, text: 'More', captcha: await solvedPayload(quern) };
      expect((await quern.call('POST', '/api/support/send-email', { cookie: ana.cookie, body })).status).toBe(200);
    }
    const before = (await supportEvents(quern, 'SupportMessageSubmitted')).length;
    const over = await quern.call('POST', '/api/support/send-email', {
      cookie: ana.cookie,
      body: { userId: ana.id, subject: 'Four', text: 'Over', captcha: await solvedPayload(quern) },
    });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^[0-9]+$/);
    expect(await supportEvents(quern, 'SupportMessageSubmitted')).toHaveLength(before);
  });

  it('given one reply address used by two accounts, when together they pass the hourly limit, then 429', async () => {
    const carl = await registerUser(quern, 'carl_contact');
    const dana = await registerUser(quern, 'dana_contact');
    const body = async (subject: string) => ({
      from: 'Shared@example.com',
      subject,
      text: 'Same address',
      captcha: await solvedPayload(quern),
    });
    for (const [user, subject] of [
      [carl, 'One'],
      [carl, 'Two'],
      [dana, 'Three'],
    ] as const) {
      expect((await quern.call('POST', '/api/contact/send-email', { cookie: user.cookie, body: await body(subject) })).status).toBe(200);
    }
    const over = await quern.call('POST', '/api/contact/send-email', {
      cookie: dana.cookie,
      body: { ...(await body('Four')), from: 'shared@example.com' },
    });
    expect(over).toMatchObject({ status: 429, body: { messageKey: 'errors:tooManyMessages' } });
  });

  it('given the challenge served, then it asks for the configured PBKDF2 work, and a payload naming less work is refused', async () => {
    const served = await quern.call('GET', '/api/captcha/challenge');
    expect(served.body.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 30_000 });
    const redis = new Redis(quern.redisUrl);
    try {
      const captcha = createCaptcha({
        appSecret: 'y'.repeat(32),
        redis,
        prefix: `cost-${Date.now()}`,
        iterations: 2_000,
        counterRange: [10, 20],
      });
      const challenge = await captcha.challenge();
      const honest = await solveChallenge({ challenge, deriveKey });
      expect(honest).not.toBeNull();
      // The same solution under a challenge re-labelled as other work is refused.
      for (const cost of [1, 1_999, 2_001, 9_000_000]) {
        const relabelled = { ...challenge, parameters: { ...challenge.parameters, cost } };
        expect(await captcha.spend(Buffer.from(JSON.stringify({ challenge: relabelled, solution: honest })).toString('base64'))).toBe(
          false,
        );
      }
      expect(await captcha.spend(Buffer.from(JSON.stringify({ challenge, solution: honest })).toString('base64'))).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it('given a challenge past its expiry, when spent, then it is refused', async () => {
    const redis = new Redis(quern.redisUrl);
    try {
      let now = Date.now();
      const captcha = createCaptcha({
        appSecret: 'x'.repeat(32),
        redis,
        prefix: `expiry-${now}`,
        iterations: 1_000,
        counterRange: [10, 100],
        nowMs: () => now,
      });
      const challenge = await captcha.challenge();
      const solution = await solveChallenge({ challenge, deriveKey });
      const response = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      now += 11 * 60_000;
      expect(await captcha.spend(response)).toBe(false);
      now -= 11 * 60_000;
      expect(await captcha.spend(response)).toBe(true);
      expect(await captcha.spend(response)).toBe(false);
    } finally {
      redis.disconnect();
    }
  });
});

describe('contact with reCAPTCHA (a local stand-in for siteverify)', () => {
  let quern: TestQuern;
  let standIn: Server;
  const seen: URLSearchParams[] = [];
  const spent = new Set<string>();

  beforeAll(async () => {
    // Speaks Google's protocol: a form POST; `good-*` tokens pass once, like Google's single-use tokens.
    standIn = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        seen.push(form);
        const token = form.get('response') ?? '';
        const success = form.get('secret') === 'test-secret' && token.startsWith('good-') && !spent.has(token);
        spent.add(token);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(success ? { success } : { success, 'error-codes': ['invalid-input-response'] }));
      });
    });
    await new Promise<void>((done) => standIn.listen(0, '127.0.0.1', done));
    const address = standIn.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    quern = await startTestQuern({
      RECAPTCHA_SITE_KEY: 'test-site-key',
      RECAPTCHA_SECRET: 'test-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    });
  });
  afterAll(async () => {
    await quern?.stop();
    await new Promise((done) => standIn?.close(done));
  });

  it('given the keys, then the forms are told reCAPTCHA with the site key and no ALTCHA challenge is served', async () => {
    expect((await quern.call('GET', '/api/captcha/config')).body).toEqual({ provider: 'recaptcha', siteKey: 'test-site-key' });
    expect((await quern.call('GET', '/api/captcha/challenge')).status).toBe(404);
  });

  it("given the keys, then /contact and /support admit Google's widget (script and frame) and no other page does", async () => {
    for (const path of ['/contact', '/support']) {
      const policy = (await quern.call('GET', path)).headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/script-src [^;]*'self'[^;]*https:\/\/www\.google\.com\/recaptcha\/ https:\/\/www\.gstatic\.com\/recaptcha\//);
      expect(policy).toMatch(/frame-src 'self' https:\/\/www\.google\.com\/recaptcha\/ https:\/\/recaptcha\.google\.com\/recaptcha\//);
      expect(policy).toMatch(/frame-ancestors 'none'/);
    }
    for (const path of ['/account', '/', '/millix/send']) {
      expect((await quern.call('GET', path)).headers.get('content-security-policy')).not.toMatch(/google|gstatic/);
    }
  });

  it('given a good token, when checked then sent, then siteverify is asked once with the secret and the send goes through once', async () => {
    const user = await registerUser(quern, 'carla_contact');
    const asked = seen.length;
    const check = await quern.call('POST', '/api/auth/recaptcha-verify', { body: { response: 'good-1' } });
    expect(check.body).toMatchObject({ success: true });
    const body = { from: user.email, subject: 'Hello', text: 'Via reCAPTCHA', captcha: 'good-1' };
    expect((await quern.call('POST', '/api/contact/send-email', { cookie: user.cookie, body })).status).toBe(200);
    expect(seen.length - asked).toBe(1);
    expect(seen.at(-1)?.get('secret')).toBe('test-secret');
    expect((await quern.call('POST', '/api/contact/send-email', { cookie: user.cookie, body })).status).toBe(400);
  });

  it('given a bad token, when checked, then success is false with the spec message', async () => {
    const check = await quern.call('POST', '/api/auth/recaptcha-verify', { body: { response: 'bad-1' } });
    expect(check).toMatchObject({ status: 200, body: { success: false, message: 'reCAPTCHA verification failed' } });
  });

  // Last in this Quern: it uses up the address's captcha checks.
  it('given one address checking captchas in bulk, when past 60 in 15 minutes, then 429 and siteverify is not asked', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 62; i += 1) {
      statuses.push((await quern.call('POST', '/api/auth/recaptcha-verify', { body: { response: `bad-bulk-${i}` } })).status);
    }
    const asked = seen.length;
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(60);
    expect((await quern.call('POST', '/api/auth/recaptcha-verify', { body: { response: 'good-late' } })).status).toBe(429);
    expect(seen.length).toBe(asked);
  });
});

describe('the siteverify adapter', () => {
  it('given answers other than a JSON success (an error status, not JSON, success as a string, silence), then the check does not pass', async () => {
    const answers: Record<string, (res: import('node:http').ServerResponse) => void> = {
      '/ok': (res) => res.end(JSON.stringify({ success: true })),
      '/500': (res) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ success: true }));
      },
      '/html': (res) => res.end('<html>captcha</html>'),
      '/string': (res) => res.end(JSON.stringify({ success: 'true' })),
      '/silent': () => {},
    };
    const server = createServer((req, res) => answers[req.url ?? '']?.(res));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    const url = (path: string) => `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${path}`;
    try {
      const check = (path: string) => recaptchaSiteVerify({ secret: 's', verifyUrl: url(path), timeoutMs: 300 }, 'token');
      expect(await check('/ok')).toBe(true);
      for (const path of ['/500', '/html', '/string', '/silent']) expect(await check(path), path).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});

// The logger's nets against personal data and secrets (ADR 052), through real pino writing to a
// stream: each line is parsed as JSON, as a log shipper would, and searched for the secrets.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, partLogger, REDACTED, scrubText } from './logger.js';

const EMAIL = 'ada.lovelace+quern@example.com';
const PASSWORD = 'correct horse battery staple';
const API_KEY = `qk_live_${'A1b2C3d4'.repeat(5)}xyz`;
const TEST_KEY = `qk_test_${'Zz9_-'.repeat(8)}abc`;
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.dG9rZW4';

function capture(level = 'info') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ level, destination });
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const text = () => lines.join('\n');
  return { logger, parsed, text };
}

describe('the logger', () => {
  it('writes one JSON object per line with level, time, message and fields', () => {
    const { logger, parsed } = capture();
    logger.info({ part: 'http', status: 201 }, 'request');
    const [line] = parsed();
    expect(line).toMatchObject({ level: 'info', msg: 'request', part: 'http', status: 201 });
    expect(typeof line?.time).toBe('string');
    expect(Number.isNaN(Date.parse(String(line?.time)))).toBe(false);
  });

  it('drops lines below its level', () => {
    const { logger, parsed } = capture('warn');
    logger.info('quiet');
    logger.warn('loud');
    expect(parsed().map((line) => line.msg)).toEqual(['loud']);
  });

  it('redacts secret fields at the top level and one or two levels down', () => {
    const { logger, parsed, text } = capture();
    logger.info(
      {
        password: PASSWORD,
        email: EMAIL,
        user: { email: EMAIL, phone: '+15550001111', firstName: 'Ada', newPassword: PASSWORD },
        req: { headers: { authorization: `Bearer ${TOKEN}`, cookie: `quern_session=${TOKEN}`, 'set-cookie': TOKEN } },
        body: { to: EMAIL },
        query: `to=${EMAIL}`,
        apiKey: API_KEY,
        webhook: { secret: 'whsec_abc123' },
      },
      'with secrets',
    );
    for (const secret of [PASSWORD, EMAIL, TOKEN, API_KEY, 'whsec_abc123', '+15550001111', 'Ada"']) expect(text()).not.toContain(secret);
    const [line] = parsed();
    expect(line).toMatchObject({
      password: REDACTED,
      email: REDACTED,
      user: { email: REDACTED, phone: REDACTED, firstName: REDACTED, newPassword: REDACTED },
      req: { headers: { authorization: REDACTED, cookie: REDACTED, 'set-cookie': REDACTED } },
      body: REDACTED,
      query: REDACTED,
      apiKey: REDACTED,
      webhook: { secret: REDACTED },
    });
  });

  it('scrubs e-mail addresses, API keys and bearer tokens out of messages and printf arguments', () => {
    const { logger, text } = capture();
    logger.info(`sent to ${EMAIL} with ${API_KEY}`);
    logger.info('header was %s and key %s', `Bearer ${TOKEN}`, TEST_KEY);
    expect(text()).not.toContain(EMAIL);
    expect(text()).not.toContain(API_KEY);
    expect(text()).not.toContain(TEST_KEY);
    expect(text()).not.toContain(TOKEN);
    expect(text()).toContain(`Bearer ${REDACTED}`);
  });

  it('scrubs logged errors: message and stack, and keeps their type', () => {
    const { logger, parsed, text } = capture();
    logger.error({ err: new TypeError(`no account for ${EMAIL} (key ${API_KEY})`) }, 'unexpected error');
    logger.error({ err: `thrown text with ${EMAIL}` }, 'thrown string');
    expect(text()).not.toContain(EMAIL);
    expect(text()).not.toContain(API_KEY);
    const [first, second] = parsed();
    expect(first?.err).toMatchObject({ type: 'TypeError', message: `no account for ${REDACTED} (key ${REDACTED})` });
    expect(String((first?.err as { stack?: string } | undefined)?.stack)).toContain('logger.int.spec.ts');
    expect(second?.err).toBe(`thrown text with ${REDACTED}`);
  });

  it("logs an error as a fixed set of fields: never a command's arguments, a connection string or a reply", () => {
    const { logger, parsed, text } = capture();
    class ReplyError extends Error {}
    class ParseError extends Error {}
    const redis = Object.assign(new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'), {
      command: { name: 'hget', args: ['rm:user-id-by-email', 'alice@example.com'] },
    });
    const store = Object.assign(new ParseError('could not parse the connection string'), {
      connectionString: 'kurrentdb://admin:s3cret@db:2113',
      code: 'ERR_PARSE',
      cause: Object.assign(new Error('bad url kurrentdb://admin:s3cret@db:2113'), {
        response: '550 no such user bob@example.com',
        errno: 7,
      }),
    });
    logger.error({ err: redis }, 'redis failed');
    logger.error({ err: store }, 'store failed');
    for (const secret of ['alice', 'example.com', 's3cret', 'rm:user-id-by-email', '550 no such user'])
      expect(text()).not.toContain(secret);
    const [first, second] = parsed();
    expect(first?.err).toMatchObject({ type: 'ReplyError', command: 'hget' });
    expect(Object.keys(first?.err as object).sort()).toEqual(['command', 'message', 'stack', 'type']);
    expect(second?.err).toMatchObject({
      type: 'ParseError',
      code: 'ERR_PARSE',
      cause: { type: 'Error', message: `bad url kurrentdb://admin:${REDACTED}@db:2113` },
    });
    expect(Object.keys((second?.err as { cause?: object } | undefined)?.cause ?? {}).sort()).toEqual(['message', 'stack', 'type']);
  });

  it('scrubs the password out of a URL with credentials', () => {
    expect(scrubText('connecting to redis://default:hunter2@cache:6379/0 failed')).toBe(
      `connecting to redis://default:${REDACTED}@cache:6379/0 failed`,
    );
  });

  it('the core Logger port turns a [part] prefix into a field, and scrubs too', () => {
    const { logger, parsed } = capture();
    const port = partLogger(logger);
    port.info('[workers] delivered');
    port.error(`[mail] could not reach ${EMAIL}`);
    port.info('no prefix here');
    expect(parsed().map(({ level, part, msg }) => ({ level, part, msg }))).toEqual([
      { level: 'info', part: 'workers', msg: 'delivered' },
      { level: 'error', part: 'mail', msg: `could not reach ${REDACTED}` },
      { level: 'info', part: undefined, msg: 'no prefix here' },
    ]);
  });

  it('leaves ordinary text alone', () => {
    expect(scrubText('order 5O190127TN364715T credited 80000 MLX at 2026-01-01T00:00:00Z')).toBe(
      'order 5O190127TN364715T credited 80000 MLX at 2026-01-01T00:00:00Z',
    );
  });
});

// The mode rules (ADR 049) as a pure function: a complete live configuration passes; each missing,
// stand-in or unsafe setting is named with a fix; every fault is returned at once; and the
// sandbox refuses only the mixes that would move real money for test money.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../config.js';
import { formatModeFaults, type ModeSettings, modeFaults } from './live-settings.js';

const environment = { tmpDirs: ['/tmp', '/var/tmp', '/run/user/1000/tmp'] };
const HEX = 'ab'.repeat(32);

/** The contract's live configuration (shared with the visible helper's e2e), parsed as Quern parses it. */
const LIVE: Record<string, string> = {
  QUERN_MODE: 'live',
  MILLIX_NODE_URL: 'http://127.0.0.1:5500',
  MILLIX_NODE_ID: 'node-id',
  MILLIX_NODE_SIGNATURE: 'node-signature',
  MILLIX_NETWORK: 'mainnet',
  PAYPAL_ENV: 'live',
  PAYPAL_API_URL: 'http://127.0.0.1:4100',
  PAYPAL_CLIENT_ID: 'client-id',
  PAYPAL_CLIENT_SECRET: 'client-secret',
  PAYPAL_WEBHOOK_ID: 'WH-1',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  PUBLIC_URL: 'https://pay.example.com',
  APP_SECRET: HEX,
  PERSONAL_DATA_KEY: HEX,
  DATA_DIR: '/srv/quern/.test-data/live',
};

function settings(env: Record<string, string | undefined>): ModeSettings {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
  return configSchema.parse(defined);
}

const faultsOf = (env: Record<string, string | undefined>) => modeFaults(settings(env), environment);
const named = (env: Record<string, string | undefined>) => faultsOf(env).map((f) => f.setting);

describe('live mode rules', () => {
  it('given the complete live configuration with loopback node, PayPal stub and SMTP, then there is no fault', () => {
    expect(faultsOf(LIVE)).toEqual([]);
  });

  it('given https and smtps on real hosts, then there is no fault', () => {
    expect(
      faultsOf({
        ...LIVE,
        MILLIX_NODE_URL: 'https://node.example:5500',
        PAYPAL_API_URL: undefined,
        SMTP_URL: 'smtps://u:p@mail.example:465',
      }),
    ).toEqual([]);
  });

  it.each([
    'MILLIX_NODE_URL',
    'MILLIX_NODE_ID',
    'MILLIX_NODE_SIGNATURE',
    'PAYPAL_CLIENT_ID',
    'PAYPAL_CLIENT_SECRET',
    'PAYPAL_WEBHOOK_ID',
    'SMTP_URL',
    'PUBLIC_URL',
    'APP_SECRET',
    'PERSONAL_DATA_KEY',
  ])('given %s missing, then exactly that setting is at fault with a fix', (name) => {
    const faults = faultsOf({ ...LIVE, [name]: undefined });
    expect(faults.map((f) => f.setting)).toEqual([name]);
    expect(faults[0]?.fix.length).toBeGreaterThan(10);
  });

  it('given DATA_DIR left at its relative default, then DATA_DIR is at fault', () => {
    expect(named({ ...LIVE, DATA_DIR: undefined })).toEqual(['DATA_DIR']);
  });

  it.each(['/tmp/quern', '/var/tmp/q', '/run/user/1000/tmp/quern-x', '/tmp'])(
    'given DATA_DIR=%s (temporary), then DATA_DIR is at fault',
    (dir) => {
      const faults = faultsOf({ ...LIVE, DATA_DIR: dir });
      expect(faults.map((f) => f.setting)).toEqual(['DATA_DIR']);
      expect(faults[0]?.problem).toContain('temporary');
    },
  );

  it('given DATA_DIR=/tmpfoo (a sibling of /tmp, not inside it), then there is no fault', () => {
    expect(faultsOf({ ...LIVE, DATA_DIR: '/tmpfoo/quern' })).toEqual([]);
  });

  it.each([
    [{ PAYPAL_ENV: 'local' }, 'PAYPAL_ENV', 'stand-in'],
    [{ PAYPAL_ENV: 'sandbox' }, 'PAYPAL_ENV', 'sandbox'],
    [{ MILLIX_NETWORK: 'testnet' }, 'MILLIX_NETWORK', 'testnet'],
    [{ MILLIX_NODE_URL: 'http://node.example:5500' }, 'MILLIX_NODE_URL', 'plain http'],
    [{ PAYPAL_API_URL: 'http://paypal-proxy.internal' }, 'PAYPAL_API_URL', 'plain http'],
    [{ PAYPAL_API_URL: 'https://api-m.sandbox.paypal.com' }, 'PAYPAL_API_URL', 'sandbox'],
    [{ SMTP_URL: 'smtp://mail.example:587' }, 'SMTP_URL', 'requireTLS'],
    [{ PUBLIC_URL: 'http://pay.example.com' }, 'PUBLIC_URL', 'not https'],
    [{ PERSONAL_DATA_KEY: 'too-short-but-thirty-two-characters!!' }, 'PERSONAL_DATA_KEY', '32 bytes'],
    [{ EVENTSTORE_URL: 'kurrentdb://kurrent.internal:2113?tls=false' }, 'EVENTSTORE_URL', 'tls=false'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'private'],
    [{ RECAPTCHA_VERIFY_URL: 'https://captcha-stub.example/verify' }, 'RECAPTCHA_VERIFY_URL', "not Google's"],
  ])('given %o in live, then %s is at fault saying %s', (change, setting, words) => {
    const faults = faultsOf({ ...LIVE, ...change });
    expect(faults.map((f) => f.setting)).toEqual([setting]);
    expect(faults[0]?.problem).toContain(words);
  });

  it('given STARTTLS required, a loopback KurrentDB without TLS or a recaptcha.net verifier, then there is no fault', () => {
    expect(
      faultsOf({
        ...LIVE,
        SMTP_URL: 'smtp://u:p@mail.example:587?requireTLS=true',
        EVENTSTORE_URL: 'kurrentdb://127.0.0.1:2113?tls=false',
        RECAPTCHA_VERIFY_URL: 'https://www.recaptcha.net/recaptcha/api/siteverify',
      }),
    ).toEqual([]);
  });

  // The KurrentDB client trims the string, drops trailing slashes, trims option values, reads option
  // names without case or - and _, and connects to every host of a comma list: the rule reads it the same way.
  it.each([
    'kurrentdb://kurrent.internal:2113?tls=false/',
    'kurrentdb://kurrent.internal:2113?tls= false',
    'kurrentdb://kurrent.internal:2113?tls=false ',
    'kurrentdb://kurrent.internal:2113?TLS=false',
    'kurrentdb://kurrent.internal:2113?t_l-s=false',
    'kurrentdb://127.0.0.1:2113,db.remote:2113?tls=false',
    'kurrentdb://admin:changeit@127.0.0.1:2113,db.remote:2113/?tls=false',
    'kurrentdb://kurrent.internal:2113?tlsVerifyCert=false',
    'kurrentdb://kurrent.internal:2113?tls=true&tls_verify_cert= false',
    'kurrentdb://[2001:db8::1]:2113?tls=false',
    'kurrentdb+discover://localhost:2113?tls=false',
    'kurrentdb://kurrent.internal:2113?tls',
    'kurrent.internal:2113',
  ])('given EVENTSTORE_URL=%s in live, then the event store is at fault', (url) => {
    const faults = faultsOf({ ...LIVE, EVENTSTORE_URL: url });
    expect(faults.map((f) => f.setting)).toEqual(['EVENTSTORE_URL']);
  });

  it.each([
    'kurrentdb://[::1]:2113?tls=false',
    'kurrentdb://localhost:2113,127.0.0.2:2113?tls=false&tlsVerifyCert=false',
    'kurrentdb://kurrent.internal:2113?tls=true&tls=false&tls=true',
    'kurrentdb://kurrent.internal:2113',
  ])('given EVENTSTORE_URL=%s in live, then the event store is not at fault (and nothing throws)', (url) => {
    expect(faultsOf({ ...LIVE, EVENTSTORE_URL: url })).toEqual([]);
  });

  it('given only QUERN_MODE=live, then every missing and stand-in setting is listed in one message', () => {
    const faults = faultsOf({ QUERN_MODE: 'live' });
    expect(faults.map((f) => f.setting).sort()).toEqual(
      [
        'APP_SECRET',
        'DATA_DIR',
        'MILLIX_NODE_ID',
        'MILLIX_NODE_SIGNATURE',
        'MILLIX_NODE_URL',
        'PAYPAL_CLIENT_ID',
        'PAYPAL_CLIENT_SECRET',
        'PAYPAL_ENV',
        'PAYPAL_WEBHOOK_ID',
        'PERSONAL_DATA_KEY',
        'PUBLIC_URL',
        'SMTP_URL',
      ].sort(),
    );
    const message = formatModeFaults('live', faults);
    expect(message.split('\n')[0]).toContain('12 setting(s) to fix');
    for (const fault of faults) expect(message).toContain(`- ${fault.setting} `);
  });
});

describe('sandbox mode rules', () => {
  it('given the defaults (every stand-in), then there is no fault', () => {
    expect(faultsOf({})).toEqual([]);
  });

  it('given PayPal sandbox and a testnet node, then there is no fault', () => {
    expect(
      faultsOf({
        PAYPAL_ENV: 'sandbox',
        PAYPAL_CLIENT_ID: 'i',
        PAYPAL_CLIENT_SECRET: 's',
        MILLIX_NODE_URL: 'http://10.0.0.5:5500',
        MILLIX_NETWORK: 'testnet',
      }),
    ).toEqual([]);
  });

  it.each([
    [{ PAYPAL_ENV: 'live', PAYPAL_CLIENT_ID: 'i', PAYPAL_CLIENT_SECRET: 's' }, 'PAYPAL_ENV'],
    [{ MILLIX_NODE_URL: 'http://127.0.0.1:5500', MILLIX_NODE_ID: 'n', MILLIX_NODE_SIGNATURE: 's' }, 'MILLIX_NODE_URL'],
    [
      { PAYPAL_ENV: 'sandbox', PAYPAL_CLIENT_ID: 'i', PAYPAL_CLIENT_SECRET: 's', PAYPAL_API_URL: 'https://api-m.paypal.com' },
      'PAYPAL_API_URL',
    ],
    [{ PAYPAL_API_URL: 'http://127.0.0.1:4100' }, 'PAYPAL_API_URL'],
  ])('given %o in sandbox, then %s is at fault', (change, setting) => {
    expect(named(change)).toEqual([setting]);
  });
});

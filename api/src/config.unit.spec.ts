// Proves the security settings parse as documented: TRUST_PROXY is off unless set (so
// X-Forwarded-For is ignored), takes a hop count or a list of proxies, and the session and
// sign-in limits have their defaults and refuse nonsense.
import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from './config.js';

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.5', ['10.0.0.0/8', '192.168.1.5']],
  ])('given %j, then Express gets %j', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });

  it('given no TRUST_PROXY in the environment, then the loaded configuration trusts no proxy', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
  });
});

describe('session and sign-in settings', () => {
  it('given nothing set, then sessions last 30 days at most and sign-ins have their documented limits', () => {
    const config = loadConfig({});
    expect(config.SESSION_MAX_AGE_DAYS).toBe(30);
    expect([config.LOGIN_FREE_FAILURES, config.LOGIN_FAILURES_PER_ACCOUNT, config.LOGIN_FAILURES_PER_IP]).toEqual([5, 50, 100]);
  });

  it.each([
    ['SESSION_MAX_AGE_DAYS', '0'],
    ['SESSION_MAX_AGE_DAYS', 'forever'],
    ['LOGIN_FREE_FAILURES', '-1'],
  ])('given %s=%j, then start-up stops with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});

// Proves the script-src edit: the hashes join script-src and nothing else changes; without a
// script-src one is added that still allows 'self'; no hashes leaves the policy as it was; the
// Buy page's policy adds PayPal's documented hosts to scripts, connections, frames and images.
import { describe, expect, it } from 'vitest';
import { PAYPAL_SOURCES, withDirectiveSources, withPayPalSources, withScriptSources } from './csp.js';

const helmetPolicy = "default-src 'self';script-src 'self';script-src-attr 'none';frame-ancestors 'self'";

describe('withScriptSources', () => {
  it('given helmet’s policy, when hashes are added, then only script-src gains them', () => {
    expect(withScriptSources(helmetPolicy, ["'sha256-abc='", "'sha256-def='"])).toBe(
      "default-src 'self';script-src 'self' 'sha256-abc=' 'sha256-def=';script-src-attr 'none';frame-ancestors 'self'",
    );
  });

  it('given a policy without script-src, when hashes are added, then script-src allows self and them', () => {
    expect(withScriptSources("default-src 'self'", ["'sha256-abc='"])).toBe("default-src 'self';script-src 'self' 'sha256-abc='");
  });

  it('given no hashes, when added, then the policy is unchanged', () => {
    expect(withScriptSources(helmetPolicy, [])).toBe(helmetPolicy);
  });
});

describe('withPayPalSources', () => {
  const paypal = PAYPAL_SOURCES.join(' ');

  it('given helmet’s policy with hashes, when PayPal’s sources are added, then scripts, connections, frames and images allow them beside self', () => {
    const policy = withPayPalSources(
      "default-src 'self';img-src 'self' data:;script-src 'self' 'sha256-abc=';script-src-attr 'none';frame-ancestors 'self'",
    );
    expect(policy.split(';')).toEqual([
      "default-src 'self'",
      `img-src 'self' data: ${paypal}`,
      `script-src 'self' 'sha256-abc=' ${paypal}`,
      "script-src-attr 'none'",
      "frame-ancestors 'self'",
      `connect-src 'self' ${paypal}`,
      `frame-src 'self' ${paypal}`,
      `child-src 'self' ${paypal}`,
    ]);
  });

  it('given PayPal’s documented hosts, then they are https only and include no inline-script allowance', () => {
    expect(PAYPAL_SOURCES).toEqual([
      'https://www.paypal.com',
      'https://*.paypal.com',
      'https://*.paypalobjects.com',
      'https://*.venmo.com',
    ]);
    expect(withDirectiveSources("script-src 'self'", 'script-src', PAYPAL_SOURCES)).not.toMatch(/unsafe/);
  });
});

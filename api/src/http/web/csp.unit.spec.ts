// Proves the script-src edit: the hashes join script-src and nothing else changes; without a
// script-src one is added that still allows 'self'; no hashes leaves the policy as it was.
import { describe, expect, it } from 'vitest';
import { withScriptSources } from './csp.js';

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

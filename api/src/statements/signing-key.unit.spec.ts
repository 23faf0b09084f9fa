// Proves the statement signing key (ADR 090): a seed reads from 64 hex digits or base64 and nothing else; the default key derived from the app secret is stable and differs per secret; signatures are deterministic and verify with the published key given as raw base64 or PEM, and fail for another message or key.
import { describe, expect, it } from 'vitest';
import { parseSeed, publicKeyOf, seedFromAppSecret, statementSigner, verifySignature } from './signing-key.js';

const message = new TextEncoder().encode('["quern-statement-v1"]');

describe('the statement signing key', () => {
  it('reads a 32-byte seed as hex or base64, and refuses other lengths and alphabets', () => {
    const seed = Buffer.alloc(32, 9);
    expect(parseSeed(seed.toString('hex'))?.equals(seed)).toBe(true);
    expect(parseSeed(seed.toString('base64'))?.equals(seed)).toBe(true);
    expect(parseSeed(seed.toString('base64url'))?.equals(seed)).toBe(true);
    for (const bad of ['', 'zz'.repeat(32), Buffer.alloc(31).toString('hex'), Buffer.alloc(33).toString('base64')])
      expect(parseSeed(bad), bad).toBeUndefined();
  });

  it('derives the same key from the same app secret, another from another', () => {
    const a = statementSigner(seedFromAppSecret('a'.repeat(32)));
    expect(statementSigner(seedFromAppSecret('a'.repeat(32))).publicKeyBase64).toBe(a.publicKeyBase64);
    expect(statementSigner(seedFromAppSecret('b'.repeat(32))).publicKeyBase64).not.toBe(a.publicKeyBase64);
    expect(Buffer.from(a.publicKeyBase64, 'base64')).toHaveLength(32);
  });

  it('signs deterministically, and the signature verifies with the raw or PEM public key only for that message and key', () => {
    const signer = statementSigner(Buffer.alloc(32, 1));
    const signature = signer.sign(message);
    expect(signer.sign(message)).toBe(signature);
    expect(verifySignature(publicKeyOf(signer.publicKeyBase64), message, signature)).toBe(true);
    expect(verifySignature(publicKeyOf(signer.publicKeyPem), message, signature)).toBe(true);
    expect(verifySignature(publicKeyOf(signer.publicKeyBase64), new TextEncoder().encode('other'), signature)).toBe(false);
    const other = statementSigner(Buffer.alloc(32, 2));
    expect(verifySignature(publicKeyOf(other.publicKeyBase64), message, signature)).toBe(false);
    expect(() => publicKeyOf('short')).toThrow();
  });
});

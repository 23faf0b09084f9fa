// Proves reset tokens verify only when well-formed and signed with the same secret, and name the user and request they were made for.
import { describe, expect, it } from 'vitest';
import { createResetToken, verifyResetToken } from './reset-token.js';

const secret = 'a-secret-of-more-than-thirty-two-chars';
const userId = '0b6f4e0c-7c1e-4d3a-9f7a-3f0e2d1c4b5a';
const requestId = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

describe('createResetToken / verifyResetToken', () => {
  it('given a token made with the secret, when verified, then it yields the user and request ids', () => {
    const token = createResetToken(secret, userId, requestId);
    expect(token).toMatch(new RegExp(`^${userId}\\.${requestId}\\.[A-Za-z0-9_-]{43}$`));
    expect(verifyResetToken(secret, token)).toEqual({ userId, requestId });
  });

  it('given the documented format, when the MAC is computed independently, then it matches', () => {
    // Computed with Node's crypto: createHmac('sha256', secret).update(`${userId}.${requestId}`).digest('base64url').
    const mac = 'VJbLL-QufFUsGAnyRJ_0khoPhXnNKWzPb35V976ldGs';
    expect(createResetToken(secret, userId, requestId)).toBe(`${userId}.${requestId}.${mac}`);
  });

  it('given the same inputs, when made twice, then the token is the same (it can be rebuilt from the log)', () => {
    expect(createResetToken(secret, userId, requestId)).toBe(createResetToken(secret, userId, requestId));
  });

  it('given another secret, when verified, then it is refused', () => {
    expect(verifyResetToken('another-secret-of-enough-length', createResetToken(secret, userId, requestId))).toBeNull();
  });

  it('given a token whose ids were swapped or altered, when verified, then it is refused', () => {
    const [, , signature] = createResetToken(secret, userId, requestId).split('.');
    expect(verifyResetToken(secret, `${requestId}.${userId}.${signature}`)).toBeNull();
    expect(verifyResetToken(secret, `${userId.replace('0b6f', '0b6e')}.${requestId}.${signature}`)).toBeNull();
  });

  it('given a flipped signature character, when verified, then it is refused', () => {
    const token = createResetToken(secret, userId, requestId);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    expect(verifyResetToken(secret, `${token.slice(0, -1)}${last}`)).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['two parts', `${userId}.${requestId}`],
    ['four parts', `${userId}.${requestId}.x.y`],
    ['padding', `${userId}.${requestId}.${'A'.repeat(43)}=`],
    ['short signature', `${userId}.${requestId}.${'A'.repeat(42)}`],
    ['id with a slash', `../etc.${requestId}.${'A'.repeat(43)}`],
    ['huge', 'a'.repeat(10_000)],
  ])('given a malformed token (%s), when verified, then it is refused without throwing', (_label, token) => {
    expect(verifyResetToken(secret, token)).toBeNull();
  });

  it('given a non-string token, when verified, then it is refused', () => {
    expect(verifyResetToken(secret, 42 as unknown as string)).toBeNull();
  });

  it('given a short secret, when a token is made, then it is refused', () => {
    expect(() => createResetToken('short', userId, requestId)).toThrow(/at least 16/);
  });

  it('given an id with a dot, when a token is made, then it is refused (it would split the token)', () => {
    expect(() => createResetToken(secret, 'a.b', requestId)).toThrow(/ids of letters/);
  });
});

// Proves the common-password list loads from its package with at least 10,000 entries and
// recognises common passwords whatever their case, but not an uncommon one.
import { describe, expect, it } from 'vitest';
import { isCommonPassword, loadCommonPasswords } from './common-passwords.js';

describe('common passwords', () => {
  it('given the package, when loaded, then it holds at least 10,000 passwords', () => {
    expect(loadCommonPasswords().size).toBeGreaterThanOrEqual(10_000);
  });

  it.each(['password', 'PassWord', '12345678', 'iloveyou', 'qwertyuiop'])('given %j, then it is common', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each(['correct horse battery', 'Zq7!mLp2#vR9', ''])('given %j, then it is not common', (password) => {
    expect(isCommonPassword(password)).toBe(false);
  });
});

// Proves how recovery codes are named and recorded (ADR 045): a typed code of the current shape
// has a name whatever its case, dashes and spaces; anything else has none; the recorded field
// reads back as the codes written, and a value that is not such a field reads as no codes.
import { describe, expect, it } from 'vitest';
import { decodeRecoveryCodes, encodeRecoveryCodes, normalizeRecoveryCode, recoveryCodeName } from './recovery-codes.js';

describe('recovery codes', () => {
  it('given a code as typed, then its name is its first group, ignoring case, dashes and spaces', () => {
    expect(recoveryCodeName('ABCD-EFGH-IJKL-MNOP-QR27')).toBe('ABCD');
    expect(recoveryCodeName(' abcd efgh-ijkl mnop qr27 ')).toBe('ABCD');
    expect(normalizeRecoveryCode('abcd-efgh')).toBe('ABCDEFGH');
  });

  it('given text that is not a current code (an earlier hex code, too short, a 0 or 1), then it has no name', () => {
    expect(recoveryCodeName('0a1b2-c3d4e')).toBeUndefined();
    expect(recoveryCodeName('ABCD-EFGH-IJKL-MNOP')).toBeUndefined();
    expect(recoveryCodeName('ABCD-EFGH-IJKL-MNOP-QR10')).toBeUndefined();
    expect(recoveryCodeName('')).toBeUndefined();
  });

  it('given names and hashes, then the field reads back as them; an erased or foreign value reads as none', () => {
    const codes = [
      { name: 'ABCD', hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA' },
      { name: 'WXYZ', hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdB$aGFzaB' },
    ];
    expect(decodeRecoveryCodes(encodeRecoveryCodes(codes))).toEqual(codes.map((c) => ({ kind: 'argon2id', ...c })));
    expect(decodeRecoveryCodes('[erased]')).toEqual([]);
  });
});

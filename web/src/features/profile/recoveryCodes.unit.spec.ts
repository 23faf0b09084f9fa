// Proves the recovery codes' Copy and Download texts (issue 25): every code, one a line, in order;
// the file names the product and the username, reduced to safe characters, and says whose they are.
import { describe, expect, it } from 'vitest';
import { recoveryCodesFileName, recoveryCodesFileText, recoveryCodesText } from './recoveryCodes.js';

const codes = ['aaaa-bbbb', 'cccc-dddd', 'eeee-ffff'];

describe('recovery codes as text', () => {
  it('given the codes, then the copied text is every code on its own line, in order', () => {
    expect(recoveryCodesText(codes)).toBe('aaaa-bbbb\ncccc-dddd\neeee-ffff\n');
  });

  it('given a heading, then the file starts with it and holds every code', () => {
    expect(recoveryCodesFileText('Quern recovery codes for alice', codes)).toBe(
      'Quern recovery codes for alice\n\naaaa-bbbb\ncccc-dddd\neeee-ffff\n',
    );
  });

  it('given the product and the username, then the file is named after both, in safe characters', () => {
    expect(recoveryCodesFileName('Quern', 'alice')).toBe('quern-recovery-codes-alice.txt');
    expect(recoveryCodesFileName('Quern', 'Bob_Shop')).toBe('quern-recovery-codes-bob_shop.txt');
    expect(recoveryCodesFileName('Quern', '../x y')).toBe('quern-recovery-codes-x-y.txt');
    expect(recoveryCodesFileName('Quern', '')).toBe('quern-recovery-codes.txt');
  });
});

// Proves how the faucet reads its command line: amounts as the send form reads them, and --to
// as an address, an e-mail or a username, refusing what is none of them.
import { describe, expect, it } from 'vitest';
import { testAddress } from '@quern/core/wallet/testing';
import { classifyRecipient, FaucetInputError, parseFaucetArgs } from './faucet.js';

describe('parseFaucetArgs', () => {
  it('reads --to and --amount, with thousands separators, in either option style', () => {
    expect(parseFaucetArgs(['--to', 'alice', '--amount', '1,000,000'])).toEqual({ to: 'alice', amountMlx: 1_000_000n });
    expect(parseFaucetArgs(['--amount=1 000', '--to=  bob  '])).toEqual({ to: 'bob', amountMlx: 1000n });
    expect(parseFaucetArgs(['-h'])).toBe('help');
  });

  it('refuses missing, malformed and extra input', () => {
    for (const argv of [
      [],
      ['--to', 'alice'],
      ['--amount', '5'],
      ['--to', '', '--amount', '5'],
      ['--to', 'alice', '--amount', '0'],
      ['--to', 'alice', '--amount', '1.5'],
      ['--to', 'alice', '--amount', '-5'],
      ['--to', 'alice', '--amount', '9,000,000,000,000,001'],
      ['--to', 'alice', '--amount', '5', 'extra'],
      ['--to', 'alice', '--amount', '5', '--mint'],
      ['--to', 'x'.repeat(255), '--amount', '5'],
    ]) {
      expect(() => parseFaucetArgs(argv), JSON.stringify(argv)).toThrow(FaucetInputError);
    }
  });
});

describe('classifyRecipient', () => {
  it('tells addresses, e-mails and usernames apart and normalizes the keys', () => {
    const address = testAddress(3);
    expect(classifyRecipient(address)).toEqual({ kind: 'address', address });
    expect(classifyRecipient('Alice@Example.COM')).toEqual({ kind: 'user', key: 'email', value: 'alice@example.com' });
    expect(classifyRecipient('Alice_1')).toEqual({ kind: 'user', key: 'username', value: 'alice_1' });
  });

  it('refuses a mistyped address rather than looking it up as a username', () => {
    const address = testAddress(3);
    const mistyped = `${address.slice(0, -1)}${address.endsWith('z') ? 'y' : 'z'}`;
    expect(() => classifyRecipient(mistyped)).toThrow(/valid millix address \(badChecksum\)/);
    expect(() => classifyRecipient('has space')).toThrow(FaucetInputError);
  });
});

// Proves millix addresses are built and parsed as millix writes them, and that every kind of corruption is refused.
import { describe, expect, it } from 'vitest';
import { composeAddress, createAddress, deriveAddress, isSameWallet, isValidAddress, parseAddress } from './address.js';

const hex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

// Computed with an independent implementation (Python hashlib) of Base58Check.
const keyA = hex('8f3a1c9e2b7d4a6051e3c2b9a8d7f6e5c4b3a291');
const keyB = hex('010966776006953d5567439e5e39f86a0d273bee');
const mainnetA = '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a01E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw';
const testnetA = 'mtaGYASfsbAa7uJQcxjaL9Fv2YHb1jgiyalalmtaGYASfsbAa7uJQcxjaL9Fv2YHb1jgiya';
const mainnetB = '16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM0a016UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM';

describe('createAddress', () => {
  it('given a 20-byte key identifier, when creating a mainnet address, then it is base + 0a0 + key identifier, 71 characters', () => {
    expect(createAddress(keyA, 'mainnet')).toBe(mainnetA);
    expect(mainnetA).toHaveLength(71);
    expect(mainnetA.startsWith('1')).toBe(true);
  });

  it('given the same bytes, when creating a testnet address, then the parts use version 0x6f and the marker is lal', () => {
    expect(createAddress(keyA, 'testnet')).toBe(testnetA);
  });

  it('given a hash whose Base58 is shorter, when creating, then the address is shorter but valid', () => {
    expect(createAddress(keyB, 'mainnet')).toBe(mainnetB);
    expect(mainnetB).toHaveLength(69);
  });

  it('given a different base and key identifier, when composing, then both parts appear in order', () => {
    expect(composeAddress(keyA, keyB, 'mainnet')).toBe('1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a016UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM');
  });

  it('given anything but 20 bytes, when creating, then it throws', () => {
    expect(() => createAddress(new Uint8Array(19), 'mainnet')).toThrow(RangeError);
    expect(() => createAddress(new Uint8Array(21), 'mainnet')).toThrow(RangeError);
  });
});

describe('parseAddress', () => {
  it('given a valid mainnet address, when parsed, then its parts, marker and network come back', () => {
    const parsed = parseAddress(mainnetA);
    expect(parsed).toMatchObject({
      ok: true,
      base: '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw',
      version: '0a0',
      keyIdentifier: '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw',
      network: 'mainnet',
    });
    expect(parsed.ok && parsed.keyIdentifierBytes).toEqual(keyA);
  });

  it('given a valid testnet address, when parsed, then the network is testnet', () => {
    expect(parseAddress(testnetA)).toMatchObject({ ok: true, version: 'lal', network: 'testnet' });
  });

  it.each([
    ['empty', ''],
    ['tooLong', mainnetA + mainnetA],
    ['missingVersion', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw'],
    ['ambiguousVersion', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a01E4KF7Mh4Z0a0jKLnpnuPmCWE3bAYgt8cm5Rw'],
    ['ambiguousVersion', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a0lal'],
    ['badChecksum', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rx0a01E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw'],
    ['badChecksum', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a01E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rx'],
    ['invalidCharacter', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5RO0a01E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw'],
    ['invalidCharacter', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a01E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5RI'],
    ['invalidCharacter', ` ${mainnetA}`],
    ['badLength', '0a01E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw'],
    ['badLength', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a0'],
    ['badLength', '16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM0a02g'],
    ['networkMismatch', '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5RwlalmtaGYASfsbAa7uJQcxjaL9Fv2YHb1jgiya'],
    ['networkMismatch', 'mtaGYASfsbAa7uJQcxjaL9Fv2YHb1jgiya0a01E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw'],
  ])('given a corrupted address (%s), when parsed, then it is refused for that reason', (reason, text) => {
    expect(parseAddress(text)).toEqual({ ok: false, reason });
  });

  it('given every single-character substitution in the key identifier, when parsed, then none is accepted', () => {
    const at = mainnetA.indexOf('0a0') + 3;
    for (let i = at; i < mainnetA.length; i += 1) {
      const replacement = mainnetA[i] === 'z' ? 'y' : 'z';
      const corrupted = mainnetA.slice(0, i) + replacement + mainnetA.slice(i + 1);
      expect(isValidAddress(corrupted), corrupted).toBe(false);
    }
  });

  it('given a valid address and a network, when validated, then only that network accepts it', () => {
    expect(isValidAddress(mainnetA)).toBe(true);
    expect(isValidAddress(mainnetA, 'mainnet')).toBe(true);
    expect(isValidAddress(mainnetA, 'testnet')).toBe(false);
    expect(isValidAddress(42)).toBe(false);
    expect(isValidAddress(undefined)).toBe(false);
  });
});

describe('isSameWallet', () => {
  it('given two addresses with one key identifier, when compared, then they are the same wallet', () => {
    expect(isSameWallet(composeAddress(keyB, keyA, 'mainnet'), mainnetA)).toBe(true);
    expect(isSameWallet(mainnetA, mainnetB)).toBe(false);
    expect(isSameWallet(mainnetA, testnetA)).toBe(false);
    expect(isSameWallet(mainnetA, 'not an address')).toBe(false);
  });
});

describe('deriveAddress', () => {
  it("given a wallet's address and a fresh base, then another address of the same wallet: the base first, the wallet's key identifier after", () => {
    const derived = deriveAddress(mainnetA, keyB);
    expect(derived).toBe(composeAddress(keyB, keyA, 'mainnet'));
    expect(derived).not.toBe(mainnetA);
    expect(isSameWallet(derived, mainnetA)).toBe(true);
    expect(isSameWallet(deriveAddress(testnetA, keyB), mainnetA)).toBe(false);
    expect(() => deriveAddress('not an address', keyB)).toThrow();
  });
});

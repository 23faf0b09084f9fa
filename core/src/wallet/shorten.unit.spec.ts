// Proves the spec's shortening rule: split on the version marker, keep 10 characters, '…', then the key identifier from its 25th character.
import { describe, expect, it } from 'vitest';
import { shortenIdentifier } from './shorten.js';

describe('shortenIdentifier', () => {
  it('given a 71-character mainnet address, when shortened, then it shows 10 + … + the last 10 of the key identifier', () => {
    const address = '1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a01E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw';
    expect(shortenIdentifier(address)).toBe('1E4KF7Mh4Z…AYgt8cm5Rw');
  });

  it('given a testnet address, when shortened, then it splits on lal', () => {
    const address = 'mtaGYASfsbAa7uJQcxjaL9Fv2YHb1jgiyalalmtaGYASfsbAa7uJQcxjaL9Fv2YHb1jgiya';
    expect(shortenIdentifier(address)).toBe('mtaGYASfsb…2YHb1jgiya');
  });

  it('given an address with 33-character parts, when shortened, then the tail is what follows character 24', () => {
    expect(shortenIdentifier('16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM0a016UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM')).toBe('16UwLL9Ris…BQ7wMtjvM');
  });

  it('given a long identifier without a marker (a transaction hash), when shortened, then first 10 + … + last 10', () => {
    const hash = '2Xb4cE9fG7hJ1kLmN3pQ5rS8tU6vW4xY2zA9bC7dE5f';
    expect(shortenIdentifier(hash)).toBe('2Xb4cE9fG7…zA9bC7dE5f');
    expect(shortenIdentifier(hash)).toHaveLength(21);
  });

  it('given text of 21 characters or fewer, when shortened, then it is unchanged', () => {
    expect(shortenIdentifier('')).toBe('');
    expect(shortenIdentifier('alice_01')).toBe('alice_01');
    expect(shortenIdentifier('123456789012345678901')).toBe('123456789012345678901');
    expect(shortenIdentifier('1234567890123456789012')).toBe('1234567890…3456789012');
  });

  it('given an e-mail that contains lal, when shortened, then it is not split on the marker', () => {
    expect(shortenIdentifier('carlala@example.com')).toBe('carlala@example.com');
    expect(shortenIdentifier('carlala.the.great@example.com')).toBe('carlala.th…xample.com');
  });

  it('given a marker whose second piece is 24 characters or fewer, when shortened, then the generic rule applies', () => {
    const text = `1E4KF7Mh4ZjKLnpnuPmCWE3bAYgt8cm5Rw0a0${'a'.repeat(24)}`;
    expect(shortenIdentifier(text)).toBe(`1E4KF7Mh4Z…${'a'.repeat(10)}`);
  });
});

// Proves Base58 and Base58Check match Bitcoin's published vectors and refuse corrupted text.
import { describe, expect, it } from 'vitest';
import { base58CheckDecode, base58CheckEncode, base58Decode, base58Encode, BASE58_BYTES_MAX } from './base58.js';

const hex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));

// Bitcoin Core's src/test/data/base58_encode_decode.json.
const vectors: Array<[string, string]> = [
  ['', ''],
  ['61', '2g'],
  ['626262', 'a3gV'],
  ['636363', 'aPEr'],
  ['73696d706c792061206c6f6e6720737472696e67', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
  ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
  ['516b6fcd0f', 'ABnLTmg'],
  ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
  ['572e4794', '3EFU7m'],
  ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
  ['10c8511e', 'Rt5zm'],
  ['00000000000000000000', '1111111111'],
];

describe('base58', () => {
  it.each(vectors)('given bytes %s, when encoded, then they read %s and decode back', (bytesHex, text) => {
    expect(base58Encode(hex(bytesHex))).toBe(text);
    expect(base58Decode(text)).toEqual(hex(bytesHex));
  });

  it('given text with a character outside the alphabet (0, O, I, l, +), when decoded, then nothing is returned', () => {
    for (const bad of ['10', 'O1', 'I1', 'l1', 'a+b', 'ab ']) expect(base58Decode(bad)).toBeUndefined();
  });

  it('given more bytes than the bound, when encoded, then it throws instead of doing unbounded work', () => {
    expect(() => base58Encode(new Uint8Array(BASE58_BYTES_MAX + 1))).toThrow(RangeError);
  });
});

describe('base58check', () => {
  // The Bitcoin wiki's worked example: version 0 + hash160 010966776006953D5567439E5E39F86A0D273BEE.
  const hash160 = hex('010966776006953d5567439e5e39f86a0d273bee');

  it('given the wiki example, when encoded, then it is the known address', () => {
    expect(base58CheckEncode(0x00, hash160)).toBe('16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM');
  });

  it('given the known address, when decoded, then version and payload come back', () => {
    const decoded = base58CheckDecode('16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM');
    expect(decoded).toEqual({ ok: true, versionByte: 0, payload: hash160 });
  });

  it('given one changed character, when decoded, then the checksum fails', () => {
    expect(base58CheckDecode('16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvN')).toEqual({ ok: false, reason: 'checksum' });
  });

  it('given too little text or a bad character, when decoded, then length or alphabet is the reason', () => {
    expect(base58CheckDecode('')).toEqual({ ok: false, reason: 'length' });
    expect(base58CheckDecode('2g')).toEqual({ ok: false, reason: 'length' });
    expect(base58CheckDecode('16UwLL9Risc3QfPqBUvKofHmBQ7wMtjv0')).toEqual({ ok: false, reason: 'alphabet' });
  });

  it('given a version byte outside 0..255, when encoding, then it throws', () => {
    expect(() => base58CheckEncode(256, hash160)).toThrow(RangeError);
    expect(() => base58CheckEncode(-1, hash160)).toThrow(RangeError);
  });
});

// Proves the prerender contract check: a valid manifest parses and its hashes come out quoted as
// CSP needs; names that could leave dist, a default outside the languages, a hash that is not
// one and text that is not JSON are refused with the file's name in the message.
import { describe, expect, it } from 'vitest';
import { hashSources, parseManifest } from './manifest.js';

const valid = {
  languages: ['en', 'es'],
  defaultLanguage: 'en',
  pages: { '/': 'home', '/faqs': 'faqs' },
  shell: 'shell',
  notFound: 'not-found',
  routes: ['/', '/users/:id'],
  scriptHashes: ['sha256-QUJD+/=', "'sha384-REVG'"],
};
const parse = (manifest: object) => parseManifest(JSON.stringify(manifest), 'manifest.json');

describe('parseManifest', () => {
  it('given a valid manifest, when parsed, then it is kept and its hashes are quoted once', () => {
    const manifest = parse(valid);
    expect(manifest).toEqual(valid);
    expect(hashSources(manifest)).toEqual(["'sha256-QUJD+/='", "'sha384-REVG'"]);
  });

  it('given names that are paths, when parsed, then refused', () => {
    expect(() => parse({ ...valid, shell: '../shell' })).toThrow(/manifest\.json/);
    expect(() => parse({ ...valid, languages: ['en', 'es/../..'] })).toThrow();
    expect(() => parse({ ...valid, pages: { '/x': 'a/b' } })).toThrow();
    expect(() => parse({ ...valid, pages: { x: 'home' } })).toThrow();
  });

  it('given a default outside the languages or a hash that is not one, when parsed, then refused', () => {
    expect(() => parse({ ...valid, defaultLanguage: 'fr' })).toThrow(/defaultLanguage/);
    expect(() => parse({ ...valid, scriptHashes: ["'unsafe-inline'"] })).toThrow();
  });

  it('given text that is not JSON, when parsed, then refused naming the file', () => {
    expect(() => parseManifest('{"languages":', 'dist/prerendered/manifest.json')).toThrow(/dist\/prerendered\/manifest\.json is not JSON/);
  });
});

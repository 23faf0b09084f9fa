// Proves the Buy page's document check: the path comes from the navigation entry's URL, paths
// compare as the server matches them (case, trailing slashes), a document loaded elsewhere
// reloads once and then draws the page rather than loop, and no entry (no Navigation Timing)
// never reloads.
import { describe, expect, it } from 'vitest';
import { decideDocument, loadedDocumentPath, needsOwnDocument } from './documentLoad.js';

const entry = (name: string) => ({ name }) as PerformanceEntry;

describe('loadedDocumentPath', () => {
  it('given a navigation entry, then the path of its URL without query or fragment', () => {
    expect(loadedDocumentPath([entry('http://127.0.0.1:8080/account?page=2#top')])).toBe('/account');
  });

  it('given no entry or an unreadable one, then null', () => {
    expect(loadedDocumentPath([])).toBeNull();
    expect(loadedDocumentPath([entry('')])).toBeNull();
    expect(loadedDocumentPath([entry('not a url')])).toBeNull();
  });
});

describe('needsOwnDocument', () => {
  it('given the same path in another case or with a trailing slash, then the document is right', () => {
    expect(needsOwnDocument('/millix/buy', '/millix/buy')).toBe(false);
    expect(needsOwnDocument('/MILLIX/Buy/', '/millix/buy')).toBe(false);
  });

  it('given another path, then a document of its own is needed; given none known, then not', () => {
    expect(needsOwnDocument('/account', '/millix/buy')).toBe(true);
    expect(needsOwnDocument('/millix/buyer', '/millix/buy')).toBe(true);
    expect(needsOwnDocument(null, '/millix/buy')).toBe(false);
  });
});

describe('decideDocument', () => {
  it('given a document loaded elsewhere and no reload yet, then reload', () => {
    expect(decideDocument('/account', '/millix/buy', null)).toBe('reload');
    expect(decideDocument('/account', '/millix/buy', '/millix/send')).toBe('reload');
  });

  it('given it already reloaded for this page and still does not match, then draw the page rather than loop', () => {
    expect(decideDocument('/account', '/millix/buy', '/millix/buy')).toBe('ready');
  });

  it('given the right document, then ready', () => {
    expect(decideDocument('/millix/buy', '/millix/buy', null)).toBe('ready');
  });
});
